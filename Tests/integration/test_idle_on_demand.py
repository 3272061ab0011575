"""On-demand sessions held by connections that go idle or away: once nobody is connected they
are parked to make room for their owner's next one (and come back where they were when asked
for); while a connection drives them, a `/ws/batch` one included, they are not parked under
it. Before, a batch connection did not count: a session it drove could be parked, and it went
on stepping beside the copy brought back from storage."""
import json
import struct

from websockets.sync.client import connect

from deadline import Deadline, wait_until
from helpers import request
from test_step_clock import channel, frame_at, make

LIMIT = ("--on-demand-sessions-per-client", "2")


def create_on_demand(server):
    return request(server.url + "/api/sessions", "POST", {"kind": "holes", "clock": "on-demand"})


def tick_of(server, session):
    status, _, body = request(f"{server.url}/api/sessions/{session['id']}")
    assert status == 200, body
    return body["tick"]


def await_ticks(server, sessions, ticks):
    """Waits until listings show `ticks` (they learn a tick on the game loop's next tick)."""
    wait_until(lambda: [tick_of(server, s) for s in sessions] == ticks, 10, "the ticks published")


def one_parked_for_a_third(server, first, second):
    """Creates the owner's third on-demand session: one of the two is parked to make room.
    NB: 429 only until the server has seen the connections close."""
    wait_until(lambda: create_on_demand(server)[0] == 201, 10, "room for a third session")
    listed = {s["id"] for s in request(server.url + "/api/sessions")[2]["sessions"]}
    assert len({first["id"], second["id"]} - listed) == 1, "one of the two was parked"


def attach(ws, *sessions):
    """Attaches `sessions` to a /ws/batch connection, in order (slots 0, 1, ...)."""
    for number, session in enumerate(sessions):
        ws.send(json.dumps({"type": "attach", "id": number, "session": session["id"],
                            "token": session["token"]}))
        assert json.loads(ws.recv(timeout=20))["type"] == "attached"


def batch_step(ws, step_id, count):
    """One batch step of every attached session; the ticks and statuses of its reply."""
    ws.send(json.dumps({"type": "step", "id": step_id, "count": count}))
    deadline = Deadline(20, "the batch reply")
    while True:
        reply = ws.recv(timeout=deadline.left())
        assert isinstance(reply, bytes), reply
        magic, got, n, w = struct.unpack_from("<4sIII", reply)
        assert (magic, got) == (b"PFB1", step_id)
        ticks = struct.unpack_from(f"<{n}Q", reply, 16)
        statuses = 16 + 8 * n + 8 * n * w
        return list(ticks), list(reply[statuses:statuses + n])


def test_a_closed_connections_on_demand_sessions_are_parked_to_make_room(start_playfield):
    server = start_playfield(*LIMIT)
    first, second = make(server, "holes", "on-demand"), make(server, "holes", "on-demand")
    with channel(server, first) as a, channel(server, second) as b:
        assert frame_at(a, "a", 7)["tick"] == 7
        assert frame_at(b, "b", 3)["tick"] == 3
        status, _, body = create_on_demand(server)
        assert status == 429 and "--on-demand-sessions-per-client" in body["error"], body
        await_ticks(server, [first, second], [7, 3])
    # Nobody is connected now: the owner's next session parks the longest-untouched of them.
    one_parked_for_a_third(server, first, second)
    # Asked for, each is where it was.
    assert (tick_of(server, first), tick_of(server, second)) == (7, 3)


def test_sessions_a_batch_connection_drives_are_not_parked_under_it(start_playfield):
    server = start_playfield(*LIMIT)
    first, second = make(server, "holes", "on-demand"), make(server, "holes", "on-demand")
    with connect(server.ws_url + "/ws/batch", max_size=None) as ws:
        attach(ws, first, second)
        assert batch_step(ws, 1, 5) == ([5, 5], [0, 0])
        # Both are in use: the owner gets 429 rather than one parked under the connection.
        status, _, body = create_on_demand(server)
        assert status == 429 and "--on-demand-sessions-per-client" in body["error"], body
        assert batch_step(ws, 2, 5) == ([10, 10], [0, 0])
        await_ticks(server, [first, second], [10, 10])
    # The connection closed: now they are idle, and room is made.
    one_parked_for_a_third(server, first, second)
    assert (tick_of(server, first), tick_of(server, second)) == (10, 10)


def test_a_session_parked_right_after_its_last_steps_comes_back_with_them(start_playfield):
    """Steps without inputs leave nothing in the log: their tick is stored when the game loop
    shows them, a tick later, or when the session is parked. A session parked before the show
    came back without them (its tick 0 after 50 steps, in 8 of 10 tries); then it was refused
    a park until shown (429 for up to 250 ms), and a show under way could still miss them."""
    server = start_playfield(*LIMIT)
    for attempt in range(5):
        first, second = make(server, "holes", "on-demand"), make(server, "holes", "on-demand")
        with connect(server.ws_url + "/ws/batch", max_size=None) as ws:
            attach(ws, first, second)
            assert batch_step(ws, 1, 50) == ([50, 50], [0, 0])
        # At once, shown or not (429 only until the server has seen the batch close).
        third = wait_until(lambda: (made := create_on_demand(server))[0] == 201 and made[2], 10,
                           "room for a third session")
        await_ticks(server, [first, second], [50, 50])
        for session in (first, second, third):
            status, _, _ = request(f"{server.url}/api/sessions/{session['id']}", "DELETE",
                                   headers={"Authorization": f"Bearer {session['token']}"})
            assert status == 204, (attempt, status)
