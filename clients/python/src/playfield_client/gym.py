"""Gymnasium environments over a Playfield server: `PlayfieldMaze-v0` and `PlayfieldHoles-v0`.

    import gymnasium
    import playfield_client.gym  # registers both ids
    env = gymnasium.make("PlayfieldHoles-v0", base_url="http://127.0.0.1:8080")
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(env.action_space.sample())

Each environment drives one server session that steps on demand (`"clock": "on-demand"`):
the game loop never steps it, and each `env.step` runs on the server as soon as it arrives,
thousands a second, over a batch connection (`batch.py`, `/ws/batch`: one message out, one
binary reply in); the vector environments step all their sessions over one such connection.
`realtime=True` uses a realtime session, stopped and stepped on the 60 Hz
tick instead (one step per tick at most; for watching an agent at the speed of the page).
`reset(seed=S)` creates a session with seed S (deleting the one before) and puts the model back
at its start with the model's `reset` input and one step; `reset()` without a seed does the same
in the current session. `step(action)` sends a tilt (the action, in g) and one step of `frame_skip` ticks
(default 1 tick, 1/60 s), and builds the observation from the last tick's frame. The server's
models are deterministic and the start does not depend on how long the session ran before, so
the same seed and actions give the same observations, run after run.

Velocities are not in the frames; they are the last step's change of position per tick times
60 (px/s), from positions rounded to 0.01 px, so they are exact functions of the frames (and
bounded by the table's size times 60).
"""
import collections
import os
from collections.abc import Sequence
from typing import Any, ClassVar, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space
from numpy.typing import ArrayLike, NDArray

from . import _registration
from .batch import Batch, BatchReply
from .client import Client
from .errors import PlayfieldError
from .messages import Hello, HolesFrame, JSONObject, MazeFrame, SessionInfo
from .session import Session

RATE = 60
# An observation or action: float32 numbers.
Floats = NDArray[np.float32]
Cell = tuple[int, int]


