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
import functools
import inspect
import itertools
import json
import os
import random
import threading
import time
import urllib.parse

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI, InvalidHandshake

from .errors import Disconnected, PlayfieldError, ServerError, SessionEnded
from .messages import Frame, Hello, Pong, Status, parse

# Reconnect backoff as the pages do it (docs/protocol.md section 9): 250 ms doubling to 8 s,
# each wait scaled by a random factor from 0.5 to 1.5.
FIRST_DELAY = 0.25
LAST_DELAY = 8.0
# Most ticks one `step` message may ask for (the server's limit).
MAX_STEP = 600


class _Waiter:
    """A future resolved by the first message `match` accepts; with `errors`, an `error`
    message fails it instead (and is consumed)."""

    def __init__(self, match, errors):
        self.match = match
        self.errors = errors
        self.future = asyncio.get_running_loop().create_future()

    def offer(self, message):
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

    def __init__(self, key):
        super().__init__(lambda m: _answers(m, key), errors=True)
        self.key = key
        self.error = None

    def offer(self, message):
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
    """Waits for the answer to the command sent with id `key`: its `ack`, or its `error`
    (which fails the wait). Both are consumed; nothing else is."""

    def __init__(self, key):
        super().__init__(lambda m: _acks(m, key), errors=True)
        self.key = key

    def offer(self, message):
        if self.future.done():
            return False
        if isinstance(message, ServerError):
            if message.id != self.key:
                return False
            self.future.set_exception(message)
            return True
        if self.match(message):
            self.future.set_result(message)
            return True
        return False


def _acks(message, key):
    """Whether `message` is the `ack` of the command with id `key`."""
    return isinstance(message, dict) and message.get("type") == "ack" and message.get("id") == key


def _answers(message, key):
    """Whether `message` answers the request with id `key`: its `ack`, or a frame carrying it."""
    if isinstance(message, Frame):
        return message.data.get("id") == key
    return _acks(message, key)


