"""Issue 17, findings 1 and 4: one client cannot take every live session, a full server says
when to come back, and one session's input log is bounded."""
import asyncio
import http.client
import json
import time

import pytest
from websockets.asyncio.client import connect

from deadline import receive_until_async, wait_until
from helpers import request


def create(server, source, kind="maze"):
    """POST /api/sessions from a chosen loopback address (one address is one client)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10, source_address=(source, 0))
    connection.request("POST", "/api/sessions", body=json.dumps({"kind": kind}),
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    return response.status, response.headers, body


def watched(server, sessions, body):
    """Runs `body()` while a spectator watches each session; returns what it returned once the
    server has seen every spectator leave (the sessions say they are idle)."""
    async def run():
        sockets = [await connect(f"{server.ws_url}/ws/sessions/{s['id']}") for s in sessions]
        try:
            # Watched once joined: the join is taken on the game loop's tick, and its `hello`
            # follows.
            for socket in sockets:
                await receive_until_async(socket, lambda m: m["type"] == "hello", 10, "the spectator's hello")
            return await asyncio.to_thread(body)
        finally:
            for socket in sockets:
                await socket.close()
    result = asyncio.run(run())
    # A closed socket's leave reaches the session a moment later (longer on a busy machine):
    # until then the session is still in use, and cannot be parked.
    for session in sessions:
        wait_until(lambda: request(f"{server.url}/api/sessions/{session['id']}")[2].get("idle"), 10,
                   f"session {session['id']} idle once its spectator left")
    return result


def test_a_flood_of_creates_parks_the_flooders_own_idle_sessions(start_playfield):
    server = start_playfield()
    made = []
    for _ in range(40):
        status, _, body = create(server, "127.0.0.2")
        assert status == 201, body
        made.append(body)
    listed = request(server.url + "/api/sessions")[2]["sessions"]
    # The flooder holds 16 in memory; the rest were parked, not counted, and not lost.
    assert len(listed) == 16
    assert {s["id"] for s in listed} < {m["id"] for m in made}
    parked = [m for m in made if m["id"] not in {s["id"] for s in listed}]
    status, _, back = request(server.url + f"/api/sessions/{parked[0]['id']}")
    assert status == 200 and back["id"] == parked[0]["id"]
    # Everyone else is unaffected.
    assert create(server, "127.0.0.1")[0] == 201


@pytest.mark.slow
def test_a_client_whose_sessions_are_all_in_use_gets_429(start_playfield):
    server = start_playfield("--sessions-per-client", "2")
    made = [create(server, "127.0.0.2")[2] for _ in range(2)]
    status, _, body = watched(server, made, lambda: create(server, "127.0.0.2"))
    assert status == 429, body
    assert "2 live sessions" in body["error"]
    assert create(server, "127.0.0.3")[0] == 201
    status, _, _ = request(server.url + f"/api/sessions/{made[0]['id']}?token={made[0]['token']}", "DELETE")
    assert status == 204
    assert create(server, "127.0.0.2")[0] == 201


@pytest.mark.slow
def test_only_a_truly_full_server_answers_503_with_retry_after(start_playfield):
    server = start_playfield("--max-sessions", "3", "--sessions-per-client", "2")
    made = [create(server, "127.0.0.2")[2], create(server, "127.0.0.2")[2], create(server, "127.0.0.3")[2]]
    status, headers, body = watched(server, made, lambda: create(server, "127.0.0.4"))
    assert status == 503, body
    assert int(headers["Retry-After"]) > 0
    # Once nobody watches, an idle session is parked instead.
    assert create(server, "127.0.0.4")[0] == 201


@pytest.mark.slow
def test_a_session_input_log_is_bounded(start_playfield):
    server = start_playfield("--inputs-per-session", "50")
    status, _, session = create(server, "127.0.0.1")
    assert status == 201

    async def flood():
        url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        errors = []
        async with connect(url) as ws:
            for index in range(80):
                await ws.send(json.dumps({"type": "tilt", "x": (index % 10) / 10, "y": 0}))
                await asyncio.sleep(0.02)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except asyncio.TimeoutError:
                    break
                if message["type"] == "error":
                    errors.append(message)
        return errors

    errors = asyncio.run(flood())
    assert errors and all(e["error"] == "log-full" for e in errors)
    assert "50" in errors[0]["message"]
    time.sleep(0.6)  # the writer flushes every 250 ms
    logged = request(server.url + f"/api/sessions/{session['id']}/inputs", headers={"Authorization": "Bearer " + session["token"]})[2]["inputs"]
    assert 0 < len(logged) <= 50
