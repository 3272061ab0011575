"""Many on-demand sessions stepped over one WebSocket (`/ws/batch`, docs/protocol.md "Batch
stepping"): the fast path under the vector environments.

    batch = Batch(client)                  # one connection
    slot = batch.attach(info)              # each session once, with its control token
    reply = batch.step(actions=[[0.5, 0.0], ...])
    reply.ticks, reply.values, reply.status   # numpy arrays, one row per session

A step message carries every session's action (and any other inputs); one binary reply
carries every session's tick and values (`fields`: the frame's numbers, e.g. the ball's
position and the score). An error names what was wrong and no session is stepped. The calls
block, with `timeout` as the bound on each whole wait.
"""
import base64
import hashlib
import itertools
import json
import os
import socket
import ssl
import struct
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .errors import Disconnected, PlayfieldError, ServerError
from .messages import JSONObject, SessionInfo, error_from_json

if TYPE_CHECKING:
    from .client import Client

# One session's action: a row of numbers, or None for none.
Action = Sequence[float] | NDArray[np.float64] | NDArray[np.float32] | None

MAGIC = b"PFB1"
HEADER = struct.Struct("<4sIII")
# The binary step (every attached session, one action each, one count): "PFS1", u32 id,
# u32 n, u32 count, then n rows of little-endian f64 actions.
STEP_MAGIC = b"PFS1"
# The reply's status per session: stepped, or not stepped (nothing applied) because it was
# deleted or because this server process may not step it now (fenced: another took it over).
STEPPED, DELETED, FENCED = 0, 1, 2
# Attach refusals that may pass, retried after the server's `retryAfterMs`: the session is
# held by another server process, or the server's database workers are all taken.
RETRIED = ("held-elsewhere", "busy")


class BatchReply:
    """One step's answer: `ticks` (n uint64), `values` (n x len(fields) float64, rows in the
    request's order), `status` (n uint8: 0 stepped, 1 deleted, 2 fenced) and `stored` (n uint64,
    each session's `stored` watermark: every input applied at or before that tick is durably
    stored; all 0 from a server that does not send it). The arrays are read-only views of the
    received message."""

    __slots__ = ("request", "ticks", "values", "status", "stored")

    def __init__(self, data: bytes) -> None:
        magic, self.request, n, width = HEADER.unpack_from(data)
        if magic != MAGIC:
            raise PlayfieldError(f"not a batch reply: it starts {magic!r}")
        offset = HEADER.size
        self.ticks: NDArray[np.uint64] = np.frombuffer(data, dtype="<u8", count=n, offset=offset)
        offset += 8 * n
        self.values: NDArray[np.float64] = np.frombuffer(
            data, dtype="<f8", count=n * width, offset=offset).reshape(n, width)
        offset += 8 * n * width
        self.status: NDArray[np.uint8] = np.frombuffer(data, dtype=np.uint8, count=n,
                                                       offset=offset)
        offset += n
        self.stored: NDArray[np.uint64] = (
            np.frombuffer(data, dtype="<u8", count=n, offset=offset)
            if len(data) >= offset + 8 * n else np.zeros(n, dtype=np.uint64))


