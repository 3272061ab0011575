#!/usr/bin/env python3
"""Stable-Baselines3's PPO learns Playfield's maze (an empty 12 x 12 box: roll the ball from the
centre to the top-left cell; the reward is the progress in cells) through `playfield_client.sb3`, all its
environments stepped over one batch connection. Needs SB3 and PyTorch (not in the test
requirements: PyTorch is over 500 MB), so it is run by hand:

    pip install "./clients/python[gym]" stable-baselines3
    python3 docs/examples/sb3_ppo.py --url http://127.0.0.1:8080 --steps 20000

It prints the mean reward of 5 evaluation episodes before and after learning, and the steps
per second of learning (on a shared machine, a rough figure).
"""
import argparse
import time

import numpy as np
from stable_baselines3 import PPO

from playfield_client.sb3 import PlayfieldVecEnv


def evaluate(model, env, episodes):
    """Mean total reward of the first `episodes` episodes to end, acting deterministically."""
    observations = env.reset()
    totals, running = [], np.zeros(env.num_envs)
    while len(totals) < episodes:
        actions, _ = model.predict(observations, deterministic=True)
        observations, rewards, dones, _ = env.step(actions)
        running += rewards
        for i in np.flatnonzero(dones):
            totals.append(running[i])
            running[i] = 0
    return float(np.mean(totals[:episodes]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20_000, help="learning steps in all")
    parser.add_argument("--episode", type=int, default=200, help="steps per episode")
    args = parser.parse_args()
    env = PlayfieldVecEnv("PlayfieldMaze-v0", num_envs=args.envs, base_url=args.url,
                          max_episode_steps=args.episode, frame_skip=4, layout="config")
    try:
        env.seed(1)
        model = PPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=1, verbose=0,
                    device="cpu")
        before = evaluate(model, env, 5)
        started = time.perf_counter()
        model.learn(args.steps)
        elapsed = time.perf_counter() - started
        after = evaluate(model, env, 5)
        print(f"PPO on PlayfieldMaze-v0, {args.envs} envs: mean reward {before:.2f} before, "
              f"{after:.2f} after {args.steps} steps ({args.steps / elapsed:.0f} steps/s learning)")
    finally:
        env.close()


if __name__ == "__main__":
    main()
