#!/usr/bin/env python3
"""Agent steps per second of the street soccer PettingZoo AEC environment over loopback: a
seeded random agent that takes the masked legal actions, matches of `--turns` turns each side,
reset at full time, for `--steps` agent steps.

    python3 Benchmarks/client/pettingzoo_steps.py [--steps 2000] [--turns 15] [--url URL]

Without `--url` it starts its own server (the client tests' launcher, port 0, a fresh
database). It reads the mask from `info["action_mask"]`, or from the observation where an
environment puts it there (the AEC environment before issue 36), so the same script measures
both: run it with `PYTHONPATH=OLD/clients/python/src` for the old one.
"""
import argparse
import pathlib
import sys
import time

import numpy as np

from playfield_client.pettingzoo import street_soccer_v0

ROOT = pathlib.Path(__file__).resolve().parents[2]


def mask_of(observation, info):
    if isinstance(observation, dict) and "action_mask" in observation:
        return observation["action_mask"]
    return info["action_mask"]


def run(url, steps, turns):
    env = street_soccer_v0.env(base_url=url, turns_per_side=turns)
    rng = np.random.default_rng(1)
    done = matches = 0
    try:
        env.reset(seed=1)
        started = time.perf_counter()
        while done < steps:
            for agent in env.agent_iter():
                observation, _, termination, truncation, info = env.last()
                action = None
                if not (termination or truncation):
                    action = int(rng.choice(np.flatnonzero(mask_of(observation, info))))
                env.step(action)
                done += 1
                if done >= steps:
                    break
            else:
                matches += 1
                env.reset(seed=1 + matches)
        elapsed = time.perf_counter() - started
    finally:
        env.close()
    return done, elapsed, matches


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=15)
    args = parser.parse_args()
    server = None
    url = args.url
    if url is None:
        sys.path.insert(0, str(ROOT / "clients" / "python" / "tests"))
        from conftest import Server

        server = Server()
        url = server.url
    try:
        done, elapsed, matches = run(url, args.steps, args.turns)
    finally:
        if server is not None:
            server.stop()
    # NB: since issue 36 every cycle has a step of each agent, the side not to play passing
    # (no server call), so whole matches per second compare the two environments better.
    print(f"{done} agent steps in {elapsed:.2f} s: {done / elapsed:,.0f} steps/s, "
          f"{matches} whole matches ({matches / elapsed:.2f} a second)")


if __name__ == "__main__":
    main()
