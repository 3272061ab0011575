"""One session's WebSocket channel (docs/protocol.md sections 2 to 5).

`AsyncSession` is the implementation: a reader task turns every server message into a typed
object (`messages.py`), keeps the session's tick and running state, hands messages to whoever
waits for them (a confirmation, a stepped frame, a status) and buffers the rest for iteration.
`Session` is the same API for blocking code: it runs each call on one background event loop.

Commands are *confirmed* by default: the message carries a request `id` and the client waits
for the server's answer with that id (docs/protocol.md, `ack`): an `ack` once the server has
checked and queued it, or an `error`, raised as `ServerError` (with the server's text) from the
call that caused it. Errors of other messages (sent with `confirm=False`) are never taken for
this command's: they stay for `receive`.
"""
import asyncio
import collections
import itertools
import json
import os
import random
import threading
import time
import urllib.parse
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, ClassVar, TypeVar

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI, InvalidHandshake

from .errors import Disconnected, NotStored, PlayfieldError, ServerError, SessionEnded
from .messages import Frame, Hello, JSONObject, Message, Pong, Status, parse

T = TypeVar("T")

# Reconnect backoff as the pages do it (docs/protocol.md section 9): 250 ms doubling to 8 s,
# each wait scaled by a random factor from 0.5 to 1.5.
FIRST_DELAY = 0.25
LAST_DELAY = 8.0
# Most ticks one `step` message may ask for (the server's limit).
MAX_STEP = 600


class _Waiter:
    """A future resolved by the first message `match` accepts; with `errors`, an `error`
    message fails it instead (and is consumed)."""

    def __init__(self, match: Callable[[Message], bool], errors: bool) -> None:
        self.match = match
        self.errors = errors
        self.future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()

    def offer(self, message: Message) -> bool:
        """Returns True when the message was consumed (an error taken by this waiter)."""
        if self.future.done():
            return False
        if isinstance(message, ServerError):
            if self.errors:
                self.future.set_exception(message)
                return True
            return False
        if self.match(message):
            self.future.set_result(message)
        return False


class _StepWaiter(_Waiter):
    """Waits for the answer to the `step` sent with id `key`, which the server sends after the
    frame and the events of the step's last tick (docs/protocol.md, `ack`): its `ack` (a
    stopped realtime session) or the frame carrying `key` (an on-demand session). An error with
    `key` is the step's refusal (`running`, `not-controller`, `too-many`, a bad `count`) and
    fails the wait at once. Another error is an input's, sent just before: kept and raised once
    the answer has come (further ones stay for `receive`)."""

    def __init__(self, key: str) -> None:
        super().__init__(lambda m: _answers(m, key), errors=True)
        self.key = key
        self.error: ServerError | None = None

    def offer(self, message: Message) -> bool:
        if self.future.done():
            return False
        if isinstance(message, ServerError):
            if message.id == self.key:
                self.future.set_exception(message)
            elif message.id is not None:
                return False  # another command's (a confirmed one waits for it)
            elif self.error is not None:
                return False  # raised later by `receive`
            else:
                self.error = message
            return True
        if not self.match(message):
            return False
        if self.error is not None:
            self.future.set_exception(self.error)
        else:
            self.future.set_result(message)
        # NB: the `ack` is taken; a frame stays for iteration, as every frame does.
        return not isinstance(message, Frame)


class _ReplyWaiter(_Waiter):
    """Waits for the answer to the command sent with id `key` (see `_answers`), or its
    `error` (which fails the wait). Both are consumed, but a frame stays for iteration, as
    every frame does."""

    def __init__(self, key: str | int) -> None:
        super().__init__(lambda m: _answers(m, key), errors=True)
        self.key = key

    def offer(self, message: Message) -> bool:
        if self.future.done():
            return False
        if isinstance(message, ServerError):
            if message.id != self.key:
                return False
            self.future.set_exception(message)
            return True
        if self.match(message):
            self.future.set_result(message)
            return not isinstance(message, Frame)
        return False


