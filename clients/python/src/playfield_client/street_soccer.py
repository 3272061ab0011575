"""Street soccer from Python: a match driven turn by turn over one session channel.

    from playfield_client import Client
    client = Client("http://127.0.0.1:8080")
    match = client.street_soccer(away="strong", turns_per_side=5, seed=7)
    while not match.over:
        side = match.to_move                    # the side a person plays next
        plan = match.plan(side)                 # legal moves, points left...
        match.play(side, plan["legal"][:1])     # a confirmed turn (here: one move)
    print(match.score, match.stats)
    match.close()

The match's session is stopped and stepped: `play` sends the turn and steps the model until
the next person's turn (a computer's turn plays in those steps), so a match is a pure function
of the seed and the turns. The control token may act for either side; `seat_url(side)` is the
link of one side's own seat, for a second player.
"""
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .errors import PlayfieldError
from .messages import JSONObject, SessionInfo
from .session import Session

if TYPE_CHECKING:
    from .client import Client

# A move: `{"move", "piece", "to": [x, y]}`, or a tuple `("step", 3, (4, 2))`.
Move = JSONObject | tuple[str, int, tuple[int, int]]

SIDES = ("home", "away")
# Ticks stepped at most while a computer plays its turn (its `computerDelay` is 0 here).
MAX_COMPUTER_TICKS = 10


class StreetSoccerMatch:
    """One street soccer session, controlled: its frame, plans and turns."""

    def __init__(self, client: "Client", info: SessionInfo, session: Session) -> None:
        self.client = client
        self.info = info
        self.session = session

    @classmethod
    def create(cls, client: "Client", home: str = "human", away: str = "novice",
               turns_per_side: int = 15, seed: int | None = None, clock: str | None = None,
               **config: Any) -> "StreetSoccerMatch":
        """Creates the session (computers play without delay), stops it, and joins it."""
        config = {"home": home, "away": away, "turnsPerSide": turns_per_side, "computerDelay": 0,
                  **config}
        info = client.create_session("street-soccer", config, seed=seed, clock=clock)
        session = client.connect(info)
        session.stop()
        match = cls(client, info, session)
        match._settle()
        return match

    # The state

    @property
    def frame(self) -> JSONObject:
        """The newest frame's fields (a dict: `board`, `score`, `phase`, `toMove`, `die`...)."""
        frame = self.session.frame
        assert frame is not None  # a connected session has had its hello's frame
        return frame.data

    @property
    def hello(self) -> JSONObject:
        hello = self.session.hello
        assert hello is not None
        return hello.data

    @property
    def over(self) -> bool:
        return bool(self.frame["phase"] == "over")

    @property
    def to_move(self) -> str:
        side: str = self.frame["toMove"]
        return side

    @property
    def die(self) -> int | None:
        die: int | None = self.frame["die"]
        return die

    @property
    def score(self) -> tuple[int, int]:
        home, away = self.frame["score"]
        return (home, away)

    @property
    def stats(self) -> JSONObject:
        stats: JSONObject = self.frame["stats"]
        return stats

    def seat_url(self, side: str) -> str:
        """The page link of `side`'s own seat (its token), for another player."""
        if side not in SIDES:
            raise ValueError(f"side must be 'home' or 'away', not {side!r}")
        return self.client.base_url + self.info.urls[side]

    # Playing

    def plan(self, side: str, moves: Iterable[Move] = ()) -> JSONObject:
        """The server's plan of `side`'s turn after `moves`: `board`, `pointsLeft`, `results`,
        `goal`, `legal` (the moves allowed next), `canConfirm`, `problem`. Raises `ServerError`
        naming the rule when `side` may not play now or a move is illegal."""
        plan: JSONObject = self.session.ask(
            {"type": "plan", "side": side, "moves": [_move(m) for m in moves]})
        return plan

    def play(self, side: str, moves: Iterable[Move] = ()) -> JSONObject:
        """Confirms `side`'s turn and steps until a person's turn (or the end); returns the
        frame. A turn the rules refuse raises `ServerError` (or `PlayfieldError` for the
        confirmation rule) naming the rule, and nothing changes: the plan is asked first."""
        moves = [_move(m) for m in moves]
        plan = self.plan(side, moves)
        if not plan["canConfirm"]:
            raise PlayfieldError(plan["problem"])
        self.session.step(1, inputs=[{"type": "turn", "side": side, "moves": moves}])
        self._settle()
        return self.frame

    def roll(self, side: str, value: int) -> JSONObject:
        """Brings the die (a session with `dice="external"`)."""
        self.session.step(1, inputs=[{"type": "die", "side": side, "value": value}])
        self._settle()
        return self.frame

    def kit(self, side: str, shirt: str, shorts: str, pattern: str = "plain",
            pattern_color: str = "#ffffff") -> JSONObject:
        """Dresses `side`; returns the kits everyone sees (after the clash rule)."""
        self.session.step(1, inputs=[{"type": "kit", "side": side, "shirt": shirt, "shorts": shorts,
                                      "pattern": pattern, "patternColor": pattern_color}])
        kits: JSONObject = self.frame["kits"]
        return kits

    def rematch(self, side: str = "home") -> JSONObject:
        """After the match: the next one, ends changed, the same kits."""
        self.session.step(1, inputs=[{"type": "rematch", "side": side}])
        self._settle()
        return self.frame

    def reset(self) -> JSONObject:
        """Back to match 1 for the same seed."""
        self.session.step(1, inputs=[{"type": "reset"}])
        self._settle()
        return self.frame

    def close(self, delete: bool = True) -> None:
        self.session.close()
        if delete:
            self.client.delete_session(self.info.id, self.info.token)

    def __enter__(self) -> "StreetSoccerMatch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _settle(self) -> None:
        """Steps while a computer is due to play (its delay is 0: one tick each)."""
        for _ in range(MAX_COMPUTER_TICKS):
            if self.frame["phase"] != "computer":
                return
            self.session.step(1)
        raise PlayfieldError("the computer did not play its turn")


def _move(move: Move) -> JSONObject:
    """A move as the server reads it, from a dict or a `(move, piece, (x, y))` tuple."""
    if isinstance(move, dict):
        return {"move": move["move"], "piece": move["piece"], "to": list(move["to"])}
    kind, piece, to = move
    return {"move": kind, "piece": piece, "to": list(to)}
