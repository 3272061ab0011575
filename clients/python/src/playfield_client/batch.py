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
import itertools
import json
import struct
import urllib.parse

import numpy as np
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .errors import Disconnected, PlayfieldError
from .messages import error_from_json

MAGIC = b"PFB1"
HEADER = struct.Struct("<4sIII")
# The reply's status per session.
STEPPED, DELETED = 0, 1


class BatchReply:
    """One step's answer: `ticks` (n uint64), `values` (n x len(fields) float64, rows in the
    request's order) and `status` (n uint8: 0 stepped, 1 deleted). The arrays are read-only
    views of the received message."""

    __slots__ = ("request", "ticks", "values", "status")

    def __init__(self, data):
        magic, self.request, n, width = HEADER.unpack_from(data)
        if magic != MAGIC:
            raise PlayfieldError(f"not a batch reply: it starts {magic!r}")
        offset = HEADER.size
        self.ticks = np.frombuffer(data, dtype="<u8", count=n, offset=offset)
        offset += 8 * n
        self.values = np.frombuffer(data, dtype="<f8", count=n * width, offset=offset).reshape(
            n, width)
        offset += 8 * n * width
        self.status = np.frombuffer(data, dtype=np.uint8, count=n, offset=offset)


class Batch:
    """One `/ws/batch` connection to the server of `client`."""

    def __init__(self, client, timeout=10.0):
        parsed = urllib.parse.urlsplit(client.base_url)
        scheme = "wss" if parsed.scheme == "https" else "ws"
        self.url = f"{scheme}://{parsed.netloc}/ws/batch"
        self.timeout = timeout
        self.fields = None
        self.action = None
        self.sessions = []
        self._ids = itertools.count(1)
        try:
            # NB: entered at once (websockets 17 warns about a connection used otherwise);
            # `close` leaves it.
            self._socket = connect(self.url, open_timeout=timeout, compression=None,
                                   max_size=None, close_timeout=timeout).__enter__()
        except (OSError, TimeoutError) as error:
            raise Disconnected(f"cannot open {self.url}: {error}") from None
        except Exception as error:  # websockets' handshake errors
            raise Disconnected(f"cannot open {self.url}: {error}") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._socket.__exit__(None, None, None)

    def _send(self, message):
        try:
            self._socket.send(json.dumps(message, separators=(",", ":"), allow_nan=False))
        except ConnectionClosed as error:
            raise Disconnected(f"{self.url} closed: {error}") from None

    def _receive(self):
        try:
            return self._socket.recv(timeout=self.timeout)
        except TimeoutError:
            raise PlayfieldError(f"no answer from {self.url} within {self.timeout} s") from None
        except ConnectionClosed as error:
            raise Disconnected(f"{self.url} closed: {error}") from None

    def _answer(self, request):
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
            if message.get("id") != request:
                continue
            if message.get("type") == "error":
                raise error_from_json(message)
            return message

    def attach(self, info, token=None):
        """Adds the on-demand session `info` (a `SessionInfo`, or an id with `token`); returns
        its slot (its row in every reply)."""
        session_id = getattr(info, "id", info)
        token = token or info.token
        request = next(self._ids)
        self._send({"type": "attach", "id": request, "session": session_id, "token": token})
        answer = self._answer(request)
        self.fields = answer["fields"]
        self.action = answer["action"]
        self.sessions.append(session_id)
        return answer["slot"]

    def step(self, actions=None, count=1, slots=None, inputs=None):
        """Steps the sessions in `slots` (default: every one attached, in order): each gets
        its `inputs` (pairs of slot and input message), then its action (a row of `actions`,
        or None for none) and `count` ticks (one number, or one per slot). Returns the
        `BatchReply`."""
        request = next(self._ids)
        message = {"type": "step", "id": request}
        if slots is not None:
            message["slots"] = [int(s) for s in slots]
        if actions is not None:
            message["actions"] = [None if a is None else [float(v) for v in a] for a in actions]
        if isinstance(count, int):
            if count != 1:
                message["count"] = count
        else:
            message["count"] = [int(c) for c in count]
        if inputs:
            message["inputs"] = [[int(slot), input] for slot, input in inputs]
        self._send(message)
        return self._answer(request)