class _BlockingSocket:
    """The client side of one WebSocket (RFC 6455), blocking, on the caller's thread: masked
    frames out, whole messages in, pings answered, no extensions. The batch path's round trip is
    a fraction of a millisecond, and a reader thread's hand-over (as in `websockets.sync`) cost
    about as much again: measured in Benchmarks/client/gym_steps.py."""

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, url: str, timeout: float) -> None:
        parsed = urllib.parse.urlsplit(url)
        secure = parsed.scheme == "wss"
        host, port = parsed.hostname or "", parsed.port or (443 if secure else 80)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if secure:
            self.sock = ssl.create_default_context().wrap_socket(self.sock, server_hostname=host)
        key = base64.b64encode(os.urandom(16))
        self.sock.sendall(
            f"GET {parsed.path} HTTP/1.1\r\nHost: {parsed.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        self.buffer = bytearray()
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        lines = head.decode("latin-1").split("\r\n")
        accept = base64.b64encode(hashlib.sha1(key + self.GUID).digest()).decode()
        headers = {k.strip().lower(): v.strip()
                   for k, _, v in (line.partition(":") for line in lines[1:])}
        if lines[0].split(" ")[1:2] != ["101"] or headers.get("sec-websocket-accept") != accept:
            self.sock.close()
            raise Disconnected(f"{url} refused the WebSocket: {lines[0]}")

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)
        data = self.sock.recv(1 << 20)
        if not data:
            raise Disconnected("the server closed the connection")
        self.buffer += data

    def _frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        keys = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(
            n, "little")
        self.sock.sendall(header + mask + masked)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def send_binary(self, payload: bytes) -> None:
        self._frame(0x2, payload)

    def recv(self, timeout: float) -> str | bytes:
        """The next whole message: str (text) or bytes (binary)."""
        deadline = time.monotonic() + timeout
        parts: list[bytes] = []
        kind = None
        while True:
            while len(self.buffer) < 2:
                self._fill(deadline)
            first, second = self.buffer[0], self.buffer[1]
            n, at = second & 0x7F, 2
            if n == 126:
                while len(self.buffer) < 4:
                    self._fill(deadline)
                n, at = struct.unpack_from("!H", self.buffer, 2)[0], 4
            elif n == 127:
                while len(self.buffer) < 10:
                    self._fill(deadline)
                n, at = struct.unpack_from("!Q", self.buffer, 2)[0], 10
            while len(self.buffer) < at + n:
                self._fill(deadline)
            payload = bytes(self.buffer[at:at + n])
            del self.buffer[:at + n]
            opcode = first & 0x0F
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else 1005
                raise Disconnected(f"the server closed the connection ({code} "
                                   f"{payload[2:].decode(errors='replace')})")
            if opcode in (0x1, 0x2):
                kind = opcode
            parts.append(payload)
            if first & 0x80:
                data = b"".join(parts)
                return data.decode() if kind == 0x1 else data

    def close(self) -> None:
        try:
            self._frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


