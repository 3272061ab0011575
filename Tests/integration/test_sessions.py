"""Sessions through the public contract, over real sockets."""
import asyncio
import json
import re
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deadline import Deadline, receive_one
from helpers import create_session, request


def test_create_answers_201_with_id_token_and_urls(playfield):
    status, headers, body = request(playfield.url + "/api/sessions", "POST", {"kind": "maze", "config": {}})
    assert status == 201
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", body["id"])
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", body["token"])
    assert body["id"] != body["token"]
    assert headers["Location"] == f"/api/sessions/{body['id']}"
    assert body["urls"]["socket"] == f"/ws/sessions/{body['id']}"
    assert body["token"] in body["urls"]["control"]
    assert body["kind"] == "maze"


def test_ids_are_unique(playfield):
    ids = {create_session(playfield, "holes")["id"] for _ in range(5)}
    assert len(ids) == 5


@pytest.mark.parametrize("body, field", [
    ({"kind": "spaceships"}, "kind"),
    ({"config": {}}, "kind"),
    ({"kind": 3}, "kind"),
    ({"kind": "bouncing-balls", "config": []}, "config"),
    ({"kind": "bouncing-balls", "config": {"balls": 0}}, "config.balls"),
    ({"kind": "bouncing-balls", "config": {"balls": 100000}}, "config.balls"),
    ({"kind": "bouncing-balls", "config": {"nonsense": 1}}, "config.nonsense"),
    ({"kind": "maze", "extra": 1}, "extra"),
])
def test_bad_config_names_the_field(playfield, body, field):
    status, _, answer = request(playfield.url + "/api/sessions", "POST", body)
    assert status == 400
    assert answer["field"] == field
    assert answer["error"]


@pytest.mark.parametrize("raw, content_type, expected", [
    (b"{", "application/json", 400),
    (b"[]", "application/json", 400),
    (b"", "application/json", 400),
    (b'{"kind":"maze"}', "text/plain", 415),
])
def test_bad_bodies(playfield, raw, content_type, expected):
    status, _, answer = request(playfield.url + "/api/sessions", "POST", raw, {"Content-Type": content_type})
    assert status == expected
    assert "error" in answer


def test_list_show_and_delete_with_the_token(playfield):
    session = create_session(playfield, "tag-cloud")
    url = playfield.url + "/api/sessions/" + session["id"]
    status, _, listing = request(playfield.url + "/api/sessions")
    assert status == 200 and session["id"] in [s["id"] for s in listing["sessions"]]
    status, _, shown = request(url)
    assert status == 200 and shown["kind"] == "tag-cloud" and "token" not in shown
    assert request(url, "DELETE")[0] == 401
    assert request(url, "DELETE", headers={"Authorization": "Bearer wrong"})[0] == 403
    assert request(url, "DELETE", headers={"Authorization": "Bearer " + session["token"]})[0] == 204
    assert request(url)[0] == 404
    assert request(url, "PUT", b"{}")[0] == 405


async def collect(ws, seconds):
    """Messages received for `seconds`, by type."""
    got = {}
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except asyncio.TimeoutError:
            break
        got.setdefault(message["type"], []).append(message)
    return got


