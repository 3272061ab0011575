"""A `/ws/batch` client that sends step after step but never reads a reply. The replies must not
pile up in the server's memory: once 256 KiB of them wait behind a full socket, the server stops
reading that connection (so its next steps wait in the kernel's buffers, and then in the
client), while other clients' batches go on. When the client reads again, every message it
sent has exactly one answer: a reply, or `busy` for a step sent before the last reply (one
step at a time per connection)."""
import json
import select
import struct
import threading
import time

import pytest
from websockets.sync.client import connect

from bare_websocket import BareWebSocket
from deadline import Deadline, wait_until
from helpers import request
from test_idle_on_demand import batch_step

PADDING = 1024  # spaces in each step message: more input per answer
HARD_CAP = 256 << 20  # bytes sent without the server ever pushing back: no bound
CONNECTIONS = 128  # silent connections of one address
BUDGET = 1 << 20  # --queued-bytes-per-address for them
GROWTH = 12 << 20  # what they may grow the server by (3 MiB seen; main's binary: 26 MiB)


def vm_rss(server):
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) << 10
    raise AssertionError("no VmRSS")


def on_demand_holes(server):
    status, _, session = request(server.url + "/api/sessions", "POST",
                                 {"kind": "holes", "seed": 5, "clock": "on-demand"})
    assert status == 201, session
    return session


class SilentBatch:
    """A `/ws/batch` connection (Tests/bare_websocket.py) whose replies are not read until
    `drain`."""

    def __init__(self, server):
        self.bare = BareWebSocket(server.url, "/ws/batch", timeout=20, receive_buffer=4096)
        assert self.bare.handshake() == 101, self.bare.head
        self.sock = self.bare.socket
        # NB: blocking from here on: one thread sends while another reads (with `select`).
        self.sock.settimeout(None)
        self.sent_frames = 0
        self.sent_bytes = 0
        self.stop = threading.Event()

    def flood(self, messages):
        """Sends `messages` (texts) one frame at a time until told to stop (a thread)."""
        for text in messages:
            if self.stop.is_set():
                return
            data = BareWebSocket.text_frame(text)
            self.sock.sendall(data)
            self.sent_frames += 1
            self.sent_bytes += len(data)

    def drain(self, deadline, done):
        """Reads every answer, parsed, until `done(answers)`; pings are skipped."""
        answers = []
        while not done(answers):
            if (taken := self.bare.buffered_frame()) is not None:
                opcode, payload = taken
                if opcode == 1:
                    answers.append(json.loads(payload))
                elif opcode == 2:
                    answers.append({"type": "reply", "id": struct.unpack_from("<I", payload, 4)[0]})
                else:
                    assert opcode in (9, 10), f"opcode {opcode}: {payload[:80]!r}"
                continue
            readable, _, _ = select.select([self.sock], [], [], min(0.5, deadline.left()))
            if not readable:
                continue
            chunk = self.sock.recv(1 << 16)
            assert chunk, "the server closed the connection"
            self.bare.buffer += chunk
        return answers


