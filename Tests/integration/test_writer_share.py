"""Issue 35 (attack 16): the store writer's work is charged per client. A realtime session's
inputs are packed like an on-demand session's (one row per session per flush, however many
inputs its controller sends), and read back as the same inputs, by tick and seq, with a replay
that matches the live session. Counts and contents only, never timings."""
import asyncio
import json
import sqlite3

from websockets.asyncio.client import connect

from deadline import Deadline, receive_until_async
from helpers import create_session, request

BURSTS, PER_BURST = 6, 100


def stored(database, sql):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def throw(n):
    return {"type": "throw", "index": 0, "vx": 1 + n % 7, "vy": -(n % 5), "id": n}


async def flood(server, session):
    """Sends BURSTS bursts of PER_BURST throws (a burst at once, many to a tick), waits for
    every answer, then for `stored` of them all; the answers."""
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    answers = []
    async with connect(url, max_size=None) as ws:
        for burst in range(BURSTS):
            for n in range(burst * PER_BURST, (burst + 1) * PER_BURST):
                await ws.send(json.dumps(throw(n)))
            deadline = Deadline(20, "an answer to every throw of the burst")
            while len(answers) < (burst + 1) * PER_BURST:
                message = json.loads(await asyncio.wait_for(ws.recv(), deadline.left()))
                if isinstance(message.get("id"), int) and message["type"] in ("ack", "error"):
                    answers.append(message)
        await ws.send(json.dumps({"type": "flush", "id": "all"}))
        await receive_until_async(ws, lambda m: m.get("id") == "all" and m["type"] == "stored",
                                  20, "the throws stored")
    return answers


def test_a_realtime_flood_is_few_rows_and_replays_exactly(start_playfield):
    from test_durability import exact_state

    server = start_playfield()
    session = create_session(server)
    answers = asyncio.run(flood(server, session))
    sent = BURSTS * PER_BURST
    assert [m["type"] for m in answers] == ["ack"] * sent, [m for m in answers if m["type"] != "ack"]

    logged, after = [], 0
    while True:
        status, _, body = request(f"{server.url}/api/sessions/{session['id']}/inputs?after={after}",
                                  headers={"Authorization": "Bearer " + session["token"]})
        assert status == 200, body
        logged += body["inputs"]
        if not body["more"]:
            break
        after = body["inputs"][-1]["tick"]
    # Every throw, in the order sent, each at the tick that applied it.
    assert [i["input"]["vx"] for i in logged] == [throw(n)["vx"] for n in range(sent)]
    assert [i["input"]["vy"] for i in logged] == [throw(n)["vy"] for n in range(sent)]
    ticks = [i["tick"] for i in logged]
    assert ticks == sorted(ticks)
    assert len(set(ticks)) < sent // 2, "many throws share a tick"

    # A row per session per flush, not one per throw.
    rows = stored(server.database,
                  f"SELECT COUNT(*) FROM inputs WHERE session_id = '{session['id']}'")[0][0]
    assert 0 < rows < sent // 10, rows
    health = request(server.url + "/healthz")[2]["pendingWrites"]
    assert health["writtenRows"] < sent // 4, health

    tick, live, replayed = asyncio.run(exact_state(server, session))
    assert tick > max(ticks)
    assert live == replayed