class Batch:
    """One `/ws/batch` connection to the server of `client`."""

    def __init__(self, client: "Client", timeout: float = 10.0) -> None:
        parsed = urllib.parse.urlsplit(client.base_url)
        scheme = "wss" if parsed.scheme == "https" else "ws"
        self.url = f"{scheme}://{parsed.netloc}/ws/batch"
        self.timeout = timeout
        self.fields: list[str] | None = None
        self.action: JSONObject | None = None
        self.sessions: list[str] = []
        # The server's word on storing (docs/protocol.md, section 5b), as `Session.unstored`:
        # why it cannot store inputs now (its `unstored` notice), None while it can; and
        # `stored_ticks`, each slot's stored tick from the last notice (every input applied
        # at or before it is durably stored; inputs after it may be lost while `unstored`).
        self.unstored: str | None = None
        self.stored_ticks: list[int] = []
        # False: every step as a JSON text message (to compare; the answers are the same).
        self.binary_steps = True
        self._ids = itertools.count(1)
        try:
            self._socket = _BlockingSocket(self.url, timeout)
        except (OSError, TimeoutError) as error:
            raise Disconnected(f"cannot open {self.url}: {error}") from None

    def __enter__(self) -> "Batch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._socket.close()

    def _send(self, message: JSONObject) -> None:
        try:
            self._socket.send(json.dumps(message, separators=(",", ":"), allow_nan=False))
        except OSError as error:
            raise Disconnected(f"{self.url} closed: {error}") from None

    def _receive(self) -> str | bytes:
        try:
            return self._socket.recv(self.timeout)
        except TimeoutError:
            raise PlayfieldError(f"no answer from {self.url} within {self.timeout} s") from None
        except OSError as error:
            raise Disconnected(f"{self.url} closed: {error}") from None

    def _answer(self, request: int) -> Any:
        """The answer to request `request`: its binary reply or JSON message; an `error` is
        raised as `ServerError`."""
        while True:
            data = self._receive()
            if isinstance(data, bytes):
                reply = BatchReply(data)
                if reply.request == request:
                    return reply
                continue
            message = json.loads(data)
            if message.get("type") in ("stored", "unstored") and "id" not in message:
                self.stored_ticks = [int(t) for t in message.get("stored", [])]
                self.unstored = (str(message.get("reason", "the server cannot store inputs now"))
                                 if message["type"] == "unstored" else None)
                continue
            if message.get("id") != request:
                continue
            if message.get("type") == "error":
                raise error_from_json(message)
            return message

    def attach(self, info: SessionInfo | str, token: str | None = None,
               retry_for: float | None = None) -> int:
        """Adds the on-demand session `info` (a `SessionInfo`, or an id with `token`); returns
        its slot (its row in every reply).

        A session another server process holds (`held-elsewhere`), or a server whose database
        workers are all taken (`busy`), is asked for again after the wait the server names,
        for at most `retry_for` seconds (default: `timeout`); then the error is raised."""
        if isinstance(info, SessionInfo):
            session_id, token = info.id, token or info.token
        else:
            session_id = info
        deadline = time.monotonic() + (self.timeout if retry_for is None else retry_for)
        while True:
            request = next(self._ids)
            self._send({"type": "attach", "id": request, "session": session_id, "token": token})
            try:
                answer = self._answer(request)
                break
            except ServerError as error:
                if error.code not in RETRIED or error.retry_after_ms is None:
                    raise
                wait = error.retry_after_ms / 1000
                if time.monotonic() + wait > deadline:
                    raise
                time.sleep(wait)
        self.fields = answer["fields"]
        self.action = answer["action"]
        self.sessions.append(session_id)
        slot: int = answer["slot"]
        return slot

    def step(self, actions: Sequence[Action] | NDArray[np.floating[Any]] | None = None,
             count: int | Sequence[int] = 1, slots: Iterable[int] | None = None,
             inputs: Iterable[tuple[int, JSONObject]] | None = None) -> BatchReply:
        """Steps the sessions in `slots` (default: every one attached, in order): each gets
        its `inputs` (pairs of slot and input message), then its action (a row of `actions`,
        or None for none) and `count` ticks (one number, or one per slot). Returns the
        `BatchReply`.

        The plainest step (every session, an action for each, one count) goes as a binary
        message (docs/protocol.md "Batch stepping"): no JSON to write or read on either side;
        the server checks it as the text form (an action out of range, NaN included, is its
        `bad-field` error)."""
        request = next(self._ids) & 0xFFFFFFFF
        if (self.binary_steps and slots is None and not inputs and isinstance(count, int) and 0 <= count < 1 << 32
                and actions is not None
                and self.action is not None
                and (isinstance(actions, np.ndarray) or all(a is not None for a in actions))):
            rows = np.ascontiguousarray(actions, dtype="<f8")
            if rows.shape == (len(self.sessions), len(self.action["fields"])):
                header = struct.pack("<4sIII", STEP_MAGIC, request, len(self.sessions), count)
                try:
                    self._socket.send_binary(header + rows.tobytes())
                except OSError as error:
                    raise Disconnected(f"{self.url} closed: {error}") from None
                reply: BatchReply = self._answer(request)
                return reply
        message: JSONObject = {"type": "step", "id": request}
        if slots is not None:
            message["slots"] = [int(s) for s in slots]
        if isinstance(actions, np.ndarray):
            message["actions"] = actions.astype(np.float64).tolist()
        elif actions is not None:
            message["actions"] = [None if a is None else [float(v) for v in a] for a in actions]
        if isinstance(count, int):
            if count != 1:
                message["count"] = count
        else:
            message["count"] = [int(c) for c in count]
        if inputs:
            message["inputs"] = [[int(slot), input] for slot, input in inputs]
        self._send(message)
        answer: BatchReply = self._answer(request)
        return answer