class PlayfieldEnv(gymnasium.Env[Floats, Floats]):
    """One Playfield session behind the Gymnasium interface; subclasses give the kind, the
    spaces, the observation and the reward.

    NB: frames are typed `Any` here: a subclass's are its kind's (`MazeFrame`, `HolesFrame`),
    each with a `ball`."""

    metadata = {"render_modes": []}
    kind: ClassVar[str] = ""

    def __init__(self, base_url: str | None = None, config: JSONObject | None = None,
                 max_tilt: float = 1.0, frame_skip: int = 1, keep_session: bool = False,
                 timeout: float = 10.0, realtime: bool = False) -> None:
        if not 0 < max_tilt <= 2:
            raise ValueError(f"max_tilt must be a number in (0, 2] g, not {max_tilt!r}")
        if (isinstance(frame_skip, bool) or not isinstance(frame_skip, int)
                or not 1 <= frame_skip <= 600):
            raise ValueError(f"frame_skip must be an int from 1 to 600 ticks, not {frame_skip!r}")
        self.frame_skip = frame_skip
        self.max_tilt = float(max_tilt)
        self.realtime = bool(realtime)
        self.client = Client(base_url or os.environ.get("PLAYFIELD_URL", "http://127.0.0.1:8080"),
                             timeout=timeout)
        self.user_config = dict(config or {})
        self.keep_session = keep_session
        self.timeout = timeout
        self.info: SessionInfo | None = None
        self.session: Session | None = None
        self.batch: Batch | None = None
        self.hello: Hello | None = None
        self.frame: Any = None
        self.steps = 0
        self._velocity = (0.0, 0.0)
        self._open(seed=None)
        self.config = self._hello.config
        self.action_space = spaces.Box(-max_tilt, max_tilt, shape=(2,), dtype=np.float32)

    # Sessions

    @property
    def _hello(self) -> Hello:
        assert self.hello is not None  # read when the first session opened
        return self.hello

    @property
    def _info_now(self) -> SessionInfo:
        if self.info is None:
            raise PlayfieldError("the environment is closed")
        return self.info

    def _open(self, seed: int | None) -> None:
        """A new session with `seed` (the server's choice when None), stopped. A realtime one is
        connected on its own channel; an on-demand one is stepped over a batch connection
        (`/ws/batch`, one message and one binary reply a step), its channel opened only once
        for the `hello` the spaces are made of."""
        self._discard()
        clock = "realtime" if self.realtime else "on-demand"
        self.info = self.client.create_session(self.kind, self.user_config, seed=seed,
                                               clock=clock)
        if self.realtime or self.hello is None:
            self.session = self.client.connect(self.info, reconnect=False, timeout=self.timeout,
                                               buffer=64)
            self.hello = self.session.hello
        if self.realtime:
            assert self.session is not None  # connected just above
            self.session.stop()
            return
        if self.session is not None:
            self.session.close()
            self.session = None
        self.batch = Batch(self.client, timeout=self.timeout)
        self.batch.attach(self.info)

    def _discard(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        if self.batch is not None:
            self.batch.close()
            self.batch = None
        if self.info is not None and not self.keep_session:
            self.client.delete_session(self.info)
        self.info = None

    def _restart(self, before: Sequence[JSONObject] = ()) -> Any:
        """Sends `before` inputs and `reset`, then one step; returns that step's frame."""
        inputs = (*before, {"type": "reset"})
        if self.batch is not None:
            return self._batch_frame(self.batch.step(count=1, inputs=[(0, m) for m in inputs]))
        session = self._session
        session.clear()
        return session.step(1, inputs=inputs)

    @property
    def _session(self) -> Session:
        if self.session is None:
            raise PlayfieldError("the environment is closed")
        return self.session

    def _batch_frame(self, reply: BatchReply) -> Any:
        """The frame a batch reply's one row stands for (the same numbers as the frame's)."""
        if reply.status[0]:
            raise PlayfieldError(f"session {self._info_now.id} was not stepped: deleted, or this "
                                 f"server process may no longer step it (status {reply.status[0]})")
        tick = int(reply.ticks[0])
        return self._frame_of(tick, reply.values[0].tolist())

    def _frame_of(self, tick: int, row: list[float]) -> Any:
        """The frame a batch reply's row stands for."""
        raise NotImplementedError

    def _observation(self, frame: Any) -> Floats:
        raise NotImplementedError

    def _reward(self, previous: Any, frame: Any) -> tuple[float, bool]:
        """The step's reward, and whether the episode is over."""
        raise NotImplementedError

    def close(self) -> None:
        """Closes the connection and deletes the session (unless `keep_session`)."""
        self._discard()

    @property
    def unstored(self) -> str | None:
        """Why the server cannot store this environment's inputs now (`Batch.unstored`), None
        while it can."""
        return self.batch.unstored if self.batch else None

    @property
    def watch_url(self) -> str:
        """Where a browser watches the current episode live."""
        return self.client.base_url + self._info_now.urls["watch"]

    # Gymnasium

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Floats, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self.info is None:
            self._open(seed)
        frame = self._restart(self._setup())
        self.frame = frame
        self.steps = 0
        self._velocity = (0.0, 0.0)
        self._started(frame)
        return self._observation(frame), self._info(frame)

    def step(self, action: ArrayLike) -> tuple[Floats, SupportsFloat, bool, bool, dict[str, Any]]:
        tilt = self._tilt(action)
        if self.batch is not None:
            reply = self.batch.step(actions=[(tilt["x"], tilt["y"])], count=self.frame_skip)
            return self._stepped(self._batch_frame(reply))
        return self._stepped(self._session.step(self.frame_skip, inputs=(tilt,)))

    def _tilt(self, action: ArrayLike) -> JSONObject:
        """The `tilt` input of an action, checked."""
        x, y = np.asarray(action, dtype=np.float32).reshape(2).tolist()
        # NB: `action_space.contains`, without its cost: float32 values within the float32
        # bounds (NaN is not).
        limit = self.max_tilt
        if not (-limit <= x <= limit and -limit <= y <= limit):
            raise ValueError(f"action {[x, y]} is outside {self.action_space}")
        return {"type": "tilt", "x": x, "y": y}

    def _stepped(self, frame: Any) -> tuple[Floats, SupportsFloat, bool, bool, dict[str, Any]]:
        """`step`'s result from the frame after the step."""
        previous, self.frame = self.frame, frame
        self.steps += 1
        self._velocity = _velocity(previous.ball, frame.ball, frame.tick - previous.tick)
        reward, terminated = self._reward(previous, frame)
        return self._observation(frame), reward, terminated, False, self._info(frame)

    def _setup(self) -> Sequence[JSONObject]:
        """Inputs to send before each episode's `reset`."""
        return ()

    def _started(self, frame: Any) -> None:
        """Called with each episode's first frame."""

    def _info(self, frame: Any) -> dict[str, Any]:
        """What the step did besides the observation; the same for the same seed and actions
        (the session's id and tick are in `self.info` and `self.frame`)."""
        return {"steps": self.steps}


def _velocity(before: tuple[float, float] | None, after: tuple[float, float] | None,
              ticks: int) -> tuple[float, float]:
    """The mean velocity over `ticks` in px/s; 0 when the ball was not on the table."""
    if before is None or after is None or ticks <= 0:
        return (0.0, 0.0)
    return ((after[0] - before[0]) * RATE / ticks, (after[1] - before[1]) * RATE / ticks)


class PlayfieldMazeEnv(PlayfieldEnv):
    """Roll the maze's ball to a goal cell by tilting.

    Observation (float32, px and px/s, y down): ball x, y, velocity x, y, the goal cell's centre
    x, y, then one value per cell, row by row (1 solid, 0 empty).
    Action: tilt x, y in g (x > 0 rolls right, y > 0 rolls up), each within +-max_tilt.
    Reward: progress toward the goal, in cells: the shortest 4-connected path length through
    empty cells from the ball's cell to the goal before the step minus after it (so an episode's
    rewards add up to the distance covered). Terminated when the ball's centre is in the goal
    cell. `layout="random"` (default) makes a new maze at each reset from the environment's
    seeded generator, `density` of the cells solid, with a path from the start to the goal;
    `layout="config"` keeps the config's `cells`. The goal is `goal` (row, col), default the
    top-left cell.
    """

    kind = "maze"

    def __init__(self, base_url: str | None = None, config: JSONObject | None = None,
                 layout: str = "random", density: float = 0.3, goal: Cell = (0, 0),
                 **options: Any) -> None:
        if layout not in ("random", "config"):
            raise ValueError(f"layout must be 'random' or 'config', not {layout!r}")
        if not 0 <= density < 1:
            raise ValueError(f"density must be from 0 to below 1, not {density!r}")
        self.layout = layout
        self.density = density
        super().__init__(base_url, config, **options)
        hello = self._hello.data
        self.rows: int = hello["rows"]
        self.columns: int = hello["columns"]
        self.cell = (hello["cellWidth"], hello["cellHeight"])
        self.goal = (int(goal[0]), int(goal[1]))
        if not (0 <= self.goal[0] < self.rows and 0 <= self.goal[1] < self.columns):
            raise ValueError(f"goal {goal} is outside the {self.rows} x {self.columns} grid")
        self.cells: list[str] = list(hello["cells"])
        width, height = hello["world"]["width"], hello["world"]["height"]
        # A change of position within the box in one tick, times 60.
        speed = max(width, height) * RATE
        low = [0, 0, -speed, -speed, 0, 0] + [0] * (self.rows * self.columns)
        high = [width, height, speed, speed, width, height] + [1] * (self.rows * self.columns)
        self.observation_space = spaces.Box(np.array(low, dtype=np.float32),
                                            np.array(high, dtype=np.float32), dtype=np.float32)
        self._distances: dict[Cell, int] = {}

    def _frame_of(self, tick: int, row: list[float]) -> MazeFrame:
        return MazeFrame(tick=tick, t=tick / RATE, data={}, ball=(row[0], row[1]),
                         tilt=(row[2], row[3]), revision=int(row[4]))

    def _setup(self) -> Sequence[JSONObject]:
        if self.layout == "config":
            return ()
        self.cells = _random_cells(self.np_random, self.rows, self.columns, self.density,
                                   self.goal)
        return ({"type": "load", "cells": self.cells},)

    def _started(self, frame: Any) -> None:
        self._distances = _distances(self.cells, self.goal)

    def _ball_cell(self, ball: tuple[float, float]) -> Cell:
        column = min(self.columns - 1, max(0, int(ball[0] // self.cell[0])))
        row = min(self.rows - 1, max(0, int(ball[1] // self.cell[1])))
        return row, column

    def _distance(self, ball: tuple[float, float]) -> int:
        return self._distances.get(self._ball_cell(ball), self.rows * self.columns)

    def _reward(self, previous: Any, frame: Any) -> tuple[float, bool]:
        progress = self._distance(previous.ball) - self._distance(frame.ball)
        return float(progress), self._ball_cell(frame.ball) == self.goal

    def _observation(self, frame: Any) -> Floats:
        goal = ((self.goal[1] + 0.5) * self.cell[0], (self.goal[0] + 0.5) * self.cell[1])
        walls = [1.0 if ch == "#" else 0.0 for row in self.cells for ch in row]
        values = [*frame.ball, *self._velocity, *goal, *walls]
        return np.array(values, dtype=np.float32)

    def _info(self, frame: Any) -> dict[str, Any]:
        return {**super()._info(frame), "distance": self._distance(frame.ball),
                "cells": list(self.cells)}


def _start_cells(rows: int, columns: int) -> set[Cell]:
    """The cells around the box's centre, where the ball starts."""
    middle = (rows // 2, columns // 2)
    middle_rows = {middle[0], middle[0] - 1} if rows % 2 == 0 else {middle[0]}
    middle_columns = {middle[1], middle[1] - 1} if columns % 2 == 0 else {middle[1]}
    return {(r, c) for r in middle_rows for c in middle_columns}


def _random_cells(generator: np.random.Generator, rows: int, columns: int, density: float,
                  goal: Cell) -> list[str]:
    """A random maze from `generator`, `density` of it solid, with a path from the start to
    `goal` (an empty maze after 1000 tries without one)."""
    start = _start_cells(rows, columns)
    for _ in range(1000):
        solid = generator.random((rows, columns)) < density
        for r, c in start | {goal}:
            solid[r, c] = False
        cells = ["".join("#" if s else "." for s in row) for row in solid]
        distances = _distances(cells, goal)
        if all(cell in distances for cell in start):
            return cells
    return ["." * columns] * rows


def _distances(cells: list[str], goal: Cell) -> dict[Cell, int]:
    """Path lengths in cells from every reachable empty cell to `goal` (4-connected)."""
    if cells[goal[0]][goal[1]] == "#":
        return {}
    found = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (0 <= nr < len(cells) and 0 <= nc < len(cells[0]) and cells[nr][nc] == "."
                    and (nr, nc) not in found):
                found[(nr, nc)] = found[(r, c)] + 1
                queue.append((nr, nc))
    return found


class PlayfieldHolesEnv(PlayfieldEnv):
    """Steer the ball past the rotating holes to the flag in the top-left corner.

    Observation (float32, px and px/s, y down): ball x, y, velocity x, y, 1 while a ball is on
    the table (0 during the pause after a loss, and after the game; the ball's values are then
    0), the flag's corner x, y, the hole radius, then each hole's centre x, y.
    Action: tilt x, y in g (x > 0 rolls right, y > 0 rolls up), each within +-max_tilt.
    Reward: +1 for each point scored, minus `lost_penalty` for each ball lost.
    Terminated at GAME OVER (every ball lost).
    """

    kind = "holes"

    def __init__(self, base_url: str | None = None, config: JSONObject | None = None,
                 lost_penalty: float = 1.0, **options: Any) -> None:
        self.lost_penalty = float(lost_penalty)
        super().__init__(base_url, config, **options)
        hello = self._hello.data
        width, height = hello["world"]["width"], hello["world"]["height"]
        self.flag = (hello["flag"]["x"], hello["flag"]["y"])
        count: int = hello["holeCount"]
        # Holes turn about the table's centre: bound them by their farthest reach, plus rounding.
        reach = max(np.hypot(fx * width - width / 2, fy * height - height / 2)
                    for fx, fy in self.config["holes"]) + 1
        centre = (width / 2, height / 2)
        speed = max(width, height) * RATE
        low: list[float] = [0, 0, -speed, -speed, 0, 0, 0, 0]
        high: list[float] = [width, height, speed, speed, 1, width, height, self.config["maxHoleRadius"]]
        for _ in range(count):
            low += [centre[0] - reach, centre[1] - reach]
            high += [centre[0] + reach, centre[1] + reach]
        self.observation_space = spaces.Box(np.array(low, dtype=np.float32),
                                            np.array(high, dtype=np.float32), dtype=np.float32)

    PHASES = ("playing", "lost", "scored", "over")

    def _frame_of(self, tick: int, row: list[float]) -> HolesFrame:
        present = row[2] > 0
        return HolesFrame(
            tick=tick, t=tick / RATE, data={}, ball=(row[0], row[1]) if present else None,
            holes=[(row[i], row[i + 1]) for i in range(9, len(row) - 1, 2)],
            hole_radius=row[3], score=int(row[4]), balls_left=int(row[5]), level=int(row[6]),
            phase=self.PHASES[int(row[8])], game_over=row[7] > 0)

    def _reward(self, previous: Any, frame: Any) -> tuple[float, bool]:
        scored = frame.score - previous.score
        lost = max(0, previous.balls_left - frame.balls_left)
        return float(scored - self.lost_penalty * lost), frame.game_over

    def _observation(self, frame: Any) -> Floats:
        present = frame.ball is not None
        ball = frame.ball if present else (0.0, 0.0)
        velocity = self._velocity if present else (0.0, 0.0)
        holes = [value for centre in frame.holes for value in centre]
        values = [*ball, *velocity, float(present), *self.flag, frame.hole_radius, *holes]
        return np.array(values, dtype=np.float32)

    def _info(self, frame: Any) -> dict[str, Any]:
        return {**super()._info(frame), "score": frame.score, "ballsLeft": frame.balls_left,
                "level": frame.level, "phase": frame.phase}


class PlayfieldVectorEnv(VectorEnv[Floats, Floats, NDArray[Any]]):
    """`num_envs` on-demand sessions of one kind as one Gymnasium vector environment
    (`gymnasium.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point", ...)`).

    All sessions are stepped over ONE WebSocket (`/ws/batch`, see `batch.py`): each `step`
    sends every session's action in one message and reads every session's numbers from one
    binary reply, so the server steps them side by side as one job. Observations, rewards and
    terminations are those of the single environment, bit for bit, for the same seeds and
    actions. Gymnasium 1.x's next-step autoreset by default: the step after an episode ends
    resets that environment (reward 0, not terminated, not truncated). With
    `autoreset_mode=AutoresetMode.SAME_STEP` the step that ends an episode resets it at once
    and returns the new episode's first observation, the last one in `infos["final_obs"]` and
    its info in `infos["final_info"]`, as `SyncVectorEnv` in that mode (and as
    Stable-Baselines3 expects, see `sb3.py`). Episodes are truncated after
    `max_episode_steps` steps. Seeds as `SyncVectorEnv`: an int S seeds environment i with
    S + i (a new session with that seed, as the single environment's `reset(seed=...)`).
    Options are those of the single environment (`config`, `frame_skip`, `max_tilt`...); the
    sessions always step on demand.
    """

    env_class: ClassVar[type[PlayfieldEnv]] = PlayfieldEnv
    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, base_url: str | None = None,
                 max_episode_steps: int | None = None, keep_session: bool = False,
                 timeout: float = 10.0,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be next-step or same-step, not {mode.value}")
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        if options.pop("realtime", False):
            raise ValueError("the vector environment steps on demand; realtime=True is for "
                             "gymnasium.make (one environment)")
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.keep_session = keep_session
        self.timeout = timeout
        self.batch: Batch | None = None
        self.infos: list[SessionInfo] = []
        # A single environment for the spaces and the table's constants; its session goes.
        template = self.env_class(base_url, timeout=timeout, **options)
        try:
            self._take_constants(template)
        finally:
            template.close()
        self.client = template.client
        self.user_config = template.user_config
        self.frame_skip = template.frame_skip
        self.max_tilt = template.max_tilt
        self.single_observation_space = template.observation_space
        self.single_action_space = template.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.generators = [seeding.np_random(None)[0] for _ in range(num_envs)]
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._values: NDArray[np.float64] = np.zeros((num_envs, 0))
        self._ticks: NDArray[np.uint64] = np.zeros(num_envs, dtype=np.uint64)
        self._velocity: NDArray[np.float64] = np.zeros((num_envs, 2))
        self._open([None] * num_envs)

    # Sessions

    def _open(self, seeds: Sequence[int | None]) -> None:
        """New sessions with `seeds`, attached to a new batch connection."""
        self._discard()
        try:
            self.infos = [self.client.create_session(self.env_class.kind, self.user_config,
                                                     seed=seed, clock="on-demand")
                          for seed in seeds]
            self.batch = Batch(self.client, timeout=self.timeout)
            for info in self.infos:
                self.batch.attach(info)
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        if self.batch is not None:
            self.batch.close()
            self.batch = None
        if not self.keep_session:
            for info in self.infos:
                try:
                    self.client.delete_session(info)
                except PlayfieldError:
                    pass
        self.infos = []

    def close_extras(self, **kwargs: Any) -> None:
        self._discard()

    @property
    def session_ids(self) -> list[str]:
        return [info.id for info in self.infos]

    @property
    def unstored(self) -> str | None:
        """Why the server cannot store the environments' inputs now (its `unstored` notice on
        the batch connection, `Batch.unstored`: inputs after each reply's `stored` tick may be
        lost), None while it can."""
        return self.batch.unstored if self.batch else None

    @property
    def _batch(self) -> Batch:
        if self.batch is None:
            raise PlayfieldError("the environment is closed")
        return self.batch

    def _checked(self, reply: BatchReply) -> BatchReply:
        if reply.status.any():
            gone = [self.infos[i].id for i in np.flatnonzero(reply.status)]
            raise PlayfieldError(f"sessions {gone} were not stepped: deleted, or this server "
                                 "process may no longer step them (status "
                                 f"{reply.status[reply.status > 0].tolist()})")
        return reply

    # Gymnasium

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Floats, dict[str, Any]]:
        # NB: the vector's own generator takes an int only; each environment gets its own seed.
        super().reset(seed=seed if isinstance(seed, int) else None)
        if seed is not None:
            if isinstance(seed, int):
                seeds = [seed + i for i in range(self.num_envs)]
            else:
                seeds = list(seed)
                if len(seeds) != self.num_envs:
                    raise ValueError(f"seed needs {self.num_envs} values, not {len(seeds)}")
            self.generators = [seeding.np_random(one)[0] for one in seeds]
            self._open(seeds)
        everyone = np.arange(self.num_envs)
        inputs = [(int(i), message) for i in everyone for message in self._restart_inputs(int(i))]
        reply = self._checked(self._batch.step(count=1, inputs=inputs))
        self._values = reply.values.copy()
        self._ticks = reply.ticks.copy()
        self._velocity[:] = 0
        self._steps[:] = 0
        self._ended[:] = False
        for i in everyone:
            self._started(int(i))
        return self._observations(), self._infos()

    def _restart_inputs(self, i: int) -> tuple[JSONObject, ...]:
        return (*self._setup(i), {"type": "reset"})

    def step(self, actions: ArrayLike) -> tuple[Floats, NDArray[Any], NDArray[Any], NDArray[Any],
                                                 dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.float32)
        if actions.shape != (self.num_envs, 2):
            raise ValueError(f"actions must have shape ({self.num_envs}, 2), not {actions.shape}")
        bad = ~(np.abs(actions) <= self.max_tilt).all(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"action {actions[i].tolist()} of environment {i} is outside "
                             f"{self.single_action_space}")
        ended = self._ended
        if ended.any():
            rows: list[list[float] | None] = list(actions.astype(np.float64).tolist())
            restarting = [int(i) for i in np.flatnonzero(ended)]
            for i in restarting:
                rows[i] = None
            counts = [int(c) for c in np.where(ended, 1, self.frame_skip)]
            inputs = [(i, message) for i in restarting for message in self._restart_inputs(i)]
            reply = self._checked(self._batch.step(actions=rows, count=counts, inputs=inputs))
        else:
            reply = self._checked(self._batch.step(actions=actions, count=self.frame_skip))
        previous, values = self._values, reply.values
        ticks = (reply.ticks - self._ticks).astype(np.float64)
        self._velocity = self._velocities(previous, values, np.maximum(ticks, 1)[:, None])
        self._velocity[ended] = 0
        rewards, terminations = self._rewards(previous, values)
        rewards[ended] = 0
        terminations[ended] = False
        self._values = values.copy()
        self._ticks = reply.ticks.copy()
        self._steps = np.where(ended, 0, self._steps + 1)
        for index in np.flatnonzero(ended):
            self._started(int(index))
        # NB: as Gymnasium's TimeLimit: truncated at the limit even when terminated.
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        if self.max_episode_steps is not None:
            truncations = ~ended & (self._steps >= self.max_episode_steps)
        self._ended = terminations | truncations
        observations, infos = self._observations(), self._infos()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and self._ended.any():
            observations, infos = self._restart_ended(observations, infos)
        return observations, rewards, terminations, truncations, infos

    def _restart_ended(self, observations: Floats, infos: dict[str, Any]
                       ) -> tuple[Floats, dict[str, Any]]:
        """Same-step autoreset: restarts the environments whose episode just ended (one batch
        step of those sessions alone) and returns the observations and infos with their new
        episodes' first ones, the last ones in `final_obs` and `final_info`."""
        ended = self._ended.copy()
        slots = [int(i) for i in np.flatnonzero(ended)]
        inputs = [(i, message) for i in slots for message in self._restart_inputs(i)]
        reply = self._checked(self._batch.step(slots=slots, count=1, inputs=inputs))
        self._values[slots] = reply.values
        self._ticks[slots] = reply.ticks
        self._velocity[slots] = 0
        self._steps[slots] = 0
        self._ended[:] = False
        for i in slots:
            self._started(i)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in slots:
            final_obs[i] = observations[i]
        final_info = {key: (ended.copy() if key.startswith("_") else value)
                      for key, value in infos.items()}
        fresh = self._observations()
        restarted = self._infos()
        restarted.update({"final_obs": final_obs, "_final_obs": ended,
                          "final_info": final_info, "_final_info": ended.copy()})
        return fresh, restarted

    # What each kind adds

    def _take_constants(self, template: Any) -> None:
        """Reads what a kind needs from a single environment (spaces come on their own)."""

    def _setup(self, i: int) -> tuple[JSONObject, ...]:
        """Inputs before environment i's `reset`."""
        return ()

    def _started(self, i: int) -> None:
        """Called when environment i starts an episode."""

    def _velocities(self, previous: NDArray[np.float64], values: NDArray[np.float64],
                    ticks: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each ball's mean velocity over the step in px/s, as the single environment's."""
        velocities: NDArray[np.float64] = (values[:, 0:2] - previous[:, 0:2]) * RATE / ticks
        return velocities

    def _rewards(self, previous: NDArray[np.float64], values: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """Each environment's reward, and whether its episode is over."""
        raise NotImplementedError

    def _observations(self) -> Floats:
        raise NotImplementedError

    def _infos(self) -> dict[str, Any]:
        everyone = np.ones(self.num_envs, dtype=np.bool_)
        return {"steps": self._steps.copy(), "_steps": everyone}


class PlayfieldMazeVectorEnv(PlayfieldVectorEnv):
    """`PlayfieldMaze-v0`, vectorised (see `PlayfieldVectorEnv`)."""

    env_class = PlayfieldMazeEnv

    def _take_constants(self, template: PlayfieldMazeEnv) -> None:
        self.rows, self.columns, self.cell = template.rows, template.columns, template.cell
        self.goal, self.layout, self.density = template.goal, template.layout, template.density
        self.config_cells = list(template.cells)
        self.cells = [list(template.cells) for _ in range(self.num_envs)]
        self.distances: list[dict[Cell, int]] = [{} for _ in range(self.num_envs)]

    def _setup(self, i: int) -> tuple[JSONObject, ...]:
        if self.layout == "config":
            return ()
        # NB: the single environment's own code, with environment i's generator.
        self.cells[i] = _random_cells(self.generators[i], self.rows, self.columns, self.density,
                                      self.goal)
        return ({"type": "load", "cells": self.cells[i]},)

    def _started(self, i: int) -> None:
        self.distances[i] = _distances(self.cells[i], self.goal)

    def _cell_of(self, x: float, y: float) -> Cell:
        column = min(self.columns - 1, max(0, int(x // self.cell[0])))
        row = min(self.rows - 1, max(0, int(y // self.cell[1])))
        return row, column

    def _distance(self, i: int, x: float, y: float) -> int:
        return self.distances[i].get(self._cell_of(x, y), self.rows * self.columns)

    def _rewards(self, previous: NDArray[np.float64], values: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        for i in range(self.num_envs):
            before = self._distance(i, previous[i, 0], previous[i, 1])
            rewards[i] = float(before - self._distance(i, values[i, 0], values[i, 1]))
            terminations[i] = self._cell_of(values[i, 0], values[i, 1]) == self.goal
        return rewards, terminations

    def _observations(self) -> Floats:
        goal = ((self.goal[1] + 0.5) * self.cell[0], (self.goal[0] + 0.5) * self.cell[1])
        walls = np.array([[1.0 if ch == "#" else 0.0 for row in cells for ch in row]
                          for cells in self.cells])
        values = self._values
        goals = np.broadcast_to(np.array(goal), (self.num_envs, 2))
        return np.concatenate([values[:, 0:2], self._velocity, goals, walls],
                              axis=1).astype(np.float32)

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        everyone = infos["_steps"]
        infos["distance"] = np.array([self._distance(i, *self._values[i, 0:2])
                                      for i in range(self.num_envs)])
        infos["_distance"] = everyone
        return infos


class PlayfieldHolesVectorEnv(PlayfieldVectorEnv):
    """`PlayfieldHoles-v0`, vectorised (see `PlayfieldVectorEnv`)."""

    env_class = PlayfieldHolesEnv
    # Columns of the batch reply (`Holes.batchFields`): ball x, y, present, hole radius,
    # score, balls left, level, game over, phase, then each hole's x, y.
    BALL, PRESENT, RADIUS, SCORE, BALLS, LEVEL, OVER, PHASE, HOLES = 0, 2, 3, 4, 5, 6, 7, 8, 9

    def _take_constants(self, template: PlayfieldHolesEnv) -> None:
        self.flag = template.flag
        self.lost_penalty = template.lost_penalty

    def _velocities(self, previous: NDArray[np.float64], values: NDArray[np.float64],
                    ticks: NDArray[np.float64]) -> NDArray[np.float64]:
        both = (previous[:, self.PRESENT] > 0) & (values[:, self.PRESENT] > 0)
        return np.where(both[:, None], super()._velocities(previous, values, ticks), 0.0)

    def _rewards(self, previous: NDArray[np.float64], values: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        scored = values[:, self.SCORE] - previous[:, self.SCORE]
        lost = np.maximum(0, previous[:, self.BALLS] - values[:, self.BALLS])
        return scored - self.lost_penalty * lost, values[:, self.OVER] > 0

    def _observations(self) -> Floats:
        values = self._values
        flags = np.broadcast_to(np.array(self.flag, dtype=np.float64), (self.num_envs, 2))
        return np.concatenate([
            values[:, 0:2], self._velocity, values[:, self.PRESENT:self.PRESENT + 1], flags,
            values[:, self.RADIUS:self.RADIUS + 1], values[:, self.HOLES:]],
            axis=1).astype(np.float32)

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        everyone = infos["_steps"]
        for name, column in (("score", self.SCORE), ("ballsLeft", self.BALLS),
                             ("level", self.LEVEL)):
            infos[name] = self._values[:, column].astype(np.int64)
            infos["_" + name] = everyone
        return infos


_registration.register()
