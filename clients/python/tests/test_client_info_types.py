"""Every environment of the package gives info values of one type per key, over whole
episodes and across resets (issue 36, item 7): replay buffers such as Tianshou's stack the
infos of many steps into arrays and raise `TypeError` on an int beside a `None`."""
import gymnasium
import numpy as np
import pytest

import playfield_client.gym  # noqa: F401  (registers the ids)
from playfield_client.pettingzoo import street_soccer_v0


def kind(value):
    """The type that must not change: for arrays, the dtype and shape too."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape)
    if isinstance(value, list):
        return ("list", tuple(sorted({type(v).__name__ for v in value})))
    return type(value).__name__


class Kinds:
    """The key set and each key's kind, as first seen; every later info must match."""

    def __init__(self):
        self.first = None

    def check(self, info, where):
        seen = {key: kind(value) for key, value in info.items()}
        if self.first is None:
            self.first = seen
        assert seen == self.first, f"{where}: {seen} after {self.first}"


@pytest.mark.parametrize("env_id", ["PlayfieldMaze-v0", "PlayfieldHoles-v0"])
def test_gymnasium_infos_keep_their_types(server, env_id):
    env = gymnasium.make(env_id, base_url=server.url, max_episode_steps=40)
    kinds = Kinds()
    try:
        env.action_space.seed(3)
        _, info = env.reset(seed=3)
        kinds.check(info, "reset")
        for step in range(100):
            _, _, terminated, truncated, info = env.step(env.action_space.sample())
            kinds.check(info, f"step {step}")
            if terminated or truncated:
                _, info = env.reset()
                kinds.check(info, f"reset after step {step}")
        assert set(kinds.first) >= {"steps"}
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ["PlayfieldMaze-v0", "PlayfieldHoles-v0"])
def test_vector_infos_keep_their_types(server, env_id):
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                              base_url=server.url, max_episode_steps=15)
    kinds = Kinds()
    try:
        envs.action_space.seed(4)
        _, infos = envs.reset(seed=4)
        kinds.check(infos, "reset")
        for step in range(40):  # past two autoresets
            _, _, _, _, infos = envs.step(envs.action_space.sample())
            kinds.check(infos, f"step {step}")
    finally:
        envs.close()


def test_street_soccer_parallel_infos_keep_their_types_to_full_time(server):
    env = street_soccer_v0.parallel_env(base_url=server.url, turns_per_side=2)
    kinds = Kinds()
    rng = np.random.default_rng(7)
    try:
        _, infos = env.reset(seed=7)
        cycles = 0
        while env.agents:
            for agent, info in infos.items():
                kinds.check(info, f"cycle {cycles}, {agent}")
            actions = {agent: int(rng.choice(np.flatnonzero(infos[agent]["action_mask"])))
                       for agent in env.agents}
            _, _, _, _, infos = env.step(actions)
            cycles += 1
        assert env.game.match.over and cycles > 10
    finally:
        env.close()


def test_street_soccer_infos_keep_their_types_to_full_time(server):
    """A whole match, every agent's info after every step (the old environment gave `{}` at
    reset and `die: None` at full time)."""
    env = street_soccer_v0.env(base_url=server.url, turns_per_side=2)
    kinds = Kinds()
    rng = np.random.default_rng(6)
    try:
        env.reset(seed=6)
        for agent in env.possible_agents:
            kinds.check(env.infos[agent], f"reset, {agent}")
        steps = 0
        for agent in env.agent_iter(max_iter=400):
            observation, _, termination, truncation, info = env.last()
            kinds.check(info, f"step {steps}, {agent}")
            for other, other_info in env.infos.items():
                kinds.check(other_info, f"step {steps}, {other}")
            mask = info["action_mask"]
            action = None if termination or truncation else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            steps += 1
        assert env.unwrapped.game.match.over and steps > 10
        assert set(kinds.first) >= {"die"}
    finally:
        env.close()
