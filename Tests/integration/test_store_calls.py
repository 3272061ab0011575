"""Store calls off the event loops (issue 31, item 3): every handler that reads or writes the
store runs on a store worker, so a stalled PostgreSQL holds up no event loop; a batch attach of
a session another process holds says so (`held-elsewhere`, with a retry hint) instead of
`unknown-session`; and clients are told the holder's shard, nothing of its host, pid or port
(issue 35, item 7).

Two processes (shards a and b, no nginx) on a PostgreSQL of their own in a temp folder, on free
ports; skipped, saying why, only when PostgreSQL's binaries are missing (`make test-deps`).
"""
import json
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import threading
import time
import types

import pytest
from playfield_client import Client, ServerError
from playfield_client.batch import Batch
from websockets.sync.client import connect

from deadline import Deadline, receive_until, wait_until
from helpers import create_session, request
from launcher import Playfield
from test_cluster import postgres_processes

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import cluster as clusters  # noqa: E402  (scripts/cluster.py)


pytestmark = pytest.mark.timeout(300)

CELLS = ["#..#", "....", "#..#"]


@pytest.fixture(scope="module")
def shared():
    """PostgreSQL and two processes on it, a and b."""
    try:
        clusters.Postgres.binaries()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-store-calls-"))
    os.chmod(directory, 0o755)
    (directory / "pg").mkdir()
    postgres = clusters.Postgres(directory / "pg")
    made = types.SimpleNamespace(postgres=postgres, directory=directory, servers={})
    try:
        for shard in "ab":
            made.servers[shard] = Playfield("--shard", shard, "--event-loops", "2",
                                            database=postgres.url)
        yield made
    finally:
        for server in made.servers.values():
            server.stop()
        try:
            signal_all(postgres_processes(made), signal.SIGCONT)  # NB: a test that failed frozen
            postgres.stop()
        except Exception:  # NB: best effort; the folder goes anyway
            pass
        shutil.rmtree(directory, ignore_errors=True)


def on_demand_holes(server):
    status, _, body = request(server.url + "/api/sessions", "POST",
                              {"kind": "holes", "clock": "on-demand"})
    assert status == 201, body
    return body


