"""Issue 24's blocker, over real sockets: an on-demand session's input log is compacted behind
its snapshots, so sessions stepped through /ws/batch and through their own JSON channel go far
past --inputs-per-session and keep taking actions; the stored inputs stay bounded; after kill -9
each comes back at the same tick and state hash; and a state before the kept log gets a clear
error. Counts, states and hashes only, never timings."""
import json
import signal
import sqlite3

from websockets.sync.client import connect

from deadline import receive_until, wait_until
from helpers import request
from playfield_client import Client
from playfield_client.batch import STEPPED, Batch

# Inputs one session may log: with a snapshot every 25 (a quarter of it) and three kept, an
# on-demand session stores at most about 76 of them.
BOUND = 100
STEPS = 1000


def make(server, seed, clock="on-demand"):
    body = {"kind": "holes", "seed": seed}
    if clock:
        body["clock"] = clock
    status, _, made = request(server.url + "/api/sessions", "POST", body)
    assert status == 201, made
    return made


def state(server, session_id):
    status, _, body = request(f"{server.url}/api/sessions/{session_id}/state")
    assert status == 200, body
    return body["tick"], body["stateHash"]


def stored(database, sql):
    """Rows of `sql` on a read-only connection to the server's SQLite file."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def tilt(step):
    # Varied, so that every action is a real input; all accepted by the model.
    return [((step * 7) % 9 - 4) / 4, ((step * 5) % 7 - 3) / 3]


def step_on_channel(ws, key, action):
    """One tick with a tilt on a controller's channel; every message up to its answer."""
    ws.send(json.dumps({"type": "tilt", "x": action[0], "y": action[1]}))
    ws.send(json.dumps({"type": "step", "count": 1, "id": key}))
    seen = []
    receive_until(ws, lambda m: m.get("id") == key, 10, f"the answer to {key}", seen)
    return seen


