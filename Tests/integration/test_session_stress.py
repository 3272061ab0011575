"""Issue 31, one owner per session: many on-demand sessions driven at once, for a bounded
time, by several clients' threads: steps on their own sockets (with inputs), batch steps over
`/ws/batch`, spectators joining, deletes, and creates past the owner's bound, which park the
idle ones (and asking for a parked one brings it back). Each thread owns its sessions, so it
knows each one's tick exactly; at the end every session still there must be at that tick, its
last frame too, and its state must be the replay of its log (`/replay?tick=N`, from tick 0
where the whole log is kept). Deleted sessions must be gone.

Lost leases need a shared store and two processes (tests/test_cluster.py drives them); they are
not part of this run.

Briefly in `make test` (4 seconds); longer by hand, e.g. a minute:

    PLAYFIELD_STRESS_SECONDS=60 .venv/bin/python -m pytest -q Tests/integration/test_session_stress.py
"""
import contextlib
import json
import os
import random
import struct
import threading

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from deadline import Deadline, receive_until, wait_until
from helpers import request

SECONDS = float(os.environ.get("PLAYFIELD_STRESS_SECONDS", "4"))
THREADS = 4
# Fewer places than the threads' sessions: creates park the owner's idle ones.
LIMITS = ("--on-demand-sessions-per-client", "5")
# Every wait of one operation.
WAIT = 30


class Owned:
    """A session a thread created and alone drives: where it must be."""

    def __init__(self, made):
        self.id = made["id"]
        self.token = made["token"]
        self.tick = 0
        self.frame_tick = 0


class Driver:
    """One client thread: its sessions, its random choices, and what went wrong."""

    def __init__(self, server, number):
        self.server = server
        self.random = random.Random(31 + number)
        self.sessions = []
        self.deleted = []
        self.counts = {}

    def run(self, deadline):
        actions = [self.create, self.step, self.step, self.batch, self.batch, self.join,
                   self.ask, self.delete]
        while not deadline.passed:
            action = self.random.choice(actions)
            self.counts[action.__name__] = self.counts.get(action.__name__, 0) + 1
            action()

    def create(self):
        if len(self.sessions) >= 4:
            return
        status, _, made = request(self.server.url + "/api/sessions", "POST",
                                  {"kind": "holes", "clock": "on-demand",
                                   "seed": self.random.randrange(1000)})
        # NB: 429 while every one of the owner's sessions is in use (none to park).
        assert status in (201, 429), (status, made)
        if status == 201:
            self.sessions.append(Owned(made))

    def pick(self):
        return self.random.choice(self.sessions) if self.sessions else None

    @contextlib.contextmanager
    def socket(self, session, token=True):
        """The session's socket past its greeting (brought back if parked) and its hello, or
        (None, None) when it was closed before (parked meanwhile: asked again later) or could
        not come back (429: every place of its owner is in use, so it stays parked)."""
        query = f"?token={session.token}" if token else ""
        try:
            opened = connect(f"{self.server.ws_url}/ws/sessions/{session.id}{query}",
                             max_size=None, open_timeout=WAIT)
        except InvalidStatus as refused:
            assert refused.response.status_code == 429, refused
            yield None, None
            return
        with opened as ws:
            seen = []
            try:
                receive_until(ws, lambda m: m["type"] == "status", WAIT, "the greeting", seen)
            except ConnectionClosed:
                yield None, None
                return
            yield ws, next(m for m in seen if m["type"] == "hello")

    def step(self):
        session = self.pick()
        if session is None:
            return
        with self.socket(session) as (ws, hello):
            if ws is None:
                return
            assert hello["tick"] == session.tick, (session.id, hello["tick"], session.tick)
            count = self.random.randrange(1, 40)
            tilt = {"type": "tilt", "x": round(self.random.uniform(-1, 1), 2),
                    "y": round(self.random.uniform(-1, 1), 2)}
            ws.send(json.dumps(tilt))
            ws.send(json.dumps({"type": "step", "count": count, "id": "s"}))
            answer = receive_until(ws, lambda m: m.get("id") == "s", WAIT, "the step's frame")
            assert answer["type"] == "frame", answer
            session.tick += count
            assert answer["tick"] == session.tick, (session.id, answer["tick"], session.tick)
            session.frame_tick = answer["tick"]

    def batch(self):
        if not self.sessions:
            return
        chosen = self.random.sample(self.sessions, self.random.randrange(1, len(self.sessions) + 1))
        with connect(self.server.ws_url + "/ws/batch", max_size=None, open_timeout=WAIT) as ws:
            attached = []
            for number, session in enumerate(chosen):
                ws.send(json.dumps({"type": "attach", "id": number, "session": session.id,
                                    "token": session.token}))
                answer = json.loads(ws.recv(timeout=WAIT))
                if answer.get("error") in ("too-many", "parked", "busy"):
                    # NB: a parked session comes back charged to its owner: with every one of
                    # the owner's places in use (attached here), it stays parked; one parked
                    # between its lookup and its attach is not attached (asked again later), and
                    # one whose last inputs are not stored yet stays parked (`busy`).
                    continue
                assert answer["type"] == "attached", (session.id, answer)
                attached.append(session)
            if not attached:
                return
            for step_id in range(self.random.randrange(1, 4)):
                count = self.random.randrange(1, 30)
                actions = [[round(self.random.uniform(-1, 1), 2), 0] for _ in attached]
                ws.send(json.dumps({"type": "step", "id": step_id, "count": count,
                                    "actions": actions}))
                reply = ws.recv(timeout=WAIT)
                assert isinstance(reply, bytes), reply
                magic, got, n, width = struct.unpack_from("<4sIII", reply)
                assert (magic, got, n) == (b"PFB1", step_id, len(attached))
                ticks = struct.unpack_from(f"<{n}Q", reply, 16)
                # After the statuses comes each session's stored watermark (n u64s).
                at = 16 + 8 * n + 8 * n * width
                statuses = list(reply[at:at + n])
                assert statuses == [0] * n, statuses
                assert len(reply) == at + n + 8 * n, len(reply)
                for session, tick in zip(attached, ticks):
                    session.tick += count
                    assert tick == session.tick, (session.id, tick, session.tick)

    def join(self):
        session = self.pick()
        if session is None:
            return
        with self.socket(session, token=False) as (ws, hello):
            if ws is None:
                return
            assert hello["role"] == "spectator"
            assert hello["tick"] == session.tick, (session.id, hello["tick"], session.tick)

    def ask(self):
        """Asks for a session (brought back if parked): its listing reaches its tick."""
        session = self.pick()
        if session is None:
            return
        # NB: None when it stays parked, every place of its owner in use (429).
        wait_until(lambda: tick_of(self.server, session) in (None, session.tick), WAIT,
                   f"session {session.id} listed at tick {session.tick}")

    def delete(self):
        if len(self.sessions) < 2:
            return
        session = self.sessions.pop(self.random.randrange(len(self.sessions)))
        status, _, body = request(f"{self.server.url}/api/sessions/{session.id}", "DELETE",
                                  headers={"Authorization": f"Bearer {session.token}"})
        assert status == 204, (session.id, status, body)
        self.deleted.append(session)


