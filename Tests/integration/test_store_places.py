"""Issue 35, items 1 to 3: the store's places are a quota like any other. One client's flood of
creates never deletes another client's stored session; a parked session comes back charged to
its owner's live places, whoever asks; a restart with more stored sessions than --max-sessions
comes up within the limits, and every session comes back when its owner asks."""
import contextlib
import http.client
import json
import signal
import sqlite3
import time

import pytest

from deadline import Deadline
from helpers import request, send_commands

FLOODERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]


class Client:
    """One loopback address (one client), its requests on one kept-alive connection."""

    def __init__(self, server, address):
        self.server = server
        self.address = address
        self.connection = None

    def call(self, method, path, body=None, headers=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    self.server.host, self.server.port, timeout=30, source_address=(self.address, 0))
            try:
                data = None if body is None else json.dumps(body)
                self.connection.request(method, path, body=data, headers={
                    "Content-Type": "application/json", **(headers or {})})
                response = self.connection.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (ConnectionError, http.client.HTTPException):
                # NB: the server may close a kept-alive connection between requests.
                self.connection.close()
                self.connection = None
                if attempt:
                    raise

    def create(self, kind="maze", clock=None):
        body = {"kind": kind} | ({"clock": clock} if clock else {})
        return self.call("POST", "/api/sessions", body)

    def get(self, session_id):
        return self.call("GET", f"/api/sessions/{session_id}")

    def inputs(self, session):
        return self.call("GET", f"/api/sessions/{session['id']}/inputs",
                         headers={"Authorization": "Bearer " + session["token"]})

    def close(self):
        if self.connection is not None:
            self.connection.close()


def listed_ids(server):
    return {s["id"] for s in request(server.url + "/api/sessions")[2]["sessions"]}


def test_a_flood_of_creates_never_deletes_another_clients_stored_sessions(start_playfield):
    server = start_playfield()
    victim = Client(server, "127.0.0.1")
    status, on_demand = victim.create("bouncing-balls", clock="on-demand")
    assert status == 201 and on_demand["durable"], on_demand
    status, stopped = victim.create("bouncing-balls")
    assert status == 201 and stopped["durable"], stopped
    send_commands(server, stopped, [{"type": "stop"}])
    time.sleep(0.6)  # the writer stores the stop within 250 ms

    # 1,100 creates from four addresses: more than the store's 1,000 places.
    flooders = [Client(server, address) for address in FLOODERS]
    answers = {}
    for index in range(1100):
        status, body = flooders[index % len(flooders)].create()
        answers[status] = answers.get(status, 0) + 1
        assert status in (201, 429, 503), (status, body)
        if status == 201:
            assert body["durable"], body
        else:
            assert "stored sessions" in body["error"] or "store is full" in body["error"], body
    for flooder in flooders:
        flooder.close()
    assert answers.get(201, 0) > 0
    # Past its stored share, each flooder lost its own oldest parked sessions: it keeps 64.
    with sqlite3.connect(server.database) as database:
        stored = dict(database.execute(
            "SELECT owner_client, COUNT(*) FROM sessions GROUP BY owner_client").fetchall())
    assert stored == {**{address: 64 for address in FLOODERS}, "127.0.0.1": 2}, stored

    # The victim's stored sessions are all still there, and so are its new ones.
    for session in (on_demand, stopped):
        status, body = victim.inputs(session)
        assert status == 200, (session["id"], body)
        status, body = victim.get(session["id"])
        assert status == 200 and body["id"] == session["id"], body
    status, later = victim.create("bouncing-balls")
    assert status == 201 and later["durable"], later
    health = request(server.url + "/healthz")[2]
    assert health.get("memoryOnlySessions") == 0 and health["status"] == "ok", health
    victim.close()


