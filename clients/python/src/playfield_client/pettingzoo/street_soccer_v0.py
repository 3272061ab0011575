"""Street soccer as PettingZoo environments: two agents, `player_0` (home) and `player_1`
(away), play one server match (both sides `human`, the server's dice), one move per step.

    from playfield_client.pettingzoo import street_soccer_v0
    env = street_soccer_v0.env(base_url="http://127.0.0.1:8080", turns_per_side=5)   # AEC
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else int(np.flatnonzero(info["action_mask"])[0])
        env.step(action)

    parallel = street_soccer_v0.parallel_env(base_url="http://127.0.0.1:8080")        # parallel
    observations, infos = parallel.reset(seed=7)
    while parallel.agents:
        actions = {a: int(np.flatnonzero(infos[a]["action_mask"])[0]) for a in parallel.agents}
        observations, rewards, terminations, truncations, infos = parallel.step(actions)

Agent names: PettingZoo recommends `<name>_<number>` (its `api_test` warns otherwise), and
libraries that group agents by that prefix (parameter sharing, SuperSuit's wrappers) then put
both in one group, which is right here: each agent sees the game from its own end, so one
policy can play either side.

**A cycle is one move.** In each cycle every agent acts once, `player_0` first: the side to
play makes one move of its turn or ENDs it (the last action, which confirms the turn as
planned); the other side can only pass (END is its one legal action). The AEC environment
applies each action at once, so after `player_0` ENDs its turn, `player_1` moves in the same
cycle; the parallel environment applies the action of the side to play when the step began.
A turn can run into a dead end (its points spent before the goalkeeper, who held the ball when
it began, cleared it out of his area): END then takes the planned moves back, and the turn
starts over with the same die. An action outside the mask changes nothing
(`info["illegal"]` is then True): sampling without
the mask, as PettingZoo's `max_cycles_test` and `parallel_api_test` do, is allowed.
`max_cycles` (default 500) truncates both agents after that many cycles; a match of
`turns_per_side` turns each takes at most `2 * turns_per_side * 7` cycles when played by the mask.

**Actions and observations from the agent's own end.** The pitch is turned round (180
degrees: x and y reversed) for the side that attacks the left-hand goal, so every agent attacks
to the right, and both sides' kick-off formations look the same. Moves are numbered
`((kind * 5 + piece - 1) * width + x + 1) * rows + y` in those turned coordinates, with kind 0
step, 1 kick, 2 tackle and width = columns + 2 (the goal columns, x = -1 and x = columns).

The observation is float32 `(6, rows, width)`: planes of the agent's pieces (the goalkeeper
0.5, the others 1), the opponent's, the ball, the points left of the die / 6 (while the agent
plays its turn), the share of the match's turns played, and 1 everywhere while the agent is to
play. The side to play sees its turn's planned board; the other side sees the board as it was
when the turn began. `info["action_mask"]` (int8) is the server's list of legal moves after
the moves planned so far (a `plan` query), plus END when the turn may end as it is. With
`mask_in_observation=True` the observation is PettingZoo's classic dict `{"observation",
"action_mask"}` instead, which is where Tianshou's `PettingZooEnv` reads masks.

Infos have the same keys at every step, each of one type: `action_mask`, `die` (the die of the
turn being played, 0 when none is), `planned` (moves planned so far in the agent's turn),
`to_play` and `illegal`. Rewards: +1 to the scorer and -1 to the other side for each goal. The
match ends (both agents terminate) after `2 * turns_per_side` turns.

The match's session steps on demand (`"clock": "on-demand"`): each turn runs on the server as
soon as it is sent, off the 60 Hz tick. Each `reset(seed=S)` makes a new session with seed S
(the previous one is deleted), so the same seed and actions give the same match; `reset()`
without a seed lets the server choose.
"""
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..client import Client
from ..errors import PlayfieldError
from ..messages import JSONObject
from ..street_soccer import StreetSoccerMatch

AGENTS = ("player_0", "player_1")
SIDES = ("home", "away")
KINDS = ("step", "kick", "tackle")
PIECES = 5
PLANES = 6
MAX_CYCLES = 500


