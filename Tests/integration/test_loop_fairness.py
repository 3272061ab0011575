"""Issue 35, items 4, 5 and 7: an event loop's reading is charged to each connection's client
(a flood of small valid messages from one address costs that address's connections, not the
frames of the loop's other tenants), a batch step carries a bounded number of inputs, and every
hello is charged to its joiner by its bytes.

Every 127.0.0.x is its own client. No test asserts a rate or a time: each wait has a
whole-wait deadline, and what is asserted is a count and an order."""
import base64
import json
import os
import socket
import threading

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from deadline import Deadline
from helpers import create_session, request
from test_idle_on_demand import attach, create_on_demand


def open_from(server, source, path):
    """A raw WebSocket connection to `path` from `source`, past its handshake."""
    sock = socket.create_connection((server.host, server.port), timeout=10,
                                    source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def text_frame(payload):
    """A client text frame (masked, with a key of zeros: the payload as it is)."""
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload), 0, 0, 0, 0]) + payload


class Flood:
    """Connections from one address that each send small valid messages as fast as the server
    takes them, and read (and drop) every answer, until stopped."""

    def __init__(self, server, source, path, connections, message):
        self.stop = threading.Event()
        self.blob = text_frame(message) * 4096
        self.sockets = [open_from(server, source, path) for _ in range(connections)]
        self.threads = []
        for sock in self.sockets:
            sock.settimeout(0.5)
            self.threads.append(threading.Thread(target=self._send, args=(sock,), daemon=True))
            self.threads.append(threading.Thread(target=self._read, args=(sock,), daemon=True))
        for thread in self.threads:
            thread.start()

    def _send(self, sock):
        while not self.stop.is_set():
            try:
                sock.sendall(self.blob)
            except socket.timeout:
                continue
            except OSError:
                return

    def _read(self, sock):
        while not self.stop.is_set():
            try:
                if not sock.recv(1 << 16):
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def close(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def test_a_flooding_address_leaves_its_loop_neighbours_their_frames(start_playfield):
    # One event loop: the flood and the bystander share it.
    server = start_playfield("--event-loops", "1")
    watched = create_session(server, "bouncing-balls", {"balls": 3})
    flooded = create_session(server, "bouncing-balls", {"balls": 3})
    path = f"/ws/sessions/{flooded['id']}?token={flooded['token']}"
    flood = Flood(server, "127.0.0.2", path, 8, b'{"type":"ping"}')
    try:
        url = f"{server.ws_url}/ws/sessions/{watched['id']}?token={watched['token']}"
        with connect(url, open_timeout=20) as ws:
            ticks = []
            deadline = Deadline(20, "120 frames of the watched session during the flood")
            try:
                while len(ticks) < 120:
                    message = json.loads(ws.recv(timeout=deadline.left()))
                    if message["type"] == "frame":
                        ticks.append(message["tick"])
            except TimeoutError:
                raise AssertionError(f"only {len(ticks)} frames in 20 s during the flood") from None
            assert ticks == sorted(set(ticks)), "frames in order, none twice"
    finally:
        flood.close()


def batch_error(ws, message):
    """Sends one batch message; returns the error that answers it."""
    ws.send(json.dumps(message))
    reply = ws.recv(timeout=20)
    assert isinstance(reply, str), "an error, not a step's reply"
    answer = json.loads(reply)
    assert answer["type"] == "error", answer
    return answer


def test_a_batch_step_carries_a_bounded_number_of_inputs(start_playfield):
    server = start_playfield("--batch-inputs-per-message", "6", "--batch-inputs-per-session", "4")
    sessions = []
    for _ in range(2):
        status, _, body = create_on_demand(server)
        assert status == 201, body
        sessions.append(body)
    reset = {"type": "reset"}
    with connect(f"{server.ws_url}/ws/batch") as ws:
        attach(ws, *sessions)
        # More than the message's bound: refused whole, before any input is checked.
        error = batch_error(ws, {"type": "step", "id": 1,
                                 "inputs": [[0, {"type": "no such input"}]] * 7})
        assert (error["error"], error["field"], error["id"]) == ("too-many-inputs", "inputs", 1)
        assert "--batch-inputs-per-message" in error["message"], error
        # More than one session's bound.
        error = batch_error(ws, {"type": "step", "id": 2, "inputs": [[1, reset]] * 5})
        assert (error["error"], error["field"]) == ("too-many-inputs", "inputs"), error
        assert "--batch-inputs-per-session" in error["message"], error
        # Within both: stepped.
        ws.send(json.dumps({"type": "step", "id": 3, "inputs": [[0, reset]] * 3 + [[1, reset]] * 3}))
        reply = ws.recv(timeout=20)
        assert isinstance(reply, bytes) and reply[:4] == b"PFB1", reply
    # Nothing of the refused steps was logged: each session logged the three resets only.
    for session in sessions:
        status, _, page = request(
            f"{server.url}/api/sessions/{session['id']}/inputs?token={session['token']}")
        assert status == 200, page
        assert [entry["input"]["type"] for entry in page["inputs"]] == ["reset"] * 3, page


def test_a_batch_message_over_its_bound_closes_the_connection_unread(start_playfield):
    server = start_playfield("--batch-message-bytes", "4096")
    status, _, session = create_on_demand(server)
    assert status == 201, session
    with connect(f"{server.ws_url}/ws/batch") as ws:
        attach(ws, session)
        # Valid, and within the input bounds, but over the message bound.
        ws.send(json.dumps({"type": "step", "inputs": [[0, {"type": "reset"}]] * 10,
                            "pad": "x" * 5000}))
        try:
            while True:
                ws.recv(timeout=20)
        except ConnectionClosed:
            pass
        assert ws.close_code == 1009, (ws.close_code, ws.close_reason)
    status, _, page = request(
        f"{server.url}/api/sessions/{session['id']}/inputs?token={session['token']}")
    assert status == 200 and page["inputs"] == [], page


def test_a_session_message_over_its_bound_closes_the_connection_unread(start_playfield):
    """A session socket's message is parsed whole on its event loop: past
    `--session-message-bytes` (64 KiB) it is refused by its frame's header. Before, 1 MiB was
    read, and an object of 80,000 keys cost 72 ms of the loop."""
    server = start_playfield()
    session = create_session(server, "maze")
    with connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                 max_size=None) as ws:
        # Just under the bound: answered.
        ws.send(json.dumps({"type": "ping", "id": "small", "t": "x" * (60 << 10)}))
        deadline = Deadline(20)
        while (message := json.loads(ws.recv(timeout=deadline.left())))["type"] != "pong":
            pass
        assert message["id"] == "small", message
        ws.send(json.dumps({"type": "ping", "id": "big", "t": "x" * (70 << 10)}))
        pongs = []
        try:
            while True:
                message = json.loads(ws.recv(timeout=deadline.left()))
                if message["type"] == "pong":
                    pongs.append(message["id"])
                    break
        except ConnectionClosed:
            pass
        assert ws.close_code == 1009 and pongs == [], (ws.close_code, ws.close_reason, pongs)