def signal_all(pids, sig):
    """Sends `sig` to each of `pids` still running (a backend may have just ended)."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def attach_message(ws, session, request_id):
    ws.send(json.dumps({"type": "attach", "id": request_id, "session": session["id"],
                        "token": session["token"]}))
    seen = []
    receive_until(ws, lambda m: m.get("id") == request_id, 60, "the attach's answer", seen)
    return seen[-1]


def test_a_session_held_elsewhere_names_the_shard_only_and_the_batch_client_waits_for_it(shared):
    a, b = shared.servers["a"], shared.servers["b"]
    held = on_demand_holes(b)
    assert held["id"].startswith("b.")

    status, headers, body = request(f"{a.url}/api/sessions/{held['id']}")
    assert status == 503 and headers["Retry-After"] == "1", body
    assert headers["Playfield-Held-By"] == "b", "the holder's shard, and nothing else"
    assert "(shard b)" in body["error"]
    for leak in ("/", str(b.port), str(b.process.pid), os.uname().nodename):
        assert leak not in headers["Playfield-Held-By"], headers["Playfield-Held-By"]

    with connect(f"{a.ws_url}/ws/batch") as ws:
        answer = attach_message(ws, held, 1)
    assert answer["type"] == "error" and answer["error"] == "held-elsewhere", answer
    assert answer["retryAfterMs"] == 1000 and answer["field"] == "session", answer
    assert "shard b" in answer["message"] and str(b.port) not in answer["message"]

    # The Python client retries within its bound: it gives up after it...
    client = Client(a.url)
    with Batch(client) as batch:
        started = time.monotonic()
        with pytest.raises(ServerError) as caught:
            batch.attach(held["id"], held["token"], retry_for=1.5)
        assert caught.value.code == "held-elsewhere" and caught.value.retry_after_ms == 1000
        assert 1.0 <= time.monotonic() - started < 30
    # ...and attaches once the holder lets the session go (b stops: its leases are given up).
    with Batch(client) as batch:
        threading.Timer(1.5, lambda: b.stop()).start()
        assert batch.attach(held["id"], held["token"], retry_for=60) == 0
        assert batch.step(actions=[[0.5, 0.0]]).status.tolist() == [0]
    shared.servers["b"] = Playfield("--shard", "b", "--event-loops", "2",
                                    database=shared.postgres.url)


def test_a_frozen_database_holds_up_no_event_loop(shared):
    """PostgreSQL frozen (SIGSTOP): a maze save, a session create, the high scores and a batch
    attach of a session that must be brought back from the store wait on store workers (or are
    refused with 503 and Retry-After, or `busy` with retryAfterMs), while the same process
    serves a static file, its health and a live session's frames; after SIGCONT everything
    completes. A second's wait for a worker (`--store-call-wait 1`) makes the calls behind the
    held workers (two, and the one for cheap calls) refused while the database stays frozen."""
    shared.servers["a"].stop()
    a = shared.servers["a"] = Playfield("--shard", "a", "--event-loops", "2", "--store-call-wait",
                                        "1", database=shared.postgres.url)
    b = shared.servers["b"]
    # A session b makes and then lets go of: asking a for it brings it back from the store.
    away = on_demand_holes(b)
    b.stop()
    live = create_session(a, "bouncing-balls")
    results = {}

    def call(name, *arguments, **keywords):
        results[name] = request(*arguments, timeout=60, **keywords)

    def attach():
        with connect(f"{a.ws_url}/ws/batch", open_timeout=60) as ws:
            answers = [attach_message(ws, away, 1)]
            while answers[-1].get("error") == "busy":
                time.sleep(answers[-1]["retryAfterMs"] / 1000)
                answers.append(attach_message(ws, away, len(answers) + 1))
            results["attach"] = answers

    calls = [
        threading.Thread(target=call, args=("maze", a.url + "/api/mazes/frozen", "PUT"),
                         kwargs={"body": {"cells": CELLS}}),
        # NB: more calls than the three store workers (two, and one for cheap calls) and the
        # attach can hold, whatever order they come in: with four, the attach could take the
        # one waiting place, and no HTTP call waited (a loaded CI run, wave 4 session 15).
        threading.Thread(target=call, args=("maze2", a.url + "/api/mazes/frozen2", "PUT"),
                         kwargs={"body": {"cells": CELLS}}),
        threading.Thread(target=call, args=("create", a.url + "/api/sessions", "POST"),
                         kwargs={"body": {"kind": "bouncing-balls"}}),
        threading.Thread(target=call, args=("scores", a.url + "/api/highscores")),
        threading.Thread(target=call, args=("enter", a.url + "/api/highscores", "POST"),
                         kwargs={"body": {"session": live["id"], "token": live["token"],
                                          "name": "Frost"}}),
        threading.Thread(target=attach),
    ]
    with connect(f"{a.ws_url}/ws/sessions/{live['id']}") as ws:
        receive_until(ws, lambda m: m["type"] == "frame", 10, "a frame")
        frozen = postgres_processes(shared)
        signal_all(frozen, signal.SIGSTOP)
        try:
            for thread in calls:
                thread.start()
            time.sleep(0.3)
            # NB: within seconds of the freeze, before the live session's lease nears its end.
            seen = []
            receive_until(ws, lambda m: m["type"] == "frame" and len(seen) >= 10, 3,
                          "the live session's frames while the store calls wait", seen)
            ticks = [m["tick"] for m in seen if m["type"] == "frame"]
            assert ticks == sorted(ticks) and len(set(ticks)) >= 5, ticks
            status, _, _ = request(a.url + "/css/playfield.css", timeout=3)
            assert status == 200, "a static file while the store calls wait"
            status, _, health = request(a.url + "/healthz", timeout=3)
            assert status == 200, "/healthz waits for no database connection"
            waiting = [thread for thread in calls if thread.is_alive()]
            assert len(waiting) >= 3, "the store calls wait for the database"
            # Those behind the held workers are refused after a second, the database frozen.
            wait_until(lambda: any(answer[0] == 503 for answer in list(results.values())
                                   if isinstance(answer, tuple)), 15,
                       "a store call refused with 503 while the database is frozen")
        finally:
            signal_all(frozen, signal.SIGCONT)
    deadline = Deadline(90, "the store calls finishing after SIGCONT")
    for thread in calls:
        thread.join(deadline.left())
        assert not thread.is_alive(), "a store call still waits after SIGCONT"

    def done(name, *expected):
        """The answer, or (after a 503 with Retry-After) the answer to asking again."""
        status, headers, body = results[name]
        assert status in (*expected, 503), (name, status, body)
        return status == 503 and headers.get("Retry-After") is not None
    again = {name: done(name, *expected)
             for name, expected in (("maze", (200,)), ("maze2", (200,)), ("create", (201,)),
                                    ("scores", (200,)), ("enter", (409,)))}
    assert any(again.values()), "some calls were refused, with Retry-After, while frozen"
    if again["maze"]:
        assert request(a.url + "/api/mazes/frozen", "PUT", {"cells": CELLS})[0] == 200
    assert request(a.url + "/api/mazes/frozen")[2]["cells"] == CELLS, "the maze was saved"
    if again["create"]:
        assert request(a.url + "/api/sessions", "POST", {"kind": "bouncing-balls"})[0] == 201
    assert request(a.url + "/api/highscores")[0] == 200
    answers = results["attach"]
    assert all(m["error"] == "busy" and m["retryAfterMs"] >= 1000 for m in answers[:-1]), answers
    assert answers[-1]["type"] == "attached" and answers[-1]["slot"] == 0, answers
    wait_until(lambda: request(a.url + "/healthz")[2]["status"] == "ok", 60, "a healthy again")
    shared.servers["b"] = Playfield("--shard", "b", "--event-loops", "2",
                                    database=shared.postgres.url)


def test_a_replay_waiting_for_a_frozen_database_holds_up_no_other_replay(shared):
    """A replay reads its log a chunk at a time as it plays; with PostgreSQL frozen (SIGSTOP)
    the next chunk's read waits on a store worker, not on the thread that steps every replay:
    another replay (its whole log in hand) plays on meanwhile, and the waiting one goes on after
    SIGCONT to the live session's exact last frame. (Before, the read ran on the stepping
    thread, and every replay of the process stood still until the database came back.)"""
    c = Playfield("--shard", "c", "--event-loops", "2", "--replay-chunk-inputs", "4",
                  database=shared.postgres.url)
    try:
        maze = create_session(c, "maze")
        with connect(f"{c.ws_url}/ws/sessions/{maze['id']}?token={maze['token']}") as ws:
            for index in range(120):
                ws.send(json.dumps({"type": "tilt", "x": (index % 7 - 3) / 3, "y": (index % 5 - 2) / 2}))
                if index % 4 == 3:
                    time.sleep(0.02)
            ws.send(json.dumps({"type": "flush", "id": "all"}))
            stored = receive_until(ws, lambda m: m.get("id") == "all", 30, "the tilts stored")
            assert stored["type"] == "stored" and stored["inputs"] == 120, stored
            ws.send(json.dumps({"type": "stop"}))
            receive_until(ws, lambda m: m["type"] == "status" and m["running"] is False, 20,
                          "the stopped maze")
        with connect(f"{c.ws_url}/ws/sessions/{maze['id']}") as ws:
            live = receive_until(ws, lambda m: m["type"] == "frame", 10, "the maze's last frame")
        balls = create_session(c, "bouncing-balls")
        with connect(f"{c.ws_url}/ws/sessions/{balls['id']}?token={balls['token']}") as ws:
            receive_until(ws, lambda m: m["type"] == "frame" and m["tick"] >= 600, 60,
                          "ten seconds of balls")
            ws.send(json.dumps({"type": "stop"}))
            receive_until(ws, lambda m: m["type"] == "status" and m["running"] is False, 20,
                          "the stopped balls")

        with connect(f"{c.ws_url}/ws/replays/{maze['id']}", max_size=None) as waiting, \
                connect(f"{c.ws_url}/ws/replays/{balls['id']}", max_size=None) as other:
            for ws in (waiting, other):
                receive_until(ws, lambda m: m["type"] == "frame" and m["tick"] >= 2, 30,
                              "the replay playing, its first chunk read")
                ws.send(json.dumps({"type": "pause"}))
            frozen = postgres_processes(shared)
            signal_all(frozen, signal.SIGSTOP)
            try:
                for ws in (waiting, other):
                    ws.send(json.dumps({"type": "speed", "value": 2}))
                    ws.send(json.dumps({"type": "play"}))
                # The maze's replay needs a chunk every 4 inputs: within a second it waits for
                # the database, and the balls' replay, which needs none, plays on.
                time.sleep(1.0)
                seen = []
                receive_until(other, lambda m: m["type"] == "frame" and len(
                    [f for f in seen if f["type"] == "frame"]) >= 60, 20,
                    "the other replay's frames while the database is frozen", seen)
                ticks = [m["tick"] for m in seen if m["type"] == "frame"]
                assert ticks == sorted(ticks) and ticks[-1] - ticks[0] >= 59, ticks
            finally:
                signal_all(frozen, signal.SIGCONT)
            played = []
            receive_until(waiting, lambda m: m["type"] == "status" and m["tick"] == live["tick"]
                          and not m["playing"], 60, "the waiting replay's end", played)
            assert not [m for m in played if m["type"] == "error"], played
            assert [m for m in played if m["type"] == "frame"][-1] == live
    finally:
        signal_all(postgres_processes(shared), signal.SIGCONT)
        c.stop()