def test_getting_parked_sessions_never_exceeds_their_owners_live_places(start_playfield):
    server = start_playfield("--max-sessions", "32")
    flooder = Client(server, "127.0.0.2")
    made = []
    for _ in range(40):
        status, body = flooder.create()
        assert status == 201, body
        made.append(body["id"])
    mine = set(made)
    assert len(listed_ids(server) & mine) == 16, "16 live, the rest parked"

    # Asking for every parked session back, from the owner's address and from another's,
    # charges the owner: it never holds more than its 16 live places.
    other = Client(server, "127.0.0.3")
    for asker in (flooder, other):
        for session_id in made:
            status, body = asker.get(session_id)
            assert status in (200, 429), (status, body)
            if status == 200:
                assert body["id"] == session_id
            assert len(listed_ids(server) & mine) <= 16
    assert len(listed_ids(server) & mine) <= 16

    # A bystander still gets a place, and the asker got none of the owner's sessions.
    bystander = Client(server, "127.0.0.1")
    status, body = bystander.create()
    assert status == 201, body
    for client in (flooder, other, bystander):
        client.close()


def test_a_parked_session_is_deleted_by_its_owner_while_every_live_place_is_in_use(start_playfield):
    """Deleting needs no live place: a session parked here is deleted where it is stored (it
    was 429 while the owner's live places were all watched)."""
    from websockets.sync.client import connect

    server = start_playfield("--sessions-per-client", "2")
    owner = Client(server, "127.0.0.2")
    made = []
    for _ in range(3):
        status, body = owner.create()
        assert status == 201, body
        made.append(body)
    # The third create parked one of the two before it. NB: not necessarily the first: the
    # registry parks the session least recently updated, and a running session is updated on
    # each tick it steps, so on a busy machine the second (not stepped yet, updated when made)
    # can look older than the first (see the report of the flaky-tests branch).
    listed = listed_ids(server)
    [parked] = [session for session in made if session["id"] not in listed]
    assert parked is not made[-1], "the third create parked one of the owner's others"
    live = [session for session in made if session is not parked]
    with contextlib.ExitStack() as sockets:
        for session in live:
            sockets.enter_context(
                connect(f"{server.ws_url}/ws/sessions/{session['id']}", open_timeout=30))
        # Both live places watched: the parked one cannot come back now...
        status, body = owner.get(parked["id"])
        assert status == 429, (status, body)
        # ...yet its owner deletes it, with its token only.
        headers = {"Authorization": "Bearer " + live[0]["token"]}
        status, _ = owner.call("DELETE", f"/api/sessions/{parked['id']}", headers=headers)
        assert status == 403
        headers = {"Authorization": "Bearer " + parked["token"]}
        status, body = owner.call("DELETE", f"/api/sessions/{parked['id']}", headers=headers)
        assert status == 204, (status, body)
        status, body = owner.get(parked["id"])
        assert status == 404, (status, body)
        assert {s["id"] for s in live} <= listed_ids(server)
    owner.close()


@pytest.mark.slow
def test_a_restart_with_more_stored_sessions_than_places_comes_up_within_the_limits(start_playfield):
    limits = ("--max-sessions", "8", "--sessions-per-client", "4")
    server = start_playfield(*limits)
    owners = [Client(server, address) for address in FLOODERS]
    made = {}
    for owner in owners:
        for _ in range(6):
            status, body = owner.create()
            assert status == 201 and body["durable"], body
            made[body["id"]] = (owner.address, body)
    assert len(listed_ids(server)) <= 8
    time.sleep(0.6)  # the writer stores the last progress within 250 ms
    server.stop(signal.SIGKILL)
    for owner in owners:
        owner.close()

    again = start_playfield(*limits, database=server.database)
    live = listed_ids(again)
    assert 0 < len(live) <= 8, live
    assert live <= set(made)
    health = request(again.url + "/healthz")[2]
    assert health["sessions"] <= 8, health

    # Every session comes back when its owner asks, one owner's at a time within its places.
    owners = {address: Client(again, address) for address in FLOODERS}
    for session_id, (address, session) in made.items():
        deadline = Deadline(20, f"session {session_id} back for its owner")
        while True:
            status, body = owners[address].get(session_id)
            if status == 200:
                break
            # NB: its owner's other sessions may still be replaying their logs (not parkable).
            assert status == 429, (status, body)
            time.sleep(min(0.2, deadline.left()))
        assert body["id"] == session_id
        status, _ = owners[address].inputs(session)
        assert status == 200
        assert len(listed_ids(again)) <= 8
    for owner in owners.values():
        owner.close()