def _answers(message: Message, key: str | int) -> bool:
    """Whether `message` answers the request with id `key` (docs/protocol.md, `ack`): its
    `ack`; a query's `answer`; an on-demand step's frame, which carries the id; a `flush`'s
    `stored` or `unstored` notice."""
    if isinstance(message, Frame):
        return bool(message.data.get("id") == key)
    return (isinstance(message, dict) and message.get("type") in ("ack", "answer", "stored", "unstored")
            and message.get("id") == key)


class AsyncSession:
    """A connection to one session as controller (URL with `?token=`) or spectator.

    Attributes kept current from the stream: `hello`, `id`, `kind`, `role`, `tick`, `running`,
    `frame` (the newest), `status` (the newest), `stored` (how many of this connection's inputs
    the server has durably stored, its `stored` watermark; `flush()` waits for it), `unstored`
    (while the server says it cannot store inputs now, e.g. cut off from its database: why, in
    its words; inputs after `stored` may then be lost; None while it stores them). Iterate
    (`async for message in session`) for frames, events, statuses and, after a reconnect, the
    new `Hello`.
    """

    def __init__(self, url: str, *, reconnect: bool = True, retry_for: float = 30.0,
                 timeout: float = 10.0, buffer: int = 1000) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("ws", "wss") or "/ws/sessions/" not in parsed.path:
            raise ValueError(f"a session URL is ws://HOST/ws/sessions/ID[?token=T], not {url!r}")
        self.url = url
        self.auto_reconnect = reconnect
        self.retry_for = retry_for
        self.timeout = timeout
        self.hello: Hello | None = None
        self.frame: Frame | None = None
        self.status: Status | None = None
        self.tick = 0
        self.running = False
        self.stored = 0
        self.unstored: str | None = None
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._buffer: collections.deque[Message] = collections.deque(maxlen=buffer)
        self._arrived = asyncio.Event()
        self._waiters: list[_Waiter] = []
        self._failure: PlayfieldError | None = None
        self._closing = False
        self._pings = itertools.count(1)
        self._confirm_lock = asyncio.Lock()

    @classmethod
    async def connect(cls, url: str, **options: Any) -> "AsyncSession":
        """Opens the channel and reads `hello`; raises `SessionEnded` for an unknown session,
        `PlayfieldError` for a refused token, `Disconnected` when the server cannot be reached."""
        session = cls(url, **options)
        await session._open()
        return session

    def __repr__(self) -> str:
        return f"<AsyncSession {self.id} {self.kind} as {self.role}, tick {self.tick}>"

    @property
    def id(self) -> str | None:
        return self.hello.session if self.hello else None

    @property
    def kind(self) -> str | None:
        return self.hello.kind if self.hello else None

    @property
    def role(self) -> str | None:
        return self.hello.role if self.hello else None

    @property
    def connected(self) -> bool:
        return self._socket is not None and self._failure is None

    # Connection

    async def _open(self) -> None:
        try:
            socket = await asyncio.wait_for(
                ws_connect(self.url, open_timeout=self.timeout, max_size=2**24), self.timeout)
        except InvalidStatus as error:
            status = error.response.status_code
            detail = error.response.body.decode(errors="replace") if error.response.body else ""
            try:
                detail = str(json.loads(detail).get("error", detail))
            except (ValueError, AttributeError):
                pass
            if status == 404:
                raise SessionEnded(f"no such session: {detail}") from None
            raise PlayfieldError(f"the server refused the connection: {status} {detail}") from None
        except (OSError, TimeoutError, InvalidURI, InvalidHandshake) as error:
            raise Disconnected(f"cannot connect to {self._safe_url()}: {error}") from None
        try:
            first = json.loads(await asyncio.wait_for(socket.recv(), self.timeout))
        except (ConnectionClosed, TimeoutError, ValueError) as error:
            await socket.close()
            raise Disconnected(f"no hello from {self._safe_url()}: {error!r}") from None
        hello = parse(first, None)
        if not isinstance(hello, Hello):
            await socket.close()
            raise PlayfieldError(f"expected hello, got {first.get('type')!r}")
        self._socket = socket
        self._failure = None
        self.unstored = None  # NB: a new connection is told again on its first input
        self._take_hello(hello)
        self._reader = asyncio.get_running_loop().create_task(self._read(socket))

    def _safe_url(self) -> str:
        return self.url.split("?", 1)[0]

    def _take_hello(self, hello: Hello) -> None:
        self.hello = hello
        self.frame = hello.frame
        self.tick = hello.tick
        self.running = hello.running

    async def _read(self, socket: ClientConnection) -> None:
        try:
            async for raw in socket:
                self._deliver(parse(json.loads(raw), self.kind))
            self._fail(self._closed_error(socket))
        except ConnectionClosed:
            self._fail(self._closed_error(socket))
        except Exception as error:  # a message that does not parse is the server's bug
            self._fail(Disconnected(f"cannot read the stream: {error!r}"))
            await socket.close()

    def _closed_error(self, socket: ClientConnection) -> PlayfieldError:
        code, reason = socket.close_code, socket.close_reason or ""
        if code == 1001 and ("deleted" in reason or "expired" in reason):
            return SessionEnded(f"the session ended: {reason}")
        return Disconnected(f"the connection closed ({code} {reason})".strip())

    def _deliver(self, message: Message) -> None:
        if isinstance(message, Frame):
            self.frame = message
            self.tick = message.tick
        elif isinstance(message, Status):
            self.status = message
            self.tick = max(self.tick, message.tick)
            self.running = message.running
        elif isinstance(message, Hello):
            self._take_hello(message)
        consumed = False
        # The `stored` watermark is kept, not queued for iteration (one comes after each commit),
        # and so is an `unstored` notice: the last of the two says where the inputs stand.
        watermark = False
        if isinstance(message, dict) and message.get("type") in ("stored", "unstored"):
            watermark = True
            self.stored = max(self.stored, int(message.get("inputs", 0)))
            self.unstored = (str(message.get("reason", "the server cannot store inputs now"))
                             if message["type"] == "unstored" else None)
        for waiter in self._waiters:
            consumed = waiter.offer(message) or consumed
        answer = isinstance(message, dict) and message.get("type") == "answer"
        if not consumed and not isinstance(message, Pong) and not answer and not watermark:
            self._buffer.append(message)
            self._arrived.set()

    def _fail(self, error: PlayfieldError) -> None:
        if self._failure is None:
            self._failure = error
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.set_exception(self._failure)
        self._arrived.set()

    async def reconnect(self, retry_for: float | None = None) -> Hello:
        """Opens the channel again, retrying with backoff for up to `retry_for` seconds (default
        the session's `retry_for`); the new `Hello` is also delivered to iteration. Raises
        `SessionEnded` when the session is gone."""
        if isinstance(self._failure, SessionEnded):
            raise self._failure
        await self._drop_socket()
        deadline = time.monotonic() + (self.retry_for if retry_for is None else retry_for)
        delay = FIRST_DELAY
        while True:
            try:
                await self._open()
                hello = self.hello
                assert hello is not None  # set by `_open`
                self._buffer.append(hello)
                self._arrived.set()
                return hello
            except SessionEnded as error:
                self._failure = error
                raise
            except Disconnected as error:
                wait = delay * random.uniform(0.5, 1.5)
                if time.monotonic() + wait > deadline:
                    self._failure = error
                    raise
                await asyncio.sleep(wait)
                delay = min(delay * 2, LAST_DELAY)

    async def _drop_socket(self) -> None:
        socket, reader = self._socket, self._reader
        self._socket = self._reader = None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
        if socket is not None:
            await socket.close()

    async def _ready(self) -> ClientConnection:
        """The open socket, reconnecting first if it dropped and reconnecting is on."""
        if self._closing:
            raise PlayfieldError("the session was closed")
        if self._failure is not None:
            if not self.auto_reconnect or isinstance(self._failure, SessionEnded):
                raise self._failure
            await self.reconnect()
        if self._socket is None:
            raise PlayfieldError("the session is not connected")
        return self._socket

    async def close(self) -> None:
        """Closes the channel (the session goes on without this client)."""
        self._closing = True
        await self._drop_socket()
        self._arrived.set()

    async def __aenter__(self) -> "AsyncSession":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # Receiving

    def __aiter__(self) -> "AsyncSession":
        return self

    async def __anext__(self) -> Message:
        try:
            return await self.receive()
        except PlayfieldError:
            if self._closing:
                raise StopAsyncIteration from None
            raise

    async def receive(self, timeout: float | None = None) -> Message:
        """The next message (a frame, `Event`, `Status`, or a `Hello` after a reconnect); an
        unclaimed server `error` is raised here as `ServerError`. Raises `TimeoutError` after
        `timeout` seconds, and reconnects on a dropped connection when reconnecting is on."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._buffer:
                message = self._buffer.popleft()
                if isinstance(message, ServerError):
                    raise message
                return message
            if self._closing:
                raise PlayfieldError("the session was closed")
            if self._failure is not None:
                await self._ready()
                continue
            self._arrived.clear()
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no message arrived in time")
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                raise TimeoutError("no message arrived in time") from None

    def pending(self) -> int:
        """How many received messages wait to be read."""
        return len(self._buffer)

    def clear(self) -> None:
        """Forgets the received messages not yet read."""
        self._buffer.clear()

    async def _await(self, waiter: _Waiter, timeout: float | None = None) -> Message:
        try:
            return await asyncio.wait_for(asyncio.shield(waiter.future), timeout or self.timeout)
        except TimeoutError:
            raise TimeoutError("the server did not answer in time") from None
        finally:
            self._waiters.remove(waiter)

    # Sending

    async def send(self, message: JSONObject, confirm: bool = True) -> None:
        """Sends one client message (a dict with `type`); with `confirm`, it carries a request
        `id` (its own, when it has one) and this waits for the server's `ack` of that id, or
        raises its `error` as `ServerError`. A `ping` is never confirmed (it has no `ack`)."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise TypeError(f"a message is a dict with a string 'type', not {message!r}")
        socket = await self._ready()
        if not confirm or message["type"] == "ping":
            await self._send_text(socket, json.dumps(message, allow_nan=False))
            return
        key = message.get("id")
        if key is None:
            key = f"pfc-{next(self._pings)}"
            message = {**message, "id": key}
        text = json.dumps(message, allow_nan=False)
        waiter = _ReplyWaiter(key)
        self._waiters.append(waiter)
        try:
            await self._send_text(socket, text)
        except BaseException:
            self._waiters.remove(waiter)
            raise
        await self._await(waiter)

    async def _send_text(self, socket: ClientConnection, text: str) -> None:
        try:
            await socket.send(text)
        except ConnectionClosed:
            error = self._closed_error(socket)
            self._fail(error)
            raise self._failure or error from None

    async def ping(self) -> float:
        """Round-trip time in seconds."""
        socket = await self._ready()
        key = f"pfc-{next(self._pings)}"
        waiter = _Waiter(lambda m: isinstance(m, Pong) and m.id == key, errors=False)
        self._waiters.append(waiter)
        started = time.perf_counter()
        await self._send_text(socket, json.dumps({"type": "ping", "id": key}))
        await self._await(waiter)
        return time.perf_counter() - started

    async def flush(self, timeout: float | None = None) -> int:
        """Waits until every input this connection sent so far is durably stored (in the
        server's committed log, or refused at its step and never to be logged), at most
        `timeout` seconds (default the session's `timeout`), and returns the `stored`
        watermark: how many of this connection's inputs are. Raises `NotStored` (with the
        watermark and the server's reason) at once when the server cannot store inputs now
        (its `unstored` notice: cut off from its database, say), `TimeoutError` when it did not
        store them in time (they may be lost if it fails now), `ServerError` `not-stored` for
        a session kept in memory only. Counts restart with each connection:
        after a reconnect, inputs sent before it that were not stored are not known."""
        socket = await self._ready()
        key = f"pfc-{next(self._pings)}"
        waiter = _ReplyWaiter(key)
        self._waiters.append(waiter)
        try:
            await self._send_text(socket, json.dumps({"type": "flush", "id": key}))
        except BaseException:
            self._waiters.remove(waiter)
            raise
        reply = await self._await(waiter, timeout)
        assert isinstance(reply, dict)
        if reply["type"] == "unstored":
            raise NotStored(str(reply.get("reason", "")), int(reply["inputs"]))
        return int(reply["inputs"])

    async def ask(self, query: JSONObject) -> Any:
        """Sends a query (a dict with `type`, such as street soccer's `{"type": "plan", ...}`)
        and returns its answer's value (the answer's field named after the query); a query the
        state refuses raises `ServerError` with the rule as its message."""
        if not isinstance(query, dict) or not isinstance(query.get("type"), str):
            raise TypeError(f"a query is a dict with a string 'type', not {query!r}")
        socket = await self._ready()
        async with self._confirm_lock:
            key = f"pfq-{next(self._pings)}"
            waiter = _Waiter(
                lambda m: isinstance(m, dict) and m.get("type") == "answer" and m.get("id") == key,
                errors=True)
            self._waiters.append(waiter)
            try:
                await self._send_text(socket, json.dumps({**query, "id": key}, allow_nan=False))
            except BaseException:
                self._waiters.remove(waiter)
                raise
            answer = await self._await(waiter)
        assert isinstance(answer, dict)  # what the waiter matches
        return answer[answer["query"]]

    # Session commands

    async def start(self) -> None:
        """The session runs at 60 ticks a second; returns once the server says so."""
        await self._switch("start", True)

    async def stop(self) -> None:
        """The session stops; returns once the server says so (frames then come only from
        `step`)."""
        await self._switch("stop", False)

    async def _switch(self, command: str, running: bool) -> None:
        if self.running == running:
            await self.send({"type": command})
            return
        waiter = _Waiter(lambda m: isinstance(m, Status) and m.running == running, errors=False)
        self._waiters.append(waiter)
        try:
            await self.send({"type": command})
        except BaseException:
            self._waiters.remove(waiter)
            raise
        await self._await(waiter)

    async def step(self, count: int = 1, inputs: Iterable[JSONObject] = ()) -> Frame | None:
        """Advances a stopped (or on-demand) session `count` ticks (1 to 600) and returns the
        last one's frame, once the events of those ticks have come too (iterate or `receive`
        them: they are buffered before this returns). `inputs` (message dicts, such as
        `{"type": "tilt", "x": 1, "y": 0}`) are sent just before, in one call, and apply from
        the first of those ticks. An input the server refuses is raised as `ServerError` once
        the step ran; a refused step (the session runs, `running`) at once."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"count must be an int, not {count!r}")
        if not 1 <= count <= MAX_STEP:
            # NB: checked here too, so that a refusal from the server is always about an input
            # and the step itself always runs.
            raise ValueError(f"count must be an integer from 1 to {MAX_STEP}, not {count}")
        if self.running:
            raise PlayfieldError("step needs a stopped session: call stop() first")
        # No ping needed: the step's answer (its `ack`, or on demand its frame) comes after the
        # frame and events of its last tick, and the inputs' errors before it.
        key = f"pfs-{next(self._pings)}"
        waiter = _StepWaiter(key)
        self._waiters.append(waiter)
        try:
            for message in inputs:
                await self.send(message, confirm=False)
            await self.send({"type": "step", "count": count, "id": key}, confirm=False)
        except BaseException:
            self._waiters.remove(waiter)
            raise
        answer = await self._await(waiter, self.timeout + count / 60)
        return answer if isinstance(answer, Frame) else self.frame

    # Model inputs (docs/protocol.md section 5); each raises `ServerError` with the server's
    # text when the server refuses it, e.g. a tilt out of range or an input of another kind.

    async def reset(self, confirm: bool = True) -> None:
        """Every model: back to its start (holes: a new game; maze: the ball only)."""
        await self.send({"type": "reset"}, confirm)

    async def tilt(self, x: float, y: float, confirm: bool = True) -> None:
        """Maze and holes: tilt in g, -2 to 2; x > 0 rolls right, y > 0 rolls up."""
        await self.send({"type": "tilt", "x": float(x), "y": float(y)}, confirm)

    async def toggle(self, row: int, col: int, confirm: bool = True) -> None:
        """Maze: flips one cell between empty and solid."""
        await self.send({"type": "toggle", "row": int(row), "col": int(col)}, confirm)

    async def clear_maze(self, confirm: bool = True) -> None:
        """Maze: empties every cell."""
        await self.send({"type": "clear"}, confirm)

    async def load(self, cells: Iterable[str], confirm: bool = True) -> None:
        """Maze: replaces the maze; `cells` are row strings of `#` (solid) and `.`."""
        await self.send({"type": "load", "cells": list(cells)}, confirm)

    async def restart(self, confirm: bool = True) -> None:
        """Holes: a new game."""
        await self.send({"type": "restart"}, confirm)

    async def add_ball(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0,
                       radius: float | None = None, mass: float | None = None,
                       confirm: bool = True) -> None:
        """Bouncing balls: a new ball at (x, y) px with velocity (vx, vy) px/s."""
        message: JSONObject = {"type": "add-ball", "x": float(x), "y": float(y), "vx": float(vx),
                   "vy": float(vy)}
        if radius is not None:
            message["radius"] = float(radius)
        if mass is not None:
            message["mass"] = float(mass)
        await self.send(message, confirm)

    async def throw(self, index: int, vx: float, vy: float, confirm: bool = True) -> None:
        """Bouncing balls: sets ball `index`'s velocity in px/s."""
        await self.send({"type": "throw", "index": int(index), "vx": float(vx), "vy": float(vy)},
                        confirm)

    async def drag(self, dx: float, dy: float, confirm: bool = True) -> None:
        """Tag cloud: turns the sphere by a pointer motion of (dx, dy) px."""
        await self.send({"type": "drag", "dx": float(dx), "dy": float(dy)}, confirm)

    async def release(self, confirm: bool = True) -> None:
        """Tag cloud: lets go; the spin decays to the idle spin."""
        await self.send({"type": "release"}, confirm)

    async def set_tags(self, tags: Iterable[str | JSONObject], confirm: bool = True) -> None:
        """Tag cloud: replaces the labels (strings or `{text, weight, url}` dicts)."""
        await self.send({"type": "tags", "tags": list(tags)}, confirm)


