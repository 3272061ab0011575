"""Typed server messages (docs/protocol.md sections 3 and 5) and HTTP API records.

`parse(message, kind)` turns one decoded JSON message into a `Hello`, a frame of the session's
kind (`MazeFrame`, `HolesFrame`, `BallsFrame`, `TagCloudFrame`, `PaintbrushFrame`; a plain
`Frame` for a kind this client does not know), an `Event`, a `Status` or a
`Pong`; `error` messages become `ServerError` exceptions instead (see `session.py`). Every
typed object keeps the whole message in `data`, so fields added by newer servers are there too.
Units as in the protocol: px (y down), px/s, g, ticks of 1/60 s.
"""
from dataclasses import dataclass, field
from typing import Any, TypeAlias


from .errors import NotController, ServerError

# A decoded JSON object, as the server sends it.
JSONObject: TypeAlias = dict[str, Any]
# A point or vector: x, y.
Point: TypeAlias = tuple[float, float]


def _point(value: list[float] | None) -> Point | None:
    return None if value is None else (value[0], value[1])


def _vector(value: list[float]) -> Point:
    return (value[0], value[1])


def _pairs(flat: list[float]) -> list[Point]:
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]


@dataclass(frozen=True)
class Frame:
    """One tick's state: `tick`, `t` (= tick / 60 s) and the model's fields in `data`."""

    tick: int
    t: float
    data: JSONObject = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, message: JSONObject) -> "Frame":
        return cls(tick=message["tick"], t=message.get("t", message["tick"] / 60), data=message,
                   **cls.model_fields(message))

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        """The typed fields of this kind's frames, read from the message."""
        return {}


@dataclass(frozen=True)
class MazeFrame(Frame):
    """Maze: the ball's centre (px), the tilt (g), and the maze revision."""

    ball: Point = (0.0, 0.0)
    tilt: Point = (0.0, 0.0)
    revision: int = 0

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        return dict(
            ball=_vector(message["ball"]), tilt=_vector(message["tilt"]),
            revision=message["revision"])


@dataclass(frozen=True)
class HolesFrame(Frame):
    """Holes: the ball (px, None while a lost ball is gone), hole centres (px), the hole radius
    (px), and the game's readouts."""

    ball: Point | None = None
    holes: list[Point] = field(default_factory=list)
    hole_radius: float = 0.0
    score: int = 0
    balls_left: int = 0
    level: int = 1
    phase: str = "playing"
    game_over: bool = False
    pause: int = 0

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        return dict(
            ball=_point(message["ball"]), holes=_pairs(message["holes"]),
            hole_radius=message["holeRadius"], score=message["score"],
            balls_left=message["ballsLeft"], level=message["level"], phase=message["phase"],
            game_over=message["gameOver"], pause=message["pause"])


@dataclass(frozen=True)
class BallsFrame(Frame):
    """Bouncing balls: centres (px) in ball order, kinetic energy, momentum, impacts this tick."""

    positions: list[Point] = field(default_factory=list)
    energy: float = 0.0
    momentum: Point = (0.0, 0.0)
    collisions: int = 0

    @property
    def count(self) -> int:
        """How many balls."""
        return len(self.positions)

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        return dict(
            positions=_pairs(message["positions"]), energy=message["energy"],
            momentum=_vector(message["momentum"]), collisions=message["collisions"])


@dataclass(frozen=True)
class TagCloudFrame(Frame):
    """Tag cloud: label centres (view px), depth scale and opacity per tag, the drawing order,
    the rotation matrix (row-major), and whether a pointer holds the cloud."""

    points: list[Point] = field(default_factory=list)
    scale: list[float] = field(default_factory=list)
    opacity: list[float] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    rotation: list[float] = field(default_factory=list)
    dragging: bool = False

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        return dict(
            points=_pairs(message["points"]), scale=message["scale"],
            opacity=message["opacity"], order=message["order"], rotation=message["rotation"],
            dragging=message["dragging"])


@dataclass(frozen=True)
class PaintbrushFrame(Frame):
    """Paintbrush: the picture's version (changes so far) and how many strokes and points are on
    the canvas. The picture itself travels in `paint` events (docs/protocol.md)."""

    version: int = 0
    strokes: int = 0
    points: int = 0

    @staticmethod
    def model_fields(message: JSONObject) -> dict[str, Any]:
        return dict(version=message["version"], strokes=message["strokes"],
                    points=message["points"])


FRAMES: dict[str, type[Frame]] = {"maze": MazeFrame, "holes": HolesFrame, "bouncing-balls": BallsFrame,
          "tag-cloud": TagCloudFrame, "paintbrush": PaintbrushFrame}


