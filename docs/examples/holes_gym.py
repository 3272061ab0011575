#!/usr/bin/env python3
"""Plays Holes through Gymnasium: a random agent and a simple hand-written one, each for a few
episodes with fixed seeds, and prints their returns. Run it twice: the numbers are the same
(Holes itself has no randomness; the seeds drive the random agent's actions).

    pip install "./clients/python[gym]"
    python3 docs/examples/holes_gym.py --url http://127.0.0.1:8080

The environments are documented in clients/python/README.md.
"""
import argparse

import gymnasium
import numpy as np

import playfield_client.gym  # noqa: F401  (registers PlayfieldHoles-v0 and PlayfieldMaze-v0)


def random_agent(env, observation):
    return env.action_space.sample()


def steering_agent(env, observation):
    """A potential field: pulled toward the flag in the top-left corner, pushed away from every
    hole (harder the closer it is), and braked against its own velocity."""
    x, y, vx, vy, present, _, _, radius = observation[:8]
    if not present:
        return np.zeros(2, np.float32)
    ball = np.array([x, y])
    force = -ball / max(np.hypot(x, y), 1e-6) * 0.8
    for hole in observation[8:].reshape(-1, 2):
        away = ball - hole
        distance = max(np.hypot(*away), 1e-6)
        force += away / distance * 2 * (2 * radius / distance) ** 2
    force -= np.array([vx, vy]) * 0.005
    # Screen y points down; tilt y > 0 rolls up.
    tilt = np.array([force[0], -force[1]])
    return np.clip(tilt, env.action_space.low, env.action_space.high).astype(np.float32)


def play(env, agent, seed, steps):
    observation, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    total, points = 0.0, 0
    for _ in range(steps):
        observation, reward, terminated, truncated, info = env.step(agent(env, observation))
        total += reward
        points = info["score"]
        if terminated or truncated:
            break
    return total, points, info["ballsLeft"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the Playfield server")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--steps", type=int, default=1200, help="most steps (ticks) an episode")
    args = parser.parse_args()
    env = gymnasium.make("PlayfieldHoles-v0", base_url=args.url, max_tilt=2.0)
    try:
        for name, agent in (("random", random_agent), ("steering", steering_agent)):
            for episode in range(args.episodes):
                total, points, balls = play(env, agent, seed=episode, steps=args.steps)
                print(f"{name:8} seed {episode}: return {total:+.1f}, {points} points,"
                      f" {balls} balls left")
    finally:
        env.close()


if __name__ == "__main__":
    main()