def test_a_batch_client_that_never_reads_is_paused_not_buffered(start_playfield):
    server = start_playfield()
    mine, theirs = on_demand_holes(server), on_demand_holes(server)
    silent = SilentBatch(server)
    attach = json.dumps({"type": "attach", "id": 0, "session": mine["id"], "token": mine["token"]})
    pad = " " * PADDING
    steps = (f'{{"type": "step", "id": {n}, "count": 1}}{pad}' for n in range(1, 1 << 30))
    before = vm_rss(server)
    sender = threading.Thread(target=silent.flood, args=(_chain([attach], steps),), daemon=True)
    sender.start()

    # The server pushes back: the client's sends stop going through (its buffers and the
    # server's are full, and the server reads no more) long before the hard cap.
    deadline = Deadline(120, "the server to stop reading the silent client")
    last, still_since = -1, time.monotonic()
    while time.monotonic() - still_since < 3:
        assert silent.sent_bytes < HARD_CAP, "the server never stopped reading a client that never reads"
        assert sender.is_alive(), "the flood ended: the server closed the connection?"
        if silent.sent_bytes != last:
            last, still_since = silent.sent_bytes, time.monotonic()
        time.sleep(min(0.2, deadline.left()))
    silent.stop.set()
    grown = vm_rss(server) - before
    assert grown < 64 << 20, f"the server grew {grown >> 20} MiB for one client that never reads"

    # Another client's batch goes on meanwhile.
    with connect(server.ws_url + "/ws/batch", max_size=None) as other:
        other.send(json.dumps({"type": "attach", "id": 0, "session": theirs["id"],
                               "token": theirs["token"]}))
        assert json.loads(other.recv(timeout=20))["type"] == "attached"
        for n in range(1, 21):
            assert batch_step(other, n, 3) == ([3 * n], [0])

    # Reading again: every message sent has one answer, in order, nothing lost.
    deadline = Deadline(120, "the silent client's backlog")
    answers = silent.drain(deadline, done=lambda answers: not sender.is_alive()
                           and len(answers) == silent.sent_frames)
    assert answers[0]["type"] == "attached"
    # NB: a `busy` goes out at once, before the reply to the step it found under way; but the
    # replies come in the order of their steps (the next step starts only once the last
    # reply is queued).
    ids = [a["id"] for a in answers[1:]]
    assert sorted(ids) == list(range(1, silent.sent_frames)), "one answer per message"
    replied = [a["id"] for a in answers[1:] if a["type"] == "reply"]
    assert replied == sorted(replied), "replies out of the order of their steps"
    kinds = {a["type"] if a["type"] == "reply" else a["error"] for a in answers[1:]}
    assert kinds <= {"reply", "busy"} and "reply" in kinds, kinds
    stepped = sum(a["type"] == "reply" for a in answers[1:])
    # NB: listings learn the tick on the game loop's next tick.
    wait_until(lambda: request(f"{server.url}/api/sessions/{mine['id']}")[2]["tick"] >= stepped, 10,
               "the session's tick published")
    assert request(f"{server.url}/api/sessions/{mine['id']}")[2]["tick"] == stepped
    silent.sock.close()
    assert server.alive()


def _chain(*iterables):
    for iterable in iterables:
        yield from iterable


@pytest.mark.slow
def test_silent_connections_of_one_address_share_one_bound(start_playfield):
    """Each connection's own bound, times the connections an address may hold, is no bound
    for the address: past `--queued-bytes-per-address` its connections with a backlog are no
    longer read, however many there are."""
    server = start_playfield("--queued-bytes-per-address", str(BUDGET))
    session = on_demand_holes(server)
    attach = BareWebSocket.text_frame(json.dumps({"type": "attach", "id": 0, "session": session["id"],
                                                  "token": session["token"]}))
    pad = " " * PADDING
    flood = b"".join(BareWebSocket.text_frame(f'{{"type": "step", "id": {n}, "count": 1}}{pad}')
                     for n in range(1, 4000))
    silent = [SilentBatch(server) for _ in range(CONNECTIONS)]
    before = vm_rss(server)
    left = []  # NB: the kernel's buffers may take it all; the server's memory is what counts
    for connection in silent:
        connection.sock.sendall(attach)
        connection.sock.setblocking(False)
        left.append(flood)
    deadline = Deadline(120, "the server to stop reading the silent connections")
    still_since = time.monotonic()
    while time.monotonic() - still_since < 3 and any(left):
        deadline.left()
        for i, connection in enumerate(silent):
            try:
                sent = connection.sock.send(left[i][:1 << 16])
            except BlockingIOError:
                continue
            left[i] = left[i][sent:]
            still_since = time.monotonic()
        time.sleep(0.01)
    grown = vm_rss(server) - before
    assert grown < GROWTH, f"{CONNECTIONS} silent connections of one address grew the server {grown >> 20} MiB"
    for connection in silent:
        connection.sock.close()
    assert server.alive()
