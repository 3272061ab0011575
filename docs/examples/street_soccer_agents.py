#!/usr/bin/env python3
"""Two agents play street soccer through PettingZoo: a random agent (home) against a greedy
one (away) that runs with the ball toward the goal it attacks and shoots when it can. Each
match has a fixed seed, so a second run prints the same scores.

    pip install "./clients/python[pettingzoo]"
    python3 docs/examples/street_soccer_agents.py --url http://127.0.0.1:8080

The environment is documented in clients/python/README.md and
clients/python/src/playfield_client/pettingzoo/street_soccer_v0.py.
"""
import argparse

import numpy as np

from playfield_client.pettingzoo import street_soccer_v0


def random_agent(env, agent, observation, rng):
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def greedy_agent(env, agent, observation, rng):
    """A shot if there is one; else the legal move that ends nearest the goal it attacks;
    confirm when nothing gets closer."""
    raw = env.unwrapped
    mask = observation["action_mask"]
    target = raw.width - 1 if observation["observation"][5, 0, raw.width - 1] else 0
    best, best_gain = raw.confirm if mask[raw.confirm] else None, 0
    for action in np.flatnonzero(mask[:-1]):
        move = raw.decode(action)
        x = move["to"][0] + 1
        if move["move"] == "kick" and x == target:
            return int(action)  # a shot
        gain = raw.width - abs(target - x) if move["move"] != "step" or _carries(raw, agent, move) else 0.5
        if best is None or gain > best_gain:
            best, best_gain = int(action), gain
    return best


def _carries(raw, agent, move):
    """Whether the piece that steps holds the ball."""
    board = raw._plan["board"]
    lane = (0 if agent == "home" else 5) + move["piece"] - 1
    return board["pieces"][2 * lane: 2 * lane + 2] == board["ball"]


def play(url, seed, turns):
    env = street_soccer_v0.env(base_url=url, turns_per_side=turns)
    rng = np.random.default_rng(seed)
    agents = {"home": random_agent, "away": greedy_agent}
    try:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            action = None if termination or truncation else agents[agent](env, agent, observation, rng)
            env.step(action)
        return env.unwrapped.match.score
    finally:
        env.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--turns", type=int, default=5, help="turns per side")
    args = parser.parse_args()
    for seed in range(args.matches):
        home, away = play(args.url, seed, args.turns)
        print(f"seed {seed}: random (home) {home} - {away} greedy (away)")


if __name__ == "__main__":
    main()
