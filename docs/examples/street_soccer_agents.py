#!/usr/bin/env python3
"""Two agents play street soccer through PettingZoo: a random agent (player_0, home) against a
greedy one (player_1, away) that runs with the ball toward the goal it attacks and shoots when it can. Each
match has a fixed seed, so a second run prints the same scores.

    pip install "./clients/python[pettingzoo]"
    python3 docs/examples/street_soccer_agents.py --url http://127.0.0.1:8080

The environment is documented in clients/python/README.md and
clients/python/src/playfield_client/pettingzoo/street_soccer_v0.py.
"""
import argparse

import numpy as np

from playfield_client.pettingzoo import street_soccer_v0


def random_agent(game, agent, observation, mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


def greedy_agent(game, agent, observation, mask, rng):
    """A shot if there is one; else the legal move that ends nearest the goal it attacks (on
    the right: every agent sees the pitch from its own end); END when nothing gets closer."""
    target = game.width - 1
    best, best_gain = game.end if mask[game.end] else None, 0.0
    for action in np.flatnonzero(mask[:-1]):
        rest = int(action) // game.rows
        kind = street_soccer_v0.KINDS[rest // game.width // street_soccer_v0.PIECES]
        column = rest % game.width  # of the square the move goes to, in the agent's view
        if kind == "kick" and column == target:
            return int(action)  # a shot
        carries = _carries(game, agent, game.decode(agent, int(action)))
        gain = game.width - abs(target - column) if kind != "step" or carries else 0.5
        if best is None or gain > best_gain:
            best, best_gain = int(action), gain
    return best


def _carries(game, agent, move):
    """Whether the piece that moves holds the ball (server squares)."""
    board = game.plan["board"]
    lane = (0 if agent == "player_0" else 5) + move["piece"] - 1
    return board["pieces"][2 * lane: 2 * lane + 2] == board["ball"]


def play(url, seed, turns):
    env = street_soccer_v0.env(base_url=url, turns_per_side=turns)
    rng = np.random.default_rng(seed)
    agents = {"player_0": random_agent, "player_1": greedy_agent}
    game = env.unwrapped.game
    try:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            elif agent != game.mover():
                action = game.end  # the other side plays: pass
            else:
                action = agents[agent](game, agent, observation, info["action_mask"], rng)
            env.step(action)
        return game.match.score
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
        print(f"seed {seed}: random (player_0, home) {home} - {away} greedy (player_1, away)")


if __name__ == "__main__":
    main()
