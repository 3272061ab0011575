"""Street soccer as a PettingZoo AEC environment: two agents, `home` and `away`, play one
server match (both sides `human`, the server's dice), one move per step.

    from playfield_client.pettingzoo import street_soccer_v0
    env = street_soccer_v0.env(base_url="http://127.0.0.1:8080", turns_per_side=5)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        env.step(action)

An action is one move of the agent's turn, or CONFIRM (the last action), which sends the turn
as planned; the agent to play keeps the turn until it confirms. Moves are numbered
`((kind * 5 + piece - 1) * width + x + 1) * rows + y` with kind 0 step, 1 kick, 2 tackle and
width = columns + 2 (the goal columns, x = -1 and x = columns). The action mask is the server's
list of legal moves after the moves made so far (a `plan` query), plus CONFIRM when the turn
may end as it is; an action outside the mask is refused with `ValueError`.

The observation is `{"observation": float32 (6, rows, width), "action_mask": int8 (n,)}`:
planes of the agent's pieces (the goalkeeper 0.5, the others 1), the opponent's, the ball,
the points left of the die / 6, the share of the match's turns played, and 1 where the agent
attacks (its target goal's column). Rewards: +1 to the scorer and -1 to the other side for
each goal. The match ends (both agents terminate) after `2 * turns_per_side` turns.

Each `reset(seed=S)` makes a new server session with seed S (the previous one is deleted), so
the same seed and actions give the same match; `reset()` without a seed lets the server choose.
"""
import os

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..client import Client

KINDS = ("step", "kick", "tackle")
PIECES = 5
SIDES = ("home", "away")


def env(**kwargs):
    """The environment with PettingZoo's order and bounds checks around it."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's own name for it)
    metadata = {"name": "street_soccer_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, base_url=None, turns_per_side=15, columns=11, rows=7, render_mode=None,
                 timeout=10.0):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.client = Client(base_url or os.environ.get("PLAYFIELD_URL", "http://127.0.0.1:8080"),
                             timeout=timeout)
        self.config = {"turns_per_side": turns_per_side, "columns": columns, "rows": rows}
        self.columns, self.rows, self.width = columns, rows, columns + 2
        self.confirm = len(KINDS) * PIECES * self.width * rows
        self.possible_agents = list(SIDES)
        self.agents = []
        shape = (6, rows, self.width)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.confirm + 1,), dtype=np.int8),
            }) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.confirm + 1) for agent in self.possible_agents}
        self.match = None
        self._moves = []
        self._plan = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # Actions

    def encode(self, move):
        """The action number of a move `{"move", "piece", "to": [x, y]}`."""
        kind = KINDS.index(move["move"])
        x, y = move["to"]
        return ((kind * PIECES + move["piece"] - 1) * self.width + x + 1) * self.rows + y

    def decode(self, action):
        """The move of an action number (not CONFIRM)."""
        rest, y = divmod(int(action), self.rows)
        rest, column = divmod(rest, self.width)
        kind, piece = divmod(rest, PIECES)
        return {"move": KINDS[kind], "piece": piece + 1, "to": [column - 1, y]}

    # The AEC interface

    def reset(self, seed=None, options=None):
        if self.match is not None:
            self.match.close()
        self.match = self.client.street_soccer(
            home="human", away="human", turns_per_side=self.config["turns_per_side"], seed=seed,
            columns=self.columns, rows=self.rows)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self.match.to_move
        self._new_turn()
        self.infos = {agent: self._info(agent) for agent in self.agents}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask = self._mask(agent)
        if action is None or not 0 <= int(action) <= self.confirm or not mask[int(action)]:
            raise ValueError(f"action {action!r} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if int(action) == self.confirm:
            before = self.match.score
            self.match.play(agent, self._moves)
            after = self.match.score
            for index, side in enumerate(SIDES):
                goals = after[index] - before[index]
                if goals > 0:
                    self.rewards[side] += goals
                    self.rewards[SIDES[1 - index]] -= goals
            if self.match.over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.match.to_move
                self._new_turn()
        else:
            self._moves.append(self.decode(action))
            self._plan = self.match.plan(agent, self._moves)
        self.infos = {agent: self._info(agent) for agent in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def observe(self, agent):
        board = self._plan["board"] if self._plan else self.match.frame["board"]
        side = SIDES.index(agent)
        planes = np.zeros((6, self.rows, self.width), dtype=np.float32)
        pieces = board["pieces"]
        for lane in range(10):
            x, y = pieces[2 * lane], pieces[2 * lane + 1]
            plane = 0 if lane // 5 == side else 1
            planes[plane, y, x + 1] = 0.5 if lane % 5 == 0 else 1.0
        bx, by = board["ball"]
        planes[2, by, bx + 1] = 1.0
        frame = self.match.frame
        if self._plan and agent == self.agent_selection:
            planes[3] = self._plan["pointsLeft"] / 6
        planes[4] = frame["turnsPlayed"] / frame["turns"]
        attacks_right = (frame["homeAttacks"] == "right") == (agent == "home")
        planes[5, :, self.width - 1 if attacks_right else 0] = 1.0
        return {"observation": planes, "action_mask": self._mask(agent)}

    def render(self):
        if self.render_mode is None:
            return None
        board = self._plan["board"] if self._plan else self.match.frame["board"]
        cells = [["." for _ in range(self.width)] for _ in range(self.rows)]
        for lane in range(10):
            x, y = board["pieces"][2 * lane], board["pieces"][2 * lane + 1]
            cells[y][x + 1] = ("H" if lane < 5 else "A") if lane % 5 else ("h" if lane < 5 else "a")
        bx, by = board["ball"]
        cells[by][bx + 1] = "o" if cells[by][bx + 1] == "." else cells[by][bx + 1] + "*"
        score = self.match.score
        return f"{score[0]}-{score[1]} {self.agent_selection} to play\n" + "\n".join(
            " ".join(f"{c:2}" for c in row) for row in cells)

    def close(self):
        if self.match is not None:
            self.match.close()
            self.match = None

    # Helpers

    def _new_turn(self):
        self._moves = []
        self._plan = None if self.match.over else self.match.plan(self.match.to_move)

    def _info(self, agent):
        """The same keys, each always of one type (a replay buffer such as Tianshou's stacks
        them): the die of the turn being played (0 when none is, e.g. after full time) and the
        moves `agent` has planned in it so far."""
        die = self.match.die
        planned = len(self._moves) if agent == self.agent_selection else 0
        return {"die": int(die) if die is not None else 0, "planned": planned}

    def _mask(self, agent):
        mask = np.zeros(self.confirm + 1, dtype=np.int8)
        if agent != self.agent_selection or self._plan is None or self.match.over:
            return mask
        for move in self._plan["legal"]:
            mask[self.encode(move)] = 1
        if self._plan["canConfirm"]:
            mask[self.confirm] = 1
        return mask
