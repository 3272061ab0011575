"""Street soccer from Python (issue 26): `client.street_soccer(...)` plays a match turn by turn
with the server's plans and rules, and the PettingZoo AEC environment passes PettingZoo's own
API test, masks exactly the server's legal moves, and is reproducible for a seed."""
import numpy as np
import pytest
from pettingzoo.test import api_test

from playfield_client import PlayfieldError, ServerError
from playfield_client.pettingzoo import street_soccer_v0


def test_a_match_against_the_strong_computer_plays_to_the_end(client):
    match = client.street_soccer(away="strong", turns_per_side=3, seed=11)
    try:
        assert match.to_move == "home" and 1 <= match.die <= 6
        turns = 0
        while not match.over:
            plan = match.plan("home")
            assert plan["pointsLeft"] == match.die and plan["legal"]
            # Two moves where the die allows: the first legal, then the first after it.
            moves = [plan["legal"][0]]
            after = match.plan("home", moves)
            if after["legal"] and after["pointsLeft"] > 0:
                moves.append(after["legal"][0])
            before = match.frame["turnsPlayed"]
            frame = match.play("home", moves)
            # The computer answered in the same call: it is home's turn again (or the end).
            assert frame["turnsPlayed"] == before + 2 or frame["phase"] == "over"
            turns += 1
        assert turns == 3 and match.frame["turnsPlayed"] == 6
        assert sum(match.stats["goals"]) == sum(match.score)
        frame = match.rematch("away")
        assert frame["match"] == 2 and frame["homeAttacks"] == "left"
    finally:
        match.close()


def test_the_replay_of_a_finished_match_ends_in_the_live_state(client):
    """Re-watch is the session's replay: its state at the last tick is the live one, bit for bit."""
    match = client.street_soccer(away="defensive", turns_per_side=2, seed=4)
    try:
        while not match.over:
            plan = match.plan("home")
            match.play("home", plan["legal"][:1] if plan["legal"] else [])
        live = client.state(match.info.id)
        assert live["tick"] == match.frame["tick"] and not live["running"]
        replayed = client.replay_state(match.info.id, live["tick"])
        assert replayed["stateHash"] == live["stateHash"]
    finally:
        match.close()


def test_bad_turns_name_the_rule_and_the_match_goes_on(client):
    match = client.street_soccer(away="human", turns_per_side=2, seed=3)
    try:
        with pytest.raises(ServerError, match="turn: it is home's turn"):
            match.plan("away")
        with pytest.raises(ServerError, match="move 1: home 2 does not have the ball"):
            match.play("home", [("kick", 2, (5, 1))])
        with pytest.raises(ServerError) as bad:
            match.plan("home", [("fly", 2, (5, 1))])
        assert bad.value.field.startswith("moves[0]")
        assert match.frame["turnsPlayed"] == 0
        match.play("home", [])
        assert match.to_move == "away" and match.frame["turnsPlayed"] == 1
        kits = match.kit("away", "#d62828", "#ffffff")  # home's red: the clash rule changes away's
        assert kits["clash"] is True and kits["away"]["shirt"] != "#d62828"
    finally:
        match.close()
    with pytest.raises(ValueError):
        match.seat_url("middle")


def _first_legal(observation):
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_the_pettingzoo_environment_passes_the_api_test(server):
    env = street_soccer_v0.env(base_url=server.url, turns_per_side=2)
    try:
        api_test(env, num_cycles=60, verbose_progress=False)
    finally:
        env.close()


def test_the_mask_is_the_servers_legal_moves_and_a_seed_repeats_the_match(server):
    def play(seed):
        env = street_soccer_v0.env(base_url=server.url, turns_per_side=2)
        env.reset(seed=seed)
        raw = env.unwrapped
        trace = []
        try:
            for agent in env.agent_iter(max_iter=200):
                observation, reward, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                mask = observation["action_mask"]
                legal = {raw.encode(m) for m in raw._plan["legal"]}
                assert set(np.flatnonzero(mask[:-1])) == legal
                assert mask[-1] == int(raw._plan["canConfirm"])
                # Move while a move is legal and points are left, then confirm.
                action = _first_legal(observation)
                if len(raw._moves) >= 2 and mask[-1]:
                    action = raw.confirm
                with pytest.raises(ValueError):
                    env.unwrapped.step(int(np.flatnonzero(mask == 0)[0]))
                env.step(action)
                trace.append((agent, action, reward))
            return trace, raw.match.score, raw.match.frame["board"]
        finally:
            env.close()

    first = play(5)
    assert len(first[0]) > 4
    assert play(5) == first


def test_the_two_agent_example_plays_and_repeats_itself(server):
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).resolve().parents[3] / "docs" / "examples" / "street_soccer_agents.py"

    def run():
        result = subprocess.run(
            [sys.executable, str(example), "--url", server.url, "--matches", "1", "--turns", "2"],
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    first = run()
    assert first.startswith("seed 0: random (home) ")
    assert run() == first