def test_a_big_batch_message_is_parsed_as_a_job_of_its_client(start_playfield):
    server = start_playfield("--batch-job-bytes", "2048")
    status, _, session = create_on_demand(server)
    assert status == 201, session
    reset = {"type": "reset"}
    with connect(f"{server.ws_url}/ws/batch") as ws:
        attach(ws, session)
        # A small step is handled as it arrives.
        ws.send(json.dumps({"type": "step", "id": 1, "inputs": [[0, reset]]}))
        reply = ws.recv(timeout=20)
        assert isinstance(reply, bytes) and reply[:4] == b"PFB1", reply
        # A big one (padded past --batch-job-bytes with JSON's whitespace) is a job; a message
        # sent right behind it waits for it, then is answered.
        big = json.dumps({"type": "step", "id": 2, "inputs": [[0, reset]] * 2}) + " " * 4000
        ws.send(big)
        ws.send(json.dumps({"type": "nonsense", "id": 3}))
        replies = [ws.recv(timeout=20), ws.recv(timeout=20)]
        steps = [r for r in replies if isinstance(r, bytes)]
        errors = [json.loads(r) for r in replies if isinstance(r, str)]
        assert len(steps) == 1 and steps[0][:4] == b"PFB1", replies
        assert [(e["error"], e["id"]) for e in errors] == [("unknown-type", 3)], errors
    status, _, health = request(f"{server.url}/healthz")
    assert status == 200, health
    # Only the big message was a job of its own (the steps are jobs labelled batch).
    submitted = health["stepJobs"]["submitted"]
    assert submitted.get("batch-message") == 1, submitted
    assert submitted.get("batch") == 2, submitted
    status, _, page = request(
        f"{server.url}/api/sessions/{session['id']}/inputs?token={session['token']}")
    assert status == 200, page
    assert [entry["input"]["type"] for entry in page["inputs"]] == ["reset"] * 3, page