class AsyncSession:
    """A connection to one session as controller (URL with `?token=`) or spectator.

    Attributes kept current from the stream: `hello`, `id`, `kind`, `role`, `tick`, `running`,
    `frame` (the newest), `status` (the newest). Iterate (`async for message in session`) for
    frames, events, statuses and, after a reconnect, the new `Hello`.
    """

    def __init__(self, url, *, reconnect=True, retry_for=30.0, timeout=10.0, buffer=1000):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("ws", "wss") or "/ws/sessions/" not in parsed.path:
            raise ValueError(f"a session URL is ws://HOST/ws/sessions/ID[?token=T], not {url!r}")
        self.url = url
        self.auto_reconnect = reconnect
        self.retry_for = retry_for
        self.timeout = timeout
        self.hello = None
        self.frame = None
        self.status = None
        self.tick = 0
        self.running = False
        self._socket = None
        self._reader = None
        self._buffer = collections.deque(maxlen=buffer)
        self._arrived = asyncio.Event()
        self._waiters = []
        self._failure = None
        self._closing = False
        self._pings = itertools.count(1)
        self._confirm_lock = asyncio.Lock()

    @classmethod
    async def connect(cls, url, **options):
        """Opens the channel and reads `hello`; raises `SessionEnded` for an unknown session,
        `PlayfieldError` for a refused token, `Disconnected` when the server cannot be reached."""
        session = cls(url, **options)
        await session._open()
        return session

    def __repr__(self):
        return f"<AsyncSession {self.id} {self.kind} as {self.role}, tick {self.tick}>"

    @property
    def id(self):
        return self.hello.session if self.hello else None

    @property
    def kind(self):
        return self.hello.kind if self.hello else None

    @property
    def role(self):
        return self.hello.role if self.hello else None

    @property
    def connected(self):
        return self._socket is not None and self._failure is None

    # Connection

    async def _open(self):
        try:
            socket = await asyncio.wait_for(
                ws_connect(self.url, open_timeout=self.timeout, max_size=2**24), self.timeout)
        except InvalidStatus as error:
            status = error.response.status_code
            detail = error.response.body.decode(errors="replace") if error.response.body else ""
            try:
                detail = json.loads(detail).get("error", detail)
            except ValueError:
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
        self._take_hello(hello)
        self._reader = asyncio.get_running_loop().create_task(self._read(socket))

    def _safe_url(self):
        return self.url.split("?", 1)[0]

    def _take_hello(self, hello):
        self.hello = hello
        self.frame = hello.frame
        self.tick = hello.tick
        self.running = hello.running

    async def _read(self, socket):
        try:
            async for raw in socket:
                self._deliver(parse(json.loads(raw), self.kind))
            self._fail(self._closed_error(socket))
        except ConnectionClosed:
            self._fail(self._closed_error(socket))
        except Exception as error:  # a message that does not parse is the server's bug
            self._fail(Disconnected(f"cannot read the stream: {error!r}"))
            await socket.close()

    def _closed_error(self, socket):
        code, reason = socket.close_code, socket.close_reason or ""
        if code == 1001 and ("deleted" in reason or "expired" in reason):
            return SessionEnded(f"the session ended: {reason}")
        return Disconnected(f"the connection closed ({code} {reason})".strip())

    def _deliver(self, message):
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
        for waiter in self._waiters:
            consumed = waiter.offer(message) or consumed
        answer = isinstance(message, dict) and message.get("type") == "answer"
        if not consumed and not isinstance(message, Pong) and not answer:
            self._buffer.append(message)
            self._arrived.set()

    def _fail(self, error):
        if self._failure is None:
            self._failure = error
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.set_exception(self._failure)
        self._arrived.set()

    async def reconnect(self, retry_for=None):
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
                self._buffer.append(self.hello)
                self._arrived.set()
                return self.hello
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

    async def _drop_socket(self):
        socket, reader = self._socket, self._reader
        self._socket = self._reader = None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
        if socket is not None:
            await socket.close()

    async def _ready(self):
        """The open socket, reconnecting first if it dropped and reconnecting is on."""
        if self._closing:
            raise PlayfieldError("the session was closed")
        if self._failure is not None:
            if not self.auto_reconnect or isinstance(self._failure, SessionEnded):
                raise self._failure
            await self.reconnect()
        return self._socket

    async def close(self):
        """Closes the channel (the session goes on without this client)."""
        self._closing = True
        await self._drop_socket()
        self._arrived.set()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()

    # Receiving

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.receive()
        except PlayfieldError:
            if self._closing:
                raise StopAsyncIteration from None
            raise

    async def receive(self, timeout=None):
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

    def pending(self):
        """How many received messages wait to be read."""
        return len(self._buffer)

    def clear(self):
        """Forgets the received messages not yet read."""
        self._buffer.clear()

    async def _await(self, waiter, timeout=None):
        try:
            return await asyncio.wait_for(asyncio.shield(waiter.future), timeout or self.timeout)
        except TimeoutError:
            raise TimeoutError("the server did not answer in time") from None
        finally:
            self._waiters.remove(waiter)

    # Sending

    async def send(self, message, confirm=True):
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

    async def _send_text(self, socket, text):
        try:
            await socket.send(text)
        except ConnectionClosed:
            self._fail(self._closed_error(socket))
            raise self._failure from None

    async def ping(self):
        """Round-trip time in seconds."""
        socket = await self._ready()
        key = f"pfc-{next(self._pings)}"
        waiter = _Waiter(lambda m: isinstance(m, Pong) and m.id == key, errors=False)
        self._waiters.append(waiter)
        started = time.perf_counter()
        await self._send_text(socket, json.dumps({"type": "ping", "id": key}))
        await self._await(waiter)
        return time.perf_counter() - started

    async def ask(self, query):
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
        return answer[answer["query"]]

    # Session commands

    async def start(self):
        """The session runs at 60 ticks a second; returns once the server says so."""
        await self._switch("start", True)

    async def stop(self):
        """The session stops; returns once the server says so (frames then come only from
        `step`)."""
        await self._switch("stop", False)

    async def _switch(self, command, running):
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

    async def step(self, count=1, inputs=()):
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

    async def reset(self, confirm=True):
        """Every model: back to its start (holes: a new game; maze: the ball only)."""
        await self.send({"type": "reset"}, confirm)

    async def tilt(self, x, y, confirm=True):
        """Maze and holes: tilt in g, -2 to 2; x > 0 rolls right, y > 0 rolls up."""
        await self.send({"type": "tilt", "x": float(x), "y": float(y)}, confirm)

    async def toggle(self, row, col, confirm=True):
        """Maze: flips one cell between empty and solid."""
        await self.send({"type": "toggle", "row": int(row), "col": int(col)}, confirm)

    async def clear_maze(self, confirm=True):
        """Maze: empties every cell."""
        await self.send({"type": "clear"}, confirm)

    async def load(self, cells, confirm=True):
        """Maze: replaces the maze; `cells` are row strings of `#` (solid) and `.`."""
        await self.send({"type": "load", "cells": list(cells)}, confirm)

    async def restart(self, confirm=True):
        """Holes: a new game."""
        await self.send({"type": "restart"}, confirm)

    async def add_ball(self, x, y, vx=0.0, vy=0.0, radius=None, mass=None, confirm=True):
        """Bouncing balls: a new ball at (x, y) px with velocity (vx, vy) px/s."""
        message = {"type": "add-ball", "x": float(x), "y": float(y), "vx": float(vx),
                   "vy": float(vy)}
        if radius is not None:
            message["radius"] = float(radius)
        if mass is not None:
            message["mass"] = float(mass)
        await self.send(message, confirm)

    async def throw(self, index, vx, vy, confirm=True):
        """Bouncing balls: sets ball `index`'s velocity in px/s."""
        await self.send({"type": "throw", "index": int(index), "vx": float(vx), "vy": float(vy)},
                        confirm)

    async def drag(self, dx, dy, confirm=True):
        """Tag cloud: turns the sphere by a pointer motion of (dx, dy) px."""
        await self.send({"type": "drag", "dx": float(dx), "dy": float(dy)}, confirm)

    async def release(self, confirm=True):
        """Tag cloud: lets go; the spin decays to the idle spin."""
        await self.send({"type": "release"}, confirm)

    async def set_tags(self, tags, confirm=True):
        """Tag cloud: replaces the labels (strings or `{text, weight, url}` dicts)."""
        await self.send({"type": "tags", "tags": list(tags)}, confirm)