def env(**kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's order and bounds checks around it."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(**kwargs: Any) -> "raw_parallel_env":
    """The parallel environment (its own implementation, not a conversion of the AEC one)."""
    return raw_parallel_env(**kwargs)


class Game:
    """One server match and the turn being planned, as both environments see it."""

    def __init__(self, base_url: str | None, turns_per_side: int, columns: int, rows: int,
                 timeout: float) -> None:
        self.client = Client(base_url or os.environ.get("PLAYFIELD_URL", "http://127.0.0.1:8080"),
                             timeout=timeout)
        self.turns_per_side = turns_per_side
        self.columns, self.rows, self.width = columns, rows, columns + 2
        # The END action: confirm the turn as planned, or pass while the other side plays.
        self.end = len(KINDS) * PIECES * self.width * rows
        self._match: StreetSoccerMatch | None = None
        self.moves: list[JSONObject] = []
        self.plan: JSONObject | None = None
        self.illegal = dict.fromkeys(AGENTS, False)

    @property
    def match(self) -> StreetSoccerMatch:
        if self._match is None:
            raise PlayfieldError("the environment has no match: call reset() first")
        return self._match

    def start(self, seed: int | None) -> None:
        """A new match with `seed`, on a new on-demand session (the previous one deleted)."""
        self.close()
        self._match = self.client.street_soccer(
            home="human", away="human", turns_per_side=self.turns_per_side, seed=seed,
            clock="on-demand", columns=self.columns, rows=self.rows)
        self.illegal = dict.fromkeys(AGENTS, False)
        self._new_turn()

    def close(self) -> None:
        if self._match is not None:
            self._match.close()
            self._match = None

    # Sides and ends

    def mover(self) -> str | None:
        """The agent to play, or None after the match."""
        return None if self.match.over else AGENTS[SIDES.index(self.match.to_move)]

    def turned(self, agent: str) -> bool:
        """Whether `agent` attacks the left-hand goal (its view is turned round)."""
        home_right: bool = self.match.frame["homeAttacks"] == "right"
        return home_right == (agent == AGENTS[1])

    def _view(self, agent: str, x: int, y: int) -> tuple[int, int]:
        """A square in `agent`'s coordinates (the turn is its own inverse)."""
        return (self.columns - 1 - x, self.rows - 1 - y) if self.turned(agent) else (x, y)

    def encode(self, agent: str, move: JSONObject) -> int:
        """The action number of a move `{"move", "piece", "to": [x, y]}` (server squares)."""
        x, y = self._view(agent, *move["to"])
        kind = KINDS.index(move["move"])
        piece: int = move["piece"]
        return ((kind * PIECES + piece - 1) * self.width + x + 1) * self.rows + y

    def decode(self, agent: str, action: int) -> JSONObject:
        """The move of an action number (not END), in server squares."""
        rest, y = divmod(int(action), self.rows)
        rest, column = divmod(rest, self.width)
        kind, piece = divmod(rest, PIECES)
        x, y = self._view(agent, column - 1, y)
        return {"move": KINDS[kind], "piece": piece + 1, "to": [x, y]}

    # Acting

    def act(self, agent: str, action: Any) -> dict[str, float]:
        """Applies `agent`'s action when it is to play and the mask allows it (else nothing
        changes); returns the rewards of both agents."""
        rewards = dict.fromkeys(AGENTS, 0.0)
        number = int(action)
        allowed = 0 <= number <= self.end and bool(self.mask(agent)[number])
        self.illegal[agent] = not allowed
        if not allowed or agent != self.mover():
            return rewards
        side = SIDES[AGENTS.index(agent)]
        plan = self.plan
        assert plan is not None  # the side to play has its turn's plan
        if number == self.end and not plan["canConfirm"]:
            # A dead end (see `mask`): the turn starts over, with the same die.
            self.moves = []
            self.plan = self.match.plan(side)
            return rewards
        if number != self.end:
            self.moves.append(self.decode(agent, number))
            self.plan = self.match.plan(side, self.moves)
            return rewards
        before = self.match.score
        self.match.play(side, self.moves)
        after = self.match.score
        for index, scorer in enumerate(AGENTS):
            goals = after[index] - before[index]
            rewards[scorer] += goals
            rewards[AGENTS[1 - index]] -= goals
        self._new_turn()
        return rewards

    def _new_turn(self) -> None:
        self.moves = []
        self.plan = None if self.match.over else self.match.plan(self.match.to_move)

    # What an agent sees

    def mask(self, agent: str) -> NDArray[np.int8]:
        mask = np.zeros(self.end + 1, dtype=np.int8)
        if self.match.over:
            return mask
        if agent != self.mover():
            mask[self.end] = 1  # a pass
            return mask
        assert self.plan is not None  # every turn's plan is asked when it begins
        for move in self.plan["legal"]:
            mask[self.encode(agent, move)] = 1
        # NB: a turn may end in a dead end: its points spent before the goalkeeper, who held
        # the ball when it began, got it out of his area (the turn cannot be confirmed, and no
        # move is left). END then takes the planned moves back.
        if self.plan["canConfirm"] or not self.plan["legal"]:
            mask[self.end] = 1
        return mask

    def observe(self, agent: str) -> NDArray[np.float32]:
        to_play = agent == self.mover()
        frame = self.match.frame
        board = self.plan["board"] if to_play and self.plan else frame["board"]
        own = AGENTS.index(agent)
        planes = np.zeros((PLANES, self.rows, self.width), dtype=np.float32)
        pieces = board["pieces"]
        for lane in range(2 * PIECES):
            x, y = self._view(agent, pieces[2 * lane], pieces[2 * lane + 1])
            plane = 0 if lane // PIECES == own else 1
            planes[plane, y, x + 1] = 0.5 if lane % PIECES == 0 else 1.0
        bx, by = self._view(agent, *board["ball"])
        planes[2, by, bx + 1] = 1.0
        if to_play and self.plan:
            planes[3] = self.plan["pointsLeft"] / 6
        planes[4] = frame["turnsPlayed"] / frame["turns"]
        if to_play:
            planes[5] = 1.0
        return planes

    def info(self, agent: str) -> dict[str, Any]:
        die = self.match.die
        to_play = agent == self.mover()
        return {"action_mask": self.mask(agent), "die": int(die) if die is not None else 0,
                "planned": len(self.moves) if to_play else 0, "to_play": to_play,
                "illegal": self.illegal[agent]}

    def render(self) -> str:
        """The board as text, home `H` (keeper `h`), away `A` (`a`), the ball `o`."""
        board = self.plan["board"] if self.plan else self.match.frame["board"]
        cells = [["." for _ in range(self.width)] for _ in range(self.rows)]
        for lane in range(2 * PIECES):
            x, y = board["pieces"][2 * lane], board["pieces"][2 * lane + 1]
            home = lane < PIECES
            cells[y][x + 1] = ("H" if home else "A") if lane % PIECES else ("h" if home else "a")
        bx, by = board["ball"]
        cells[by][bx + 1] = "o" if cells[by][bx + 1] == "." else cells[by][bx + 1] + "*"
        score = self.match.score
        return f"{score[0]}-{score[1]} {self.mover()} to play\n" + "\n".join(
            " ".join(f"{c:2}" for c in row) for row in cells)


def _spaces(game: Game, mask_in_observation: bool) -> tuple[spaces.Space[Any], spaces.Discrete]:
    board = spaces.Box(0.0, 1.0, shape=(PLANES, game.rows, game.width), dtype=np.float32)
    observation: spaces.Space[Any] = board
    if mask_in_observation:
        observation = spaces.Dict({
            "observation": board,
            "action_mask": spaces.Box(0, 1, shape=(game.end + 1,), dtype=np.int8)})
    return observation, spaces.Discrete(game.end + 1)


class _TwoAgents:
    """What both environments share: the game, the options and the spaces."""

    metadata = {"name": "street_soccer_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def _take_options(self, base_url: str | None = None, turns_per_side: int = 15,
                      columns: int = 11, rows: int = 7, max_cycles: int = MAX_CYCLES,
                      mask_in_observation: bool = False, render_mode: str | None = None,
                      timeout: float = 10.0) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
            raise ValueError(f"max_cycles must be a positive int, not {max_cycles!r}")
        self.game = Game(base_url, turns_per_side, columns, rows, timeout)
        self.max_cycles = max_cycles
        self.mask_in_observation = mask_in_observation
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        observation, action = _spaces(self.game, mask_in_observation)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observation(self, agent: str) -> Any:
        observation = self.game.observe(agent)
        if self.mask_in_observation:
            return {"observation": observation, "action_mask": self.game.mask(agent)}
        return observation

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {agent: self.game.info(agent) for agent in self.agents}

    def render(self) -> str | None:
        return None if self.render_mode is None else self.game.render()

    def close(self) -> None:
        self.game.close()


class raw_env(_TwoAgents, AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's own name)
    """The AEC environment (see the module's documentation)."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        self._take_options(**options)
        self._acted = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = self._infos()
        self.agent_selection = self.agents[0]
        self._acted = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self.game.act(agent, action)
        self._acted += 1
        if self.game.match.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._acted >= len(AGENTS) * self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self.infos = self._infos()
        self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def observe(self, agent: str) -> Any:
        return self._observation(agent)

    @property
    def end(self) -> int:
        """The END action."""
        return self.game.end


class raw_parallel_env(_TwoAgents, ParallelEnv):  # type: ignore[misc]  # noqa: N801
    """The parallel environment (see the module's documentation)."""

    def __init__(self, **options: Any) -> None:
        self._take_options(**options)
        self.cycles = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.game.start(seed)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        if not self.agents:
            raise PlayfieldError("the match is over: call reset()")
        mover = self.game.mover()
        rewards = dict.fromkeys(self.agents, 0.0)
        for agent in self.agents:
            if agent == mover and agent in actions:
                rewards = self.game.act(agent, actions[agent])
        for agent in self.agents:
            if agent != mover:
                # NB: a pass, whatever the action; marked illegal when it was not END.
                self.game.illegal[agent] = int(actions.get(agent, self.game.end)) != self.game.end
        self.cycles += 1
        over = self.game.match.over
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, not over and self.cycles >= self.max_cycles)
        observations, infos = self._observations(), self._infos()
        if over or self.cycles >= self.max_cycles:
            self.agents = []
        if self.render_mode == "ansi":
            print(self.render())
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        return {agent: self._observation(agent) for agent in self.agents}

