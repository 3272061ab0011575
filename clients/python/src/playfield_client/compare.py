"""Compare groups (docs/protocol.md section 6b): 2 to 4 panes of one simulation from one seed,
each with its own config overrides, stepped in lockstep by the server; the first tick where
their frames differ.

    from playfield_client import Client
    client = Client("http://127.0.0.1:8080")
    with client.compare("bouncing-balls", seed=7, config={"balls": 12},
                        variants=[{}, {"restitution": 0.8}]) as group:
        group.step(600)
        print(group.tick, group.diverged)  # e.g. 600 41

With asyncio, `await AsyncClient(...).compare(...)` gives an `AsyncCompare` (the same methods
as coroutines; `async with` closes it).
"""
import asyncio
import json
import time
import urllib.parse
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from .errors import Disconnected, PlayfieldError, ServerError
from .messages import JSONObject


class Compare:
    """A compare group the server made, and its socket (opened at once; `close()` or a `with`
    block ends it). `panes` holds each pane's normalized config, `frames` each pane's newest
    frame (at `tick`), `diverged` the first tick where the panes' frames differ once the group
    has stepped that far (None before, and for panes that never differ)."""

    def __init__(self, created: JSONObject, socket_url: str, timeout: float = 10.0) -> None:
        self.id: str = created["id"]
        self.token: str = created["token"]
        self.kind: str = created["kind"]
        self.seed: int = int(created["seed"])
        self.end: int = int(created["end"])
        self.overrides: list[JSONObject] = [pane["overrides"] for pane in created["panes"]]
        self.panes: list[JSONObject] = [pane["config"] for pane in created["panes"]]
        self.offsets: list[int] = [int(pane.get("offset", 0)) for pane in created["panes"]]
        self.recordings: list[JSONObject | None] = [pane.get("recording")
                                                    for pane in created["panes"]]
        self.readout_names: list[str] = list(created.get("readouts", []))
        self.ticks: list[int] = []
        self.readouts: list[list[float]] = []
        self.loop_marks: tuple[int, int] | None = None
        self.timeout = timeout
        self.tick = 0
        self.frames: list[JSONObject] = []
        self.diverged: int | None = None
        self.hello: JSONObject = {}
        # The ambient pane's newest {tick, frame} while it plays (`play_ambient`), else None.
        self.ambient: JSONObject | None = None
        url = socket_url + "?token=" + urllib.parse.quote(self.token, safe="")
        try:
            # NB: entered, as websockets 17 wants of a connection kept open beyond one block.
            self._socket: ClientConnection = ws_connect(
                url, max_size=None, open_timeout=timeout).__enter__()
        except (OSError, TimeoutError) as error:
            raise Disconnected(f"cannot open {url}: {error}") from None
        self._wait(lambda message: message["type"] == "hello", "the group's hello")

    def __repr__(self) -> str:
        return f"Compare({self.id!r}, kind={self.kind!r}, tick={self.tick}, diverged={self.diverged})"

    def __enter__(self) -> "Compare":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the socket; the server ends the group once nobody watches it (`--idle-pause`)."""
        self._socket.close()

    def step(self, count: int = 1) -> list[JSONObject]:
        """Pauses, steps every pane `count` ticks (to `end` at most), and returns the panes'
        frames at the new tick."""
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"count must be a positive whole number of ticks, not {count!r}")
        count = min(count, self.end - self.tick)
        if count == 0:
            return self.frames
        self._send({"type": "step", "count": count})
        return self._frames_at(self.tick + count)

    def seek(self, tick: int) -> list[JSONObject]:
        """Goes to `tick` (0 to `end`; re-simulated from the seed when it is behind) and
        returns the panes' frames there."""
        if not isinstance(tick, int) or tick < 0:
            raise ValueError(f"tick must be a whole number, 0 or more, not {tick!r}")
        self._send({"type": "seek", "tick": tick})
        return self._frames_at(tick)

    def loop(self, start: int | None = None, end: int | None = None) -> None:
        """While playing, reaching tick `end` goes on from `start` (0 <= start < end <= the
        group's end); with neither, clears the loop. Raises `ServerError` for bad marks."""
        if (start is None) != (end is None):
            raise ValueError("give both loop marks, or neither to clear the loop")
        message: JSONObject = {"type": "loop"}
        if start is not None:
            message.update({"from": start, "to": end})
        self._send(message)
        self._wait(lambda m: m["type"] == "status" and
                   m.get("loop") == (None if start is None else {"from": start, "to": end}),
                   "the loop's status")

    def set_offset(self, pane: int, value: int) -> list[JSONObject]:
        """Shows pane `pane` (an index) `value` ticks ahead of the group from the next tick on
        (behind when negative; -end to end): the server runs every pane again to the current
        tick and finds the parting again (`diverged` is None until it does). Returns the panes'
        frames there; raises `ServerError` for a bad pane or value."""
        if not isinstance(pane, int) or not isinstance(value, int):
            raise ValueError("pane and value must be whole numbers")
        self._send({"type": "offset", "pane": pane, "value": value})
        wanted = list(self.offsets)
        if 0 <= pane < len(wanted):
            wanted[pane] = value
        self._wait(lambda m: m["type"] == "status" and m.get("offsets") == wanted,
                   "the new offsets' status")
        return self._frames_at(self.tick)

    def play_ambient(self, playing: bool = True, ticks: int = 1) -> JSONObject | None:
        """Plays (or pauses) the ambient pane for this connection; playing, waits for `ticks` of
        its steps and returns its newest `{tick, frame}`."""
        self._send({"type": "ambient", "playing": playing})
        if not playing:
            return None
        for _ in range(max(1, ticks)):
            self._wait(lambda m: m["type"] in ("frames", "ambient") and "ambient" in m,
                       "the ambient pane")
        return self.ambient

    def readout(self, name: str) -> list[float]:
        """Each pane's readout `name` (one of `readout_names`) at `tick`."""
        index = self.readout_names.index(name)
        return [values[index] for values in self.readouts]

    def run_until_diverged(self, limit: int | None = None) -> int | None:
        """Steps until the panes part or `limit` ticks (default: the group's end) are reached;
        returns the divergence tick, or None if they never differed by then."""
        goal = self.end if limit is None else min(self.end, limit)
        while self.diverged is None and self.tick < goal:
            self.step(min(600, goal - self.tick))
        return self.diverged

    def _send(self, message: JSONObject) -> None:
        try:
            self._socket.send(json.dumps(message))
        except ConnectionClosed:
            raise Disconnected("the compare group's socket closed") from None

    def _frames_at(self, tick: int) -> list[JSONObject]:
        self._wait(lambda message: message["type"] == "frames" and message["tick"] == tick,
                   f"the frames of tick {tick}")
        return self.frames

    def _wait(self, done: Any, what: str) -> JSONObject:
        """Reads messages (keeping what they tell) until `done(message)`, within `timeout`
        seconds of silence; raises `ServerError` for an `error`."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PlayfieldError(f"no {what} within {self.timeout} s")
            try:
                message: JSONObject = json.loads(self._socket.recv(timeout=left))
            except TimeoutError:
                continue
            except ConnectionClosed:
                raise Disconnected(f"the compare group's socket closed waiting for {what}") from None
            kind = message.get("type")
            if "ambient" in message and kind != "hello":
                self.ambient = message["ambient"]
            if kind == "hello":
                self.hello = message
                self.tick = int(message["tick"])
            elif kind == "frames":
                self.tick = int(message["tick"])
                self.frames = list(message["panes"])
                self.ticks = [int(tick) for tick in message.get("ticks", [])]
                self.readouts = [list(values) for values in message.get("readouts", [])]
                deadline = time.monotonic() + self.timeout
            elif kind == "status":
                loop = message.get("loop")
                self.loop_marks = None if loop is None else (int(loop["from"]), int(loop["to"]))
                offsets = [int(offset) for offset in message.get("offsets", self.offsets)]
                if offsets != self.offsets:
                    # NB: other offsets are another comparison; its parting comes again.
                    self.offsets = offsets
                    self.diverged = None
            elif kind == "diverged":
                self.diverged = int(message["tick"])
            elif kind == "error":
                raise ServerError(message.get("error", ""), message.get("message", ""),
                                  message.get("field"))
            if done(message):
                return message


class AsyncCompare:
    """A `Compare` for asyncio: the same attributes, and each method a coroutine run in a
    worker thread (one at a time: await each before the next). `async with` closes it."""

    def __init__(self, group: Compare) -> None:
        self._group = group

    def __getattr__(self, name: str) -> Any:
        # The group's state (tick, frames, diverged, panes, offsets, readouts, ...).
        return getattr(self._group, name)

    def __repr__(self) -> str:
        return "Async" + repr(self._group)

    async def __aenter__(self) -> "AsyncCompare":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await asyncio.to_thread(self._group.close)

    async def step(self, count: int = 1) -> list[JSONObject]:
        return await asyncio.to_thread(self._group.step, count)

    async def seek(self, tick: int) -> list[JSONObject]:
        return await asyncio.to_thread(self._group.seek, tick)

    async def loop(self, start: int | None = None, end: int | None = None) -> None:
        await asyncio.to_thread(self._group.loop, start, end)

    async def play_ambient(self, playing: bool = True, ticks: int = 1) -> JSONObject | None:
        return await asyncio.to_thread(self._group.play_ambient, playing, ticks)

    async def set_offset(self, pane: int, value: int) -> list[JSONObject]:
        return await asyncio.to_thread(self._group.set_offset, pane, value)

    async def run_until_diverged(self, limit: int | None = None) -> int | None:
        return await asyncio.to_thread(self._group.run_until_diverged, limit)

    def readout(self, name: str) -> list[float]:
        return self._group.readout(name)