def test_stream_keeps_60_hz_and_bad_input_gets_errors(playfield):
    session = create_session(playfield)

    async def run():
        url = f"{playfield.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url) as ws:
            hello = await receive_one(ws)
            assert hello["type"] == "hello" and hello["role"] == "controller"
            assert hello["session"] == session["id"] and hello["rate"] == 60
            await ws.send(json.dumps({"type": "start"}))
            await collect(ws, 0.5)
            bad = ["{", "[1,2]", "42", '{"x":1}', '{"type":7}', '{"type":"fly"}',
                   '{"type":"step","count":-1}', '{"type":"add-ball","x":"left"}']
            for text in bad:
                await ws.send(text)
            await ws.send(b"\x00binary")
            got = await collect(ws, 3)
            frames = got.get("frame", [])
            ticks = [f["tick"] for f in frames]
            assert all(b > a for a, b in zip(ticks, ticks[1:])), "ticks must rise strictly"
            # NB: against the session's own ticks, not the wall clock: a busy machine slows the
            # loop for everyone, but a client that reads must still get (nearly) every tick.
            # The rate itself is measured by the benchmarks.
            assert len(frames) > 30 and len(frames) >= 0.8 * (ticks[-1] - ticks[0] + 1), \
                f"{len(frames)} frames for ticks {ticks[0]} to {ticks[-1]}"
            codes = [e["error"] for e in got.get("error", [])]
            assert codes == ["bad-json", "not-an-object", "not-an-object", "missing-type", "bad-field",
                             "unknown-type", "bad-field", "bad-field", "bad-message"]
            assert {e.get("field") for e in got["error"] if e["error"] == "bad-field"} == {"type", "count", "x"}
    asyncio.run(run())


def test_spectators_watch_but_cannot_control(playfield):
    session = create_session(playfield)

    async def run():
        async with connect(f"{playfield.ws_url}/ws/sessions/{session['id']}") as ws:
            hello = await receive_one(ws)
            assert hello["role"] == "spectator"
            await ws.send(json.dumps({"type": "stop"}))
            got = await collect(ws, 1)
            assert [e["error"] for e in got["error"]] == ["not-controller"]
            assert len(got.get("frame", [])) > 30, "the stream goes on"
    asyncio.run(run())


def test_stop_freezes_and_step_advances(playfield):
    session = create_session(playfield)

    async def run():
        async with connect(f"{playfield.ws_url}/ws/sessions/{session['id']}?token={session['token']}") as ws:
            await ws.send(json.dumps({"type": "stop"}))
            await collect(ws, 0.3)
            quiet = await collect(ws, 0.5)
            assert "frame" not in quiet
            await ws.send(json.dumps({"type": "step", "count": 3}))
            stepped = await collect(ws, 0.5)
            assert len(stepped["frame"]) == 3
            await ws.send(json.dumps({"type": "ping", "id": 9, "t": 123}))
            pong = await collect(ws, 0.3)
            assert pong["pong"] == [{"type": "pong", "id": 9, "t": 123}]
    asyncio.run(run())


def test_handshake_refusals(playfield):
    session = create_session(playfield)

    async def status_of(url, **kwargs):
        try:
            async with connect(url, **kwargs):
                return 101
        except InvalidStatus as error:
            return error.response.status_code

    async def run():
        base = f"{playfield.ws_url}/ws/sessions/"
        assert await status_of(base + "nope") == 404
        assert await status_of(base + session["id"] + "?token=wrong") == 403
        assert await status_of(base + session["id"], origin="http://evil.example") == 403
        assert await status_of(base + session["id"], origin=playfield.url) == 101
    asyncio.run(run())


def test_echo_text_binary_with_and_without_compression(playfield):
    async def run():
        for compression in (None, "deflate"):
            async with connect(playfield.ws_url + "/ws/echo", compression=compression,
                               subprotocols=["chat", "other"]) as ws:
                assert ws.subprotocol == "chat"
                await ws.send("héllo " * 100)
                assert await asyncio.wait_for(ws.recv(), 10) == "héllo " * 100
                await ws.send(bytes(range(256)) * 40)
                assert await asyncio.wait_for(ws.recv(), 10) == bytes(range(256)) * 40
    asyncio.run(run())


def test_a_post_without_a_body_length_gets_411(playfield):
    import socket
    with socket.create_connection((playfield.host, playfield.port), timeout=5) as raw:
        raw.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer, deadline = b"", Deadline(10, "the 411 answer")
        while deadline.left() and (chunk := raw.recv(4096)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 411 "), answer[:80]
    assert b"Content-Length" in answer
