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
    lock = hold_write_lock(server.database)
    try:
        with socket(server, first) as ws:
            receive_until(ws, lambda m: m["type"] == "hello", 10, "the hello")
            ws.send(json.dumps(stroke(1, 100)))
            receive_until(ws, lambda m: m["type"] == "event" and m["name"] == "paint", 10,
                          "the stroke acknowledged")
        idle(server, first)
        # Asking for the second parks the first, whose stroke the store cannot have yet.
        status, _, body = request(f"{server.url}/api/sessions/{second['id']}")
        assert status == 200, body
        # The first cannot come back before its stroke is stored: it is refused, not shown
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
        assert hello["strokes"] == 1 and len(hello["marks"]) == 1, hello
