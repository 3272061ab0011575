"""The Stable-Baselines3 adapter (issue 36, item 10) against SB3's own `VecEnv` base class and
its autoreset contract: the step that ends an episode returns the next episode's first
observation, the last one in `terminal_observation`, `TimeLimit.truncated` for the time limit.

SB3's package imports PyTorch (over 500 MB, with CUDA libraries several GB), too big for the
test environment: where PyTorch is missing, SB3 is installed without its dependencies
(scripts/install-deps.sh) and its torch-free module `base_vec_env.py` is loaded alone. Training
with PPO is `docs/examples/sb3_ppo.py`, run by hand where PyTorch is installed."""
import importlib
import importlib.util
import pathlib
import sys
import types

import gymnasium
import numpy as np
import pytest

import playfield_client.gym  # noqa: F401  (registers the ids)

PARENTS = ("stable_baselines3", "stable_baselines3.common", "stable_baselines3.common.vec_env")


@pytest.fixture
def sb3(monkeypatch):
    """`playfield_client.sb3`, imported against SB3 as installed, or without its torch imports."""
    if importlib.util.find_spec("torch") is None:
        spec = importlib.util.find_spec("stable_baselines3")
        assert spec is not None, "stable-baselines3 is missing: run scripts/install-deps.sh --test"
        root = pathlib.Path(list(spec.submodule_search_locations)[0])
        for name in PARENTS:
            module = types.ModuleType(name)
            module.__path__ = [str(root.joinpath(*name.split(".")[1:]))]
            monkeypatch.setitem(sys.modules, name, module)
    for name in ("playfield_client.sb3", PARENTS[-1] + ".base_vec_env"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield importlib.import_module("playfield_client.sb3")
    for name in ("playfield_client.sb3", PARENTS[-1] + ".base_vec_env"):
        sys.modules.pop(name, None)


def single_run(url, seed, actions, steps):
    """A single environment's observations, with a reset after each `steps`-step episode."""
    env = gymnasium.make("PlayfieldHoles-v0", base_url=url, max_episode_steps=steps)
    try:
        observation, _ = env.reset(seed=seed)
        record = [observation]
        for action in actions:
            observation, reward, terminated, truncated, _ = env.step(action)
            record.append((observation, reward, terminated, truncated))
            if terminated or truncated:
                observation, _ = env.reset()
                record.append(observation)
        return record
    finally:
        env.close()


def test_the_adapter_follows_sb3s_vec_env_contract(server, sb3):
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv

    actions = np.random.default_rng(8).uniform(-1, 1, (7, 2, 2)).astype(np.float32)
    env = sb3.PlayfieldVecEnv("PlayfieldHoles-v0", num_envs=2, base_url=server.url,
                              max_episode_steps=5)
    try:
        assert isinstance(env, VecEnv) and env.num_envs == 2
        assert env.get_attr("render_mode") == [None, None] and env.render_mode is None
        assert env.env_is_wrapped(gymnasium.Wrapper) == [False, False]
        env.seed(30)  # SB3's seeding: environment i gets 30 + i at the next reset
        first = env.reset()
        assert first.dtype == np.float32 and first.shape == (2,) + env.observation_space.shape
        assert [info["steps"] for info in env.reset_infos] == [0, 0]
        singles = [single_run(server.url, 30 + i, actions[:, i], 5) for i in range(2)]
        for i in range(2):
            assert np.array_equal(first[i], singles[i][0])
        for t, action in enumerate(actions):
            observations, rewards, dones, infos = env.step(action)
            assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 2
            for i in range(2):
                observation, reward, terminated, truncated = singles[i][1 + t + (t >= 5)]
                assert rewards[i] == np.float32(reward)
                assert dones[i] == (terminated or truncated) == (t == 4)
                assert infos[i]["TimeLimit.truncated"] == (truncated and not terminated)
                if dones[i]:
                    # The episode's last observation, and at once the next one's first.
                    assert np.array_equal(infos[i]["terminal_observation"], observation)
                    assert infos[i]["steps"] == 5 and env.reset_infos[i]["steps"] == 0
                    assert np.array_equal(observations[i], singles[i][1 + t + 1])
                else:
                    assert "terminal_observation" not in infos[i]
                    assert np.array_equal(observations[i], observation)
        ids = env.session_ids
        assert len(ids) == 2 and all(isinstance(i, str) for i in ids)
    finally:
        env.close()