def test_on_demand_sessions_step_far_past_the_bound_and_resume_exactly(start_playfield):
    server = start_playfield("--inputs-per-session", str(BOUND))
    batched = [make(server, 20 + i) for i in range(2)]
    single = make(server, 3)

    client = Client(server.url)
    with Batch(client) as batch:
        for made in batched:
            batch.attach(made["id"], made["token"])
        for step in range(STEPS):
            # A reset now and then is an input too.
            inputs = [(0, {"type": "reset"})] if step % 250 == 249 else None
            reply = batch.step(actions=[tilt(step), tilt(step + 1)], inputs=inputs)
            assert reply.status.tolist() == [STEPPED, STEPPED], step
    url = f"{server.ws_url}/ws/sessions/{single['id']}?token={single['token']}"
    with connect(url, max_size=None) as ws:
        receive_until(ws, lambda m: m["type"] == "status", what="the greeting's status")
        for step in range(STEPS // 2):
            seen = step_on_channel(ws, f"s{step}", tilt(step))
            errors = [m for m in seen if m["type"] == "error"]
            assert not errors, (step, errors)
            assert seen[-1]["type"] == "frame" and seen[-1]["tick"] == step + 1

    ids = [made["id"] for made in batched] + [single["id"]]
    ticks = {made["id"]: STEPS for made in batched} | {single["id"]: STEPS // 2}
    before = {session_id: state(server, session_id) for session_id in ids}
    assert {session_id: tick for session_id, (tick, _) in before.items()} == ticks

    # Written behind: wait until the store has every session at its tick, then crash.
    wanted = sorted(ticks.items())
    wait_until(
        lambda: sorted(stored(server.database, "SELECT id, tick FROM sessions")) == wanted,
        20, "the store to have every session at its tick")
    counts = dict(stored(server.database,
                         "SELECT session_id, COUNT(*) FROM inputs GROUP BY session_id"))
    starts = dict(stored(server.database, "SELECT id, log_start FROM sessions"))
    for session_id in ids:
        # Far more inputs were taken than are stored, and than one session may store.
        assert 0 < counts.get(session_id, 0) <= BOUND, (session_id, counts)
        assert starts[session_id] > 0, "its log starts at a kept snapshot"
    server.stop(signal.SIGKILL)

    again = start_playfield("--inputs-per-session", str(BOUND), database=server.database)
    after = {session_id: state(again, session_id) for session_id in ids}
    assert after == before, "the same tick and state hash after kill -9"

    # It goes on taking actions, and a replay of its current tick is exact.
    with connect(f"{again.ws_url}/ws/sessions/{single['id']}?token={single['token']}") as ws:
        receive_until(ws, lambda m: m["type"] == "status", what="the greeting's status")
        for step in range(STEPS // 2, STEPS // 2 + 60):
            seen = step_on_channel(ws, f"s{step}", tilt(step))
            assert not [m for m in seen if m["type"] == "error"], step
    tick, digest = state(again, single["id"])
    assert tick == STEPS // 2 + 60
    wait_until(lambda: request(f"{again.url}/api/sessions/{single['id']}")[2]["tick"] == tick,
               10, "the session's tick to be published")
    base = f"{again.url}/api/sessions/{single['id']}/replay"
    status, _, replayed = request(f"{base}?tick={tick}")
    assert status == 200 and replayed["stateHash"] == digest, replayed
    start = dict(stored(again.database, "SELECT id, log_start FROM sessions"))[single["id"]]
    assert replayed["from"] >= start > 0

    # Before the kept log: a 400 that names where it starts; from=start the same.
    status, _, refused = request(f"{base}?tick={start - 1}")
    assert status == 400 and refused["field"] == "tick", refused
    assert f"only from tick {start}" in refused["error"], refused
    status, _, refused = request(f"{base}?tick={tick}&from=start")
    assert status == 400 and refused["field"] == "from", refused

    # A replay starts at the kept log's start; a seek before it goes there, one to the end
    # gets there.
    with connect(f"{again.ws_url}/ws/replays/{single['id']}", max_size=None) as ws:
        seen = []
        hello = receive_until(ws, lambda m: m["type"] == "hello", what="the replay's hello",
                              seen=seen)
        assert (hello["tick"], hello["end"]) == (start, tick), hello
        ws.send(json.dumps({"type": "pause"}))
        ws.send(json.dumps({"type": "seek", "tick": 0}))
        receive_until(ws, lambda m: m["type"] == "hello" and m["tick"] == start and len(seen) > 1,
                      what="the hello after the seek to 0", seen=seen)
        ws.send(json.dumps({"type": "seek", "tick": tick}))
        receive_until(ws, lambda m: m["type"] == "hello" and m["tick"] == tick,
                      what="the hello at the end", seen=seen)
        assert not [m for m in seen if m["type"] == "error"], seen

    # The input pages say where the kept log starts, and hold only inputs after it.
    auth = {"Authorization": "Bearer " + single["token"]}
    status, _, page = request(f"{again.url}/api/sessions/{single['id']}/inputs", headers=auth)
    assert status == 200 and page["logStart"] >= start, page
    assert page["inputs"] and all(i["tick"] > page["logStart"] for i in page["inputs"])


def test_a_realtime_session_keeps_its_whole_log_and_its_bound(start_playfield):
    server = start_playfield("--inputs-per-session", "20")
    session = make(server, 5, clock=None)
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url) as ws:
        receive_until(ws, lambda m: m["type"] == "status", what="the greeting's status")
        ws.send(json.dumps({"type": "stop"}))
        for step in range(20):
            step_on_channel(ws, f"s{step}", tilt(step))
        ws.send(json.dumps({"type": "tilt", "x": 0.5, "y": 0.5, "id": "full"}))
        refused = receive_until(ws, lambda m: m.get("id") == "full", what="the refusal")
    assert refused["type"] == "error" and refused["error"] == "log-full", refused
    assert "--inputs-per-session" in refused["message"]
    status, _, page = request(
        f"{server.url}/api/sessions/{session['id']}/inputs",
        headers={"Authorization": "Bearer " + session["token"]})
    assert status == 200 and page["logStart"] == 0 and len(page["inputs"]) == 20, page
