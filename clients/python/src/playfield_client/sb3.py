"""Stable-Baselines3: the Playfield vector environments as an SB3 `VecEnv`.

    from stable_baselines3 import PPO
    from playfield_client.sb3 import PlayfieldVecEnv

    env = PlayfieldVecEnv("PlayfieldHoles-v0", num_envs=8, base_url="http://127.0.0.1:8080")
    model = PPO("MlpPolicy", env).learn(10_000)

SB3 steps vector environments itself (`VecEnv`, not Gymnasium's `VectorEnv`) and resets an
environment in the step that ends its episode: that step returns the next episode's first
observation, with the last one in `infos[i]["terminal_observation"]` and
`infos[i]["TimeLimit.truncated"]` True when the time limit (not the game) ended it, as SB3's
own `DummyVecEnv` does. This wraps the package's native vector environment (all sessions over
one batch connection, stepped on demand) in its same-step autoreset mode, so nothing is
stepped twice and no step is lost. `seed(S)` seeds environment i with S + i at the next
`reset()`, as SB3 does.

Install SB3 yourself (`pip install stable-baselines3`: it needs PyTorch, over 500 MB on its
own); this module imports it.
"""
from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

# NB: SB3 is not a dependency of the package (PyTorch is too big for it); mypy checks this
# module with or without it.
from stable_baselines3.common.vec_env.base_vec_env import (  # type: ignore[import-not-found,unused-ignore]
    VecEnv)

from . import gym as _gym  # noqa: F401  (registers the ids)


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python number a single environment's info would hold."""
    return value.item() if isinstance(value, np.generic) else value


def _split(infos: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """A Gymnasium vector info dict (arrays with `_key` masks) as one dict per environment."""
    split: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, values in infos.items():
        if key.startswith("_") or key in ("final_obs", "final_info"):
            continue
        mask = infos.get("_" + key, np.ones(num_envs, dtype=np.bool_))
        for i in range(num_envs):
            if mask[i]:
                split[i][key] = _plain(values[i])
    return split


class PlayfieldVecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """`num_envs` Playfield environments of `env_id` (`PlayfieldMaze-v0`,
    `PlayfieldHoles-v0`) as one Stable-Baselines3 `VecEnv`. Options are the Gymnasium
    environment's (`base_url`, `config`, `frame_skip`, `max_tilt`...), and `max_episode_steps`
    (default the id's: 1,800 for the maze, 3,600 for holes)."""

    def __init__(self, env_id: str = "PlayfieldHoles-v0", num_envs: int = 8,
                 **options: Any) -> None:
        self.venv: Any = gymnasium.make_vec(
            env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
            autoreset_mode=AutoresetMode.SAME_STEP, **options)
        self.render_mode = None
        self._actions: NDArray[np.float32] | None = None
        super().__init__(num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)

    # The VecEnv interface

    def reset(self) -> NDArray[np.float32]:
        seeds = list(self._seeds)
        seed = None if all(s is None for s in seeds) else seeds
        observations, infos = self.venv.reset(seed=seed)
        self.reset_infos = _split(infos, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        result: NDArray[np.float32] = observations
        return result

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.float32)

    def step_wait(self) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        observations, rewards, terminated, truncated, infos = self.venv.step(actions)
        dones = np.asarray(terminated | truncated, dtype=np.bool_)
        ended = dones.any()
        split = _split(infos, self.num_envs)
        final = _split(infos["final_info"], self.num_envs) if ended else None
        for i in range(self.num_envs):
            if dones[i] and final is not None:
                # NB: as DummyVecEnv: the info of the step that ended it, and the new episode's
                # first info as its reset info.
                self.reset_infos[i] = split[i]
                split[i] = final[i]
                split[i]["terminal_observation"] = infos["final_obs"][i]
            split[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return (observations, np.asarray(rewards, dtype=np.float32), dones, split)

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute of the environments (they share one object: the vector env)."""
        return [getattr(self.venv, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        method = getattr(self.venv, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        chosen: Iterable[int] = indices
        return list(chosen)

    @property
    def session_ids(self) -> list[str]:
        """The server sessions, one per environment (watch them at `/demos/KIND?session=ID`)."""
        ids: list[str] = self.venv.unwrapped.session_ids
        return ids