class _Loop:
    """One event loop on a daemon thread, shared by every blocking `Session` of a process.

    NB: a forked child (multiprocessing's default start method on Linux, as in Gymnasium's
    `AsyncVectorEnv`) inherits the loop but not the thread that runs it, so anything it ran
    there would wait for ever: the child forgets both (`os.register_at_fork`) and starts its
    own on first use."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _loop: ClassVar[asyncio.AbstractEventLoop | None] = None
    # Loops a fork left behind: kept, never closed, since their files are the parent's too.
    _inherited: ClassVar[list[asyncio.AbstractEventLoop]] = []

    @classmethod
    def run(cls, coroutine: Coroutine[Any, Any, T]) -> T:
        with cls._lock:
            if cls._loop is None:
                cls._loop = asyncio.new_event_loop()
                threading.Thread(target=cls._loop.run_forever, name="playfield-client",
                                 daemon=True).start()
            loop = cls._loop
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    @classmethod
    def forget_after_fork(cls) -> None:
        if cls._loop is not None:
            cls._inherited.append(cls._loop)
        cls._loop = None
        cls._lock = threading.Lock()


os.register_at_fork(after_in_child=_Loop.forget_after_fork)


class Session:
    """The `AsyncSession` API for blocking code: the same methods and attributes, each call run
    to completion on a background event loop; iterate with `for message in session`. Each
    method is `AsyncSession`'s of the same name (see there)."""

    def __init__(self, inner: AsyncSession) -> None:
        self._inner = inner
        self._pid = os.getpid()

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Runs `coroutine` on this process's loop; refused in a forked child, whose copy of
        the connection belongs to the parent."""
        if self._pid != os.getpid():
            coroutine.close()
            raise PlayfieldError(
                "this session was opened in another process (before a fork); open a new one here")
        return _Loop.run(coroutine)

    @classmethod
    def connect(cls, url: str, **options: Any) -> "Session":
        """Opens the channel (see `AsyncSession.connect`)."""
        return cls(_Loop.run(AsyncSession.connect(url, **options)))

    def __repr__(self) -> str:
        return repr(self._inner).replace("AsyncSession", "Session")

    # The session's state, read from the asyncio side.

    @property
    def url(self) -> str:
        return self._inner.url

    @property
    def hello(self) -> Hello | None:
        return self._inner.hello

    @property
    def frame(self) -> Frame | None:
        return self._inner.frame

    @property
    def status(self) -> Status | None:
        return self._inner.status

    @property
    def tick(self) -> int:
        return self._inner.tick

    @property
    def running(self) -> bool:
        return self._inner.running

    @property
    def id(self) -> str | None:
        return self._inner.id

    @property
    def kind(self) -> str | None:
        return self._inner.kind

    @property
    def role(self) -> str | None:
        return self._inner.role

    @property
    def connected(self) -> bool:
        return self._inner.connected

    def pending(self) -> int:
        return self._inner.pending()

    def clear(self) -> None:
        self._inner.clear()

    # Iteration and the connection

    def __iter__(self) -> "Session":
        return self

    def __next__(self) -> Message:
        try:
            return self._run(self._inner.__anext__())
        except StopAsyncIteration:
            raise StopIteration from None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        # In a forked child the connection is the parent's: there is nothing of ours to close.
        if self._pid == os.getpid():
            self._run(self._inner.close())

    def reconnect(self, retry_for: float | None = None) -> Hello:
        return self._run(self._inner.reconnect(retry_for))

    def receive(self, timeout: float | None = None) -> Message:
        return self._run(self._inner.receive(timeout))

    # Commands

    def send(self, message: JSONObject, confirm: bool = True) -> None:
        self._run(self._inner.send(message, confirm))

    def ping(self) -> float:
        return self._run(self._inner.ping())

    def ask(self, query: JSONObject) -> Any:
        return self._run(self._inner.ask(query))

    def flush(self, timeout: float | None = None) -> int:
        return self._run(self._inner.flush(timeout))

    @property
    def stored(self) -> int:
        return self._inner.stored

    @property
    def unstored(self) -> str | None:
        return self._inner.unstored

    def start(self) -> None:
        self._run(self._inner.start())

    def stop(self) -> None:
        self._run(self._inner.stop())

    def step(self, count: int = 1, inputs: Iterable[JSONObject] = ()) -> Frame | None:
        return self._run(self._inner.step(count, inputs))

    def reset(self, confirm: bool = True) -> None:
        self._run(self._inner.reset(confirm))

    def tilt(self, x: float, y: float, confirm: bool = True) -> None:
        self._run(self._inner.tilt(x, y, confirm))

    def toggle(self, row: int, col: int, confirm: bool = True) -> None:
        self._run(self._inner.toggle(row, col, confirm))

    def clear_maze(self, confirm: bool = True) -> None:
        self._run(self._inner.clear_maze(confirm))

    def load(self, cells: Iterable[str], confirm: bool = True) -> None:
        self._run(self._inner.load(cells, confirm))

    def restart(self, confirm: bool = True) -> None:
        self._run(self._inner.restart(confirm))

    def add_ball(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0,
                 radius: float | None = None, mass: float | None = None,
                 confirm: bool = True) -> None:
        self._run(self._inner.add_ball(x, y, vx, vy, radius, mass, confirm))

    def throw(self, index: int, vx: float, vy: float, confirm: bool = True) -> None:
        self._run(self._inner.throw(index, vx, vy, confirm))

    def drag(self, dx: float, dy: float, confirm: bool = True) -> None:
        self._run(self._inner.drag(dx, dy, confirm))

    def release(self, confirm: bool = True) -> None:
        self._run(self._inner.release(confirm))

    def set_tags(self, tags: Iterable[str | JSONObject], confirm: bool = True) -> None:
        self._run(self._inner.set_tags(tags, confirm))

