"""Issue 31: a writer merely behind slows the clients that fill it instead of refusing them,
over /ws/batch and over the sessions' own sockets.
With the queue of writes bounded at a few KiB (`--pending-bytes`), a /ws/batch client stepping
12 on-demand sessions flat out fills it many times over: every step is answered (later, while
the queue drains), none with `storage-backlog`, and every action reaches the log (one packed row
per session per flush, not one per action). A realtime session's inputs, sent meanwhile, are
all taken. Counts and contents only, never timings."""
import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor

from websockets.asyncio.client import connect
from websockets.sync.client import connect as connect_sync

from deadline import Deadline, wait_until
from helpers import create_session, request
from playfield_client import Client
from playfield_client.batch import STEPPED, Batch

SESSIONS = 12
STEPS = 400
BOUND = 4096


def stored(database, sql):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


async def realtime_inputs(server, session, count):
    """Sends `count` add-ball inputs with ids on a realtime session's channel; the answers."""
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    answers = []
    async with connect(url, max_size=None) as ws:
        for n in range(count):
            await ws.send(json.dumps({"type": "add-ball", "x": 50 + n, "y": 40, "vx": 1, "vy": 1,
                                      "id": n}))
            await asyncio.sleep(0.02)
        deadline = Deadline(20, "an answer to every realtime input")
        while len(answers) < count:
            message = json.loads(await asyncio.wait_for(ws.recv(), deadline.left()))
            if message.get("id") is not None and message["type"] in ("ack", "error"):
                answers.append(message)
    return answers


def test_a_writer_behind_delays_batch_steps_and_refuses_nothing(start_playfield):
    server = start_playfield("--pending-bytes", str(BOUND), "--on-demand-sessions-per-client",
                             str(SESSIONS), "--sessions-per-client", "32")
    made = []
    for seed in range(SESSIONS):
        status, _, session = request(server.url + "/api/sessions", "POST",
                                     {"kind": "holes", "seed": seed, "clock": "on-demand"})
        assert status == 201, session
        made.append(session)
    realtime = create_session(server)

    async def flood_and_send():
        def flood():
            with Batch(Client(server.url), timeout=30) as batch:
                for session in made:
                    batch.attach(session["id"], session["token"])
                for step in range(STEPS):
                    actions = [[((step + i) % 9 - 4) / 4, 0.5] for i in range(SESSIONS)]
                    reply = batch.step(actions=actions)
                    assert reply.status.tolist() == [STEPPED] * SESSIONS, step
        flooding = asyncio.create_task(asyncio.to_thread(flood))
        answers = await realtime_inputs(server, realtime, 30)
        await flooding
        return answers

    answers = asyncio.run(flood_and_send())
    assert [m["type"] for m in answers] == ["ack"] * 30, [m for m in answers if m["type"] != "ack"]

    health = request(server.url + "/healthz")[2]["pendingWrites"]
    assert health["byteBound"] == BOUND
    assert health["peakBytes"] >= BOUND // 2, health  # the queue did fill: steps waited
    assert health["refusedInputs"] == 0, health

    # Every action is in the log (written behind: read until it is all there), in far fewer
    # rows than actions.
    wait_until(lambda: all(request(f"{server.url}/api/sessions/{s['id']}")[2]["tick"] == STEPS
                           for s in made), 20, "every session at its last step")
    auth = {"Authorization": "Bearer " + made[0]["token"]}

    def page():
        status, _, body = request(f"{server.url}/api/sessions/{made[0]['id']}/inputs",
                                  headers=auth)
        assert status == 200, body
        return body

    inputs = wait_until(lambda: (lambda body: len(body["inputs"]) == STEPS and body["inputs"])(
        page()), 20, "the first session's whole log")
    assert [i["tick"] for i in inputs] == list(range(1, STEPS + 1))
    assert [i["input"]["type"] for i in inputs] == ["tilt"] * STEPS
    quoted = ",".join(f"'{s['id']}'" for s in made)
    rows = stored(server.database, f"SELECT COUNT(*) FROM inputs WHERE session_id IN ({quoted})")
    assert 0 < rows[0][0] < SESSIONS * STEPS // 4, rows


SOCKETS = 8
SOCKET_STEPS = 150


def step_ahead(server, session):
    """Sends SOCKET_STEPS tilts, each followed by a one-tick step with its id, without waiting,
    on an on-demand session's own socket; the answers to the steps, in the order they came."""
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect_sync(url, max_size=None) as ws:
        for n in range(SOCKET_STEPS):
            ws.send(json.dumps({"type": "tilt", "x": (n % 9 - 4) / 4, "y": 0.5}))
            ws.send(json.dumps({"type": "step", "count": 1, "id": n}))
        answers = []
        deadline = Deadline(60, "the answer to every step")
        while len(answers) < SOCKET_STEPS:
            message = json.loads(ws.recv(timeout=deadline.left()))
            if message.get("id") is not None:
                answers.append(message)
        return answers


def test_a_writer_behind_delays_socket_steps_and_refuses_nothing(start_playfield):
    """The same on the sessions' own sockets: steps sent ahead, faster than the writer takes
    them, wait in their sessions' mailboxes (in order) instead of growing the queue past its
    bound; each is answered by its frame, none refused, and every tilt is logged."""
    server = start_playfield("--pending-bytes", str(BOUND), "--on-demand-sessions-per-client",
                             str(SOCKETS), "--sessions-per-client", "32")
    made = []
    for seed in range(SOCKETS):
        status, _, session = request(server.url + "/api/sessions", "POST",
                                     {"kind": "holes", "seed": seed, "clock": "on-demand"})
        assert status == 201, session
        made.append(session)
    with ThreadPoolExecutor(SOCKETS) as pool:
        answered = list(pool.map(lambda session: step_ahead(server, session), made))
    for answers in answered:
        assert [(m["type"], m["id"], m["tick"]) for m in answers] == [
            ("frame", n, n + 1) for n in range(SOCKET_STEPS)], answers[:3]
    health = request(server.url + "/healthz")[2]["pendingWrites"]
    assert health["refusedInputs"] == 0, health
    assert health["peakBytes"] >= BOUND // 2, health  # the queue did fill: steps waited
    # Before, the steps went on while the writer was behind: the queue grew to 43 KiB, every
    # input of the run, past its 4 KiB bound. Now it passes it by a step's inputs at most.
    assert health["peakBytes"] <= 2 * BOUND, health
    auth = {"Authorization": "Bearer " + made[0]["token"]}

    def logged():
        status, _, body = request(f"{server.url}/api/sessions/{made[0]['id']}/inputs",
                                  headers=auth)
        assert status == 200, body
        return len(body["inputs"]) == SOCKET_STEPS and body["inputs"]

    inputs = wait_until(logged, 20, "the first session's whole log")
    assert [i["tick"] for i in inputs] == list(range(1, SOCKET_STEPS + 1))
