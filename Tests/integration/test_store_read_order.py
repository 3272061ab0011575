"""Acknowledged changes are never read back older than they were acknowledged because the
store is slow: a parked session comes back with every input it acknowledged (or is refused with
503 until it can), and an input-log page asked for after an input holds it.

The store is made slow by holding SQLite's write lock from the test (`BEGIN IMMEDIATE` on the
server's database file): the server's writes wait, its reads go on (WAL)."""
import json
import sqlite3

from websockets.sync.client import connect

from deadline import receive_until, wait_until
from helpers import create_session, request


def hold_write_lock(database):
    """Takes the database's write lock; `rollback()` on the connection lets it go."""
    db = sqlite3.connect(database, isolation_level=None, timeout=10)
    db.execute("BEGIN IMMEDIATE")
    return db


def stroke(number, x):
    return {"type": "stroke", "author": "order", "stroke": number, "color": "#ff0000",
            "radius": 4, "points": [x, 10, x + 5, 20]}


def socket(server, session):
    return connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}")


def idle(server, session):
    wait_until(lambda: request(f"{server.url}/api/sessions/{session['id']}")[2].get("idle"), 10,
               f"session {session['id']} idle once its socket left")


def test_a_parked_session_comes_back_with_every_input_it_acknowledged(start_playfield):
    server = start_playfield("--sessions-per-client", "1")
    first = create_session(server, "paintbrush")
    # The second parks the first (one live session per client); asking for the first brings
    # it back and parks the second.
    second = create_session(server, "paintbrush")
    with socket(server, first) as ws:
        receive_until(ws, lambda m: m["type"] == "hello", 10, "the hello")
        # A stroke stored: everything queued before it (the second's last rows) is stored.
        ws.send(json.dumps(stroke(1, 100)))
        ws.send(json.dumps({"type": "flush", "id": "stored"}))
        stored = receive_until(ws, lambda m: m.get("id") == "stored", 20, "the stroke stored")
        assert stored["type"] == "stored", stored
        lock = hold_write_lock(server.database)
        try:
            ws.send(json.dumps(stroke(2, 200)))
            # NB: the first stroke's paint came before its `stored` answer.
            receive_until(ws, lambda m: m["type"] == "event" and m["name"] == "paint", 10,
                          "the second stroke acknowledged")
        except BaseException:
            lock.rollback()
            lock.close()
            raise
    try:
        idle(server, first)
        # Asking for the second parks the first, whose second stroke the store cannot have yet.
        status, _, body = request(f"{server.url}/api/sessions/{second['id']}")
        assert status == 200, body
        # The first cannot come back before that stroke is stored: it is refused, not shown
        # without it.
        status, headers, body = request(f"{server.url}/api/sessions/{first['id']}")
        assert status == 503, body
        assert headers["Retry-After"] == "1"
    finally:
        lock.rollback()
        lock.close()
    wait_until(lambda: request(f"{server.url}/api/sessions/{first['id']}")[0] == 200, 20,
               "the first session back once its stroke is stored")
    with socket(server, first) as ws:
        hello = receive_until(ws, lambda m: m["type"] == "hello", 10, "the hello")
        assert hello["strokes"] == 2 and len(hello["marks"]) == 2, hello


def test_readers_of_the_log_refuse_rather_than_show_it_without_acknowledged_inputs(start_playfield):
    """A replay, a replay state and an `/inputs` page wait 5 s for the session's queued
    writes; when they are still not stored, each is refused (the viewer asks again), never
    answered from a log that lacks an input the session acknowledged."""
    server = start_playfield()
    session = create_session(server, "paintbrush")
    lock = hold_write_lock(server.database)
    try:
        with socket(server, session) as ws:
            receive_until(ws, lambda m: m["type"] == "hello", 10, "the hello")
            ws.send(json.dumps(stroke(1, 100)))
            receive_until(ws, lambda m: m["type"] == "event" and m["name"] == "paint", 10,
                          "the stroke acknowledged")
        tick = request(f"{server.url}/api/sessions/{session['id']}")[2]["tick"]
        with connect(f"{server.ws_url}/ws/replays/{session['id']}") as replay:
            first = receive_until(replay, lambda m: m["type"] in ("hello", "error"), 20,
                                  "the replay's hello or error")
            assert first["type"] == "error" and "not stored yet" in first["message"], first
        status, headers, body = request(
            f"{server.url}/api/sessions/{session['id']}/replay?tick={tick}", timeout=20)
        assert (status, headers["Retry-After"]) == (503, "1"), body
        assert "not stored yet" in body["error"]["message"] if isinstance(body.get("error"), dict) \
            else "not stored yet" in json.dumps(body), body
        status, headers, body = request(
            f"{server.url}/api/sessions/{session['id']}/inputs",
            headers={"Authorization": "Bearer " + session["token"]}, timeout=20)
        assert (status, headers["Retry-After"]) == (503, "1"), body
    finally:
        lock.rollback()
        lock.close()
    status, _, page = request(f"{server.url}/api/sessions/{session['id']}/inputs",
                              headers={"Authorization": "Bearer " + session["token"]}, timeout=20)
    assert status == 200 and [i["input"]["type"] for i in page["inputs"]] == ["stroke"], page
    with connect(f"{server.ws_url}/ws/replays/{session['id']}") as replay:
        hello = receive_until(replay, lambda m: m["type"] in ("hello", "error"), 20,
                              "the replay's hello")
        assert hello["type"] == "hello" and hello["end"] >= tick, hello


def test_a_delete_is_answered_only_once_the_store_has_it(start_playfield):
    """A delete the store refuses (its write lock held past the busy timeout) is answered 503,
    and the session stays, live or parked; before, it was answered 204 and the store kept the
    session, so a restart brought it back."""
    server = start_playfield("--sessions-per-client", "1")
    parked = create_session(server, "paintbrush")
    live = create_session(server, "paintbrush")  # parks the first

    def delete(session):
        return request(f"{server.url}/api/sessions/{session['id']}", "DELETE",
                       headers={"Authorization": "Bearer " + session["token"]}, timeout=20)

    def stored_ids():
        with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
            return {row[0] for row in db.execute("SELECT id FROM sessions")}

    lock = hold_write_lock(server.database)
    try:
        for session in (live, parked):
            status, headers, body = delete(session)
            assert (status, headers["Retry-After"]) == (503, "1"), (session["id"], body)
            assert "cannot be deleted" in json.dumps(body), body
        assert request(f"{server.url}/api/sessions/{live['id']}")[0] == 200
    finally:
        lock.rollback()
        lock.close()
    assert {live["id"], parked["id"]} <= stored_ids()
    for session in (live, parked):
        assert delete(session)[0] == 204
    assert not {live["id"], parked["id"]} & stored_ids()
    for session in (live, parked):
        assert request(f"{server.url}/api/sessions/{session['id']}")[0] == 404