def tick_of(server, session):
    """The session's listed tick, or None when it could not come back from parking now (429:
    it counts for its owner, whose places are all in use)."""
    status, _, body = request(f"{server.url}/api/sessions/{session.id}")
    assert status in (200, 429), (session.id, status, body)
    return body["tick"] if status == 200 else None


def test_many_sessions_driven_at_once_end_where_their_logs_say(start_playfield):
    server = start_playfield(*LIMITS)
    drivers = [Driver(server, number) for number in range(THREADS)]
    failures = []
    deadline = Deadline(SECONDS, "the stress run")

    def drive(driver):
        try:
            driver.run(deadline)
        except BaseException as error:  # noqa: BLE001 (reported below, with the thread's)
            failures.append(error)

    threads = [threading.Thread(target=drive, args=(driver,)) for driver in drivers]
    for thread in threads:
        thread.start()
    for thread in threads:
        # NB: each operation's waits are bounded (WAIT); so is the whole run.
        thread.join(SECONDS + 4 * WAIT)
        assert not thread.is_alive(), "a driver hung"
    if failures:
        raise failures[0]
    assert server.alive(), server.read_log()

    sessions = [s for driver in drivers for s in driver.sessions]
    deleted = [s for driver in drivers for s in driver.deleted]
    stepped = [s for s in sessions if s.tick > 0]
    assert stepped, "no session was stepped"
    for session in sessions:
        wait_until(lambda: tick_of(server, session) == session.tick, WAIT,
                   f"session {session.id} listed at tick {session.tick}")
        status, _, live = request(f"{server.url}/api/sessions/{session.id}/state")
        assert status == 200, live
        assert live["tick"] == session.tick, (session.id, live, session.tick)
        if session.frame_tick:
            assert session.frame_tick <= session.tick
        if session.tick == 0:
            continue
        replay = wait_until(lambda: replayed(server, session), WAIT,
                            f"the replay of {session.id} at tick {session.tick}")
        assert replay["stateHash"] == live["stateHash"], (session.id, replay, live)
        # Where the whole log is kept, from tick 0 too.
        whole = request(
            f"{server.url}/api/sessions/{session.id}/replay?tick={session.tick}&from=start")
        if whole[0] == 200:
            assert whole[2]["stateHash"] == live["stateHash"], (session.id, whole[2], live)
        else:
            assert whole[0] == 400 and whole[2].get("field") == "from", whole
    for session in deleted:
        assert request(f"{server.url}/api/sessions/{session.id}")[0] == 404, session.id
    totals = {}
    for driver in drivers:
        for name, count in driver.counts.items():
            totals[name] = totals.get(name, 0) + count
    log = server.read_log()
    parked, unparked = log.count(" parked: "), log.count(" unparked from tick ")
    print("stress:", totals, "sessions", len(sessions), "deleted", len(deleted), "parked", parked,
          "unparked", unparked)
    # NB: the run parks and brings back sessions, else it tests less than it says.
    assert parked > 0 and unparked > 0, log[-2000:]


def replayed(server, session):
    """The replay state at the session's tick, once the store has written its log (503 while
    the replay workers are busy)."""
    status, _, body = request(
        f"{server.url}/api/sessions/{session.id}/replay?tick={session.tick}")
    if status == 200 and body.get("tick", session.tick) == session.tick:
        return body
    assert status in (200, 400, 404, 503), (status, body)
    return None
