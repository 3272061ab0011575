"""Street soccer from Python (issue 26): `client.street_soccer(...)` plays a match turn by turn
with the server's plans and rules, and the PettingZoo AEC environment passes PettingZoo's own
API test, masks exactly the server's legal moves, and is reproducible for a seed."""
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test

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


class _Module:
    """`street_soccer_v0` for PettingZoo's `max_cycles_test`, which makes environments with
    `max_cycles` alone (the server comes from `PLAYFIELD_URL`) and never closes them: this
    closes them (each holds an on-demand session of the client's eight)."""

    def __init__(self):
        self.made = []

    def env(self, **options):
        self.made.append(street_soccer_v0.env(**options))
        return self.made[-1]

    def parallel_env(self, **options):
        self.made.append(street_soccer_v0.parallel_env(**options))
        return self.made[-1]

    def close(self):
        for made in self.made:
            made.close()


def _pettingzoo_warnings(caught):
    return [str(w.message) for w in caught if "pettingzoo" in w.filename]


def test_the_aec_environment_passes_the_api_test_without_warnings(server):
    env = street_soccer_v0.env(base_url=server.url, turns_per_side=2)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(env, num_cycles=200, verbose_progress=False)
        assert _pettingzoo_warnings(caught) == []
    finally:
        env.close()


def test_the_parallel_environment_passes_the_parallel_api_test(server):
    env = street_soccer_v0.parallel_env(base_url=server.url, turns_per_side=2)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            parallel_api_test(env, num_cycles=300)
        assert _pettingzoo_warnings(caught) == []
    finally:
        env.close()


def test_max_cycles_truncates_both_environments(server, monkeypatch):
    monkeypatch.setenv("PLAYFIELD_URL", server.url)
    module = _Module()
    try:
        max_cycles_test(module)
    finally:
        module.close()
    # And by hand: the last cycle truncates both agents, every agent acted max_cycles times.
    env = street_soccer_v0.parallel_env(base_url=server.url, max_cycles=3)
    try:
        _, infos = env.reset(seed=2)
        for cycle in range(3):
            actions = {a: int(np.flatnonzero(infos[a]["action_mask"])[0]) for a in env.agents}
            _, _, terminations, truncations, infos = env.step(actions)
            assert not any(terminations.values())
            assert all(truncations.values()) == (cycle == 2)
        assert env.agents == []
    finally:
        env.close()


def test_the_mask_is_the_servers_legal_moves_and_a_seed_repeats_the_match(server):
    def play(seed):
        env = street_soccer_v0.env(base_url=server.url, turns_per_side=2)
        env.reset(seed=seed)
        game = env.unwrapped.game
        trace = []
        try:
            for agent in env.agent_iter(max_iter=400):
                _, reward, termination, truncation, info = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                mask = info["action_mask"]
                if agent != game.mover():
                    assert list(np.flatnonzero(mask)) == [game.end]  # only a pass
                    env.step(game.end)
                    continue
                legal = {game.encode(agent, m) for m in game.plan["legal"]}
                assert set(np.flatnonzero(mask[:-1])) == legal
                assert mask[-1] == int(game.plan["canConfirm"])
                for action in legal:  # each decodes to the server's own move
                    assert game.decode(agent, action) in game.plan["legal"]
                # Move while a move is legal and points are left, then end the turn.
                action = int(np.flatnonzero(mask)[0])
                if len(game.moves) >= 2 and mask[-1]:
                    action = game.end
                moves = list(game.moves)
                illegal = int(np.flatnonzero(mask == 0)[0])
                env.step(illegal)  # changes nothing, and is said to be illegal
                assert env.infos[agent]["illegal"] and game.moves == moves
                env.step(game.end)  # the other agent's pass
                assert env.agent_selection == agent
                env.step(action)
                assert not env.infos[agent]["illegal"]
                trace.append((agent, action, reward))
            return trace, game.match.score, game.match.frame["board"]
        finally:
            env.close()

    first = play(5)
    assert len(first[0]) > 4
    assert play(5) == first


def test_a_dead_end_turn_starts_over_and_no_mask_is_ever_empty(server):
    """A turn whose points are spent before the goalkeeper (who held the ball when it began)
    cleared it cannot be confirmed and has no move left: END takes its moves back. Masked
    random play of seeded matches meets one in the tenth match (found by this very loop; the
    mask was empty there before, and sampling from it raised)."""
    env = street_soccer_v0.env(base_url=server.url, turns_per_side=5)
    game = env.unwrapped.game
    rng = np.random.default_rng(1)
    dead_ends = 0
    try:
        for match in range(10):
            env.reset(seed=1 + match)
            for agent in env.agent_iter():
                _, _, termination, truncation, info = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                mask = info["action_mask"]
                assert mask.any(), f"{agent} has no action in match {match + 1}"
                stuck = agent == game.mover() and not game.plan["canConfirm"] and not game.plan["legal"]
                if stuck:
                    dead_ends += 1
                    assert list(np.flatnonzero(mask)) == [game.end] and game.moves
                    die, turns = game.match.die, game.match.frame["turnsPlayed"]
                    env.step(game.end)
                    assert game.moves == [] and game.mover() == agent
                    assert game.match.die == die and game.match.frame["turnsPlayed"] == turns
                    assert game.plan["legal"]
                    continue
                env.step(int(rng.choice(np.flatnonzero(mask))))
        assert dead_ends >= 1
    finally:
        env.close()


def test_each_agent_sees_the_pitch_from_its_own_end(server):
    """Both attack to the right: each one's goalkeeper stands by the left-hand goal line and
    the other's by the right-hand one, in match 1 (home attacks right) as in match 2 (after
    the ends changed)."""
    env = street_soccer_v0.parallel_env(base_url=server.url, turns_per_side=1)
    game = env.game

    def keepers(observations):
        sides = {}
        for agent, planes in observations.items():
            own = np.argwhere(planes[0] == 0.5)
            other = np.argwhere(planes[1] == 0.5)
            sides[agent] = (own[0][1], other[0][1])
        return sides

    try:
        observations, infos = env.reset(seed=1)
        assert game.turned("player_1") and not game.turned("player_0")
        assert keepers(observations) == {a: (1, game.width - 2) for a in env.agents}
        assert observations["player_0"][5].all() and not observations["player_1"][5].any()
        assert infos["player_0"]["to_play"] and not infos["player_1"]["to_play"]
        # The next match: the ends change, the views do not.
        while env.agents:
            actions = {a: game.end for a in env.agents}
            observations, _, terminations, _, infos = env.step(actions)
        assert all(terminations.values())
        game.match.rematch("home")
        game.plan = game.match.plan(game.match.to_move)
        assert game.turned("player_0") and not game.turned("player_1")
        views = {a: game.observe(a) for a in street_soccer_v0.AGENTS}
        assert keepers(views) == {a: (1, game.width - 2) for a in street_soccer_v0.AGENTS}
    finally:
        env.close()


def test_observations_can_carry_the_mask_for_tianshou(server):
    env = street_soccer_v0.env(base_url=server.url, turns_per_side=1, mask_in_observation=True)
    try:
        env.reset(seed=3)
        observation, _, _, _, info = env.last()
        assert set(observation) == {"observation", "action_mask"}
        assert (observation["action_mask"] == info["action_mask"]).all()
        assert env.observation_space("player_0").contains(observation)
    finally:
        env.close()


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
    assert first.startswith("seed 0: random (player_0, home) ")
    assert run() == first