class _Loop:
    """One event loop on a daemon thread, shared by every blocking `Session` of a process.

    NB: a forked child (multiprocessing's default start method on Linux, as in Gymnasium's
    `AsyncVectorEnv`) inherits the loop but not the thread that runs it, so anything it ran
    there would wait for ever: the child forgets both (`os.register_at_fork`) and starts its
    own on first use."""

    _lock = threading.Lock()
    _loop = None
    # Loops a fork left behind: kept, never closed, since their files are the parent's too.
    _inherited = []

    @classmethod
    def run(cls, coroutine):
        with cls._lock:
            if cls._loop is None:
                cls._loop = asyncio.new_event_loop()
                threading.Thread(target=cls._loop.run_forever, name="playfield-client",
                                 daemon=True).start()
            loop = cls._loop
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    @classmethod
    def forget_after_fork(cls):
        if cls._loop is not None:
            cls._inherited.append(cls._loop)
        cls._loop = None
        cls._lock = threading.Lock()


os.register_at_fork(after_in_child=_Loop.forget_after_fork)


class Session:
    """The `AsyncSession` API for blocking code: the same methods and attributes, each call run
    to completion on a background event loop; iterate with `for message in session`."""

    def __init__(self, inner):
        self._inner = inner
        self._pid = os.getpid()

    def _run(self, coroutine):
        """Runs `coroutine` on this process's loop; refused in a forked child, whose copy of
        the connection belongs to the parent."""
        if self._pid != os.getpid():
            coroutine.close()
            raise PlayfieldError(
                "this session was opened in another process (before a fork); open a new one here")
        return _Loop.run(coroutine)

    @classmethod
    def connect(cls, url, **options):
        """Opens the channel (see `AsyncSession.connect`)."""

        async def opened():
            return await AsyncSession.connect(url, **options)

        return cls(_Loop.run(opened()))

    def __repr__(self):
        return repr(self._inner).replace("AsyncSession", "Session")

    def __getattr__(self, name):
        """The session's state (`hello`, `tick`, `frame`...), read from the asyncio side."""
        return getattr(self._inner, name)

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return self._run(self._inner.__anext__())
        except StopAsyncIteration:
            raise StopIteration from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _blocking(method):
    """`method` of `AsyncSession` as a blocking method of `Session`, with its signature and
    documentation."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        return self._run(method(self._inner, *args, **kwargs))

    return call


for _name, _method in inspect.getmembers(AsyncSession, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name != "connect":
        setattr(Session, _name, _blocking(_method))


@functools.wraps(AsyncSession.close)
def _close(self):
    # In a forked child the connection is the parent's: there is nothing of ours to close.
    if self._pid == os.getpid():
        self._run(self._inner.close())


Session.close = _close