@dataclass(frozen=True)
class Hello:
    """The first message of every connection: who you are, the session's config and model
    constants (`data`), and its current `frame`."""

    session: str
    kind: str
    role: str
    rate: int
    tick: int
    running: bool
    config: JSONObject
    frame: Frame
    data: JSONObject = field(repr=False, compare=False)

    @property
    def is_controller(self) -> bool:
        return self.role == "controller"


@dataclass(frozen=True)
class Event:
    """Something that happened at `tick`: `name` and its fields (`event["score"]`)."""

    tick: int
    name: str
    fields: JSONObject

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True)
class Budget:
    """How the server's per-tick CPU budget treats the session: stepped `every` ticks
    (`throttled` when more than 1), one step's average cost and its fair share, in ms."""

    throttled: bool
    every: int
    cost_ms: float
    share_ms: float

    @classmethod
    def from_json(cls, body: JSONObject) -> "Budget":
        return cls(throttled=body["throttled"], every=body["every"], cost_ms=body["costMs"],
                   share_ms=body["shareMs"])


@dataclass(frozen=True)
class Status:
    """Who is connected, whether the session steps, how many inputs wait, and the budget
    (None from servers that do not send it)."""

    tick: int
    running: bool
    spectators: int
    controllers: int
    queued: int
    budget: Budget | None = None


@dataclass(frozen=True)
class Pong:
    """The answer to a ping, echoing its `id` and `t`."""

    id: Any = None
    t: Any = None


def frame_from_json(message: JSONObject, kind: str | None) -> Frame:
    """A frame message as the typed frame of `kind` (a plain `Frame` for unknown kinds)."""
    return FRAMES.get(kind or "", Frame).from_json(message)


def error_from_json(message: JSONObject) -> ServerError:
    """The exception for an `error` message."""
    code = message.get("error", "error")
    kind = NotController if code == "not-controller" else ServerError
    return kind(code, message.get("message", ""), message.get("field"), message.get("id"),
                message.get("retryAfterMs"))


# What `parse` gives: a typed message, an error (returned, not raised), or an unknown type's
# message itself (an `ack`, an `answer`).
Message: TypeAlias = "Frame | Event | Status | Hello | Pong | ServerError | JSONObject"


def parse(message: JSONObject, kind: str | None) -> Message:
    """One decoded server message as a typed object; `error` gives a `ServerError` (returned,
    not raised). Unknown types come back as the dict itself."""
    match message.get("type"):
        case "frame":
            return frame_from_json(message, kind)
        case "event":
            fields = {k: v for k, v in message.items() if k not in ("type", "tick", "name")}
            return Event(tick=message["tick"], name=message["name"], fields=fields)
        case "status":
            return Status(
                tick=message["tick"], running=message["running"],
                spectators=message.get("spectators", 0), controllers=message.get("controllers", 0),
                queued=message.get("queued", 0),
                budget=Budget.from_json(message["budget"]) if "budget" in message else None)
        case "hello":
            kind = message["kind"]
            frame = dict(message, type="frame")
            return Hello(
                session=message["session"], kind=kind, role=message["role"],
                rate=message["rate"], tick=message["tick"], running=message["running"],
                config=message["config"], frame=frame_from_json(frame, kind), data=message)
        case "pong":
            return Pong(id=message.get("id"), t=message.get("t"))
        case "error":
            return error_from_json(message)
        case _:
            return message


@dataclass(frozen=True)
class SessionInfo:
    """A session as `GET /api/sessions/ID` shows it; `token` only right after creation."""

    id: str
    kind: str
    running: bool
    tick: int
    spectators: int
    controllers: int
    config: JSONObject
    urls: dict[str, str]
    data: JSONObject = field(repr=False, compare=False)
    token: str | None = field(default=None, repr=False)

    @classmethod
    def from_json(cls, body: JSONObject) -> "SessionInfo":
        return cls(
            id=body["id"], kind=body["kind"], running=body["running"], tick=body["tick"],
            spectators=body.get("spectators", 0), controllers=body.get("controllers", 0),
            config=body.get("config", {}), urls=body.get("urls", {}), data=body,
            token=body.get("token"))


@dataclass(frozen=True)
class HighScore:
    """One row of the Holes high-score table."""

    rank: int
    name: str
    score: int
    level: int
    date: float
    session: str | None = None  # the run's session: `{"recording": session}` replays it


@dataclass(frozen=True)
class SavedMaze:
    """A named maze: row strings, `#` solid and `.` empty (`cells` is None in listings)."""

    name: str
    updated_at: float
    cells: list[str] | None = None
    created_at: float | None = None
    token: str | None = None  # the owner token, given once when a new name is saved
