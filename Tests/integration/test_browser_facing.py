"""Issue 17, findings 8, 10 and 11 over real sockets: Host allow-list, Origin scheme, typed
bodies, tag links and duplicate JSON keys."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deadline import receive_until_async
from helpers import create_session, raw, request


def count(server):
    return request(server.url + "/api/sessions")[2]["count"]


@pytest.mark.parametrize("host", ["rebind.example", "rebind.example:{port}", "localhost.evil.example:{port}"])
def test_an_unknown_host_gets_421_for_what_holds_state(playfield, host):
    host = host.format(port=playfield.port)
    for path in ["/api/sessions", "/sessions", "/api/highscores", "/api/mazes", "/ws/sessions/x"]:
        status, _, body = raw(playfield, "GET", path, {"Host": host})
        assert status == 421, (path, body)
    # Public content answers any Host, as static servers do (any site can load it anyway).
    for path, expected in [("/", 200), ("/healthz", 200), ("/css/playfield.css", 200), ("/nothing-here", 404)]:
        assert raw(playfield, "GET", path, {"Host": host})[0] == expected, path
    status, _, _ = raw(playfield, "POST", "/api/sessions", {"Host": host, "Content-Type": "application/json"},
                       b'{"kind":"maze"}')
    assert status == 421


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "LOCALHOST", "[::1]:{port}"])
def test_localhost_and_ip_literals_are_answered(playfield, host):
    status, _, _ = raw(playfield, "GET", "/healthz", {"Host": host.format(port=playfield.port)})
    assert status == 200


def test_allow_host_adds_a_name(start_playfield):
    server = start_playfield("--allow-host", "playfield.example")
    assert raw(server, "GET", "/api/sessions", {"Host": f"playfield.example:{server.port}"})[0] == 200
    assert raw(server, "GET", "/api/sessions", {"Host": f"other.example:{server.port}"})[0] == 421


def test_dns_rebinding_websocket_is_refused(playfield):
    session = create_session(playfield, "maze")
    host = f"rebind.example:{playfield.port}"

    async def attempt():
        # The name resolves to us, as after a rebinding: connect to our address by hand.
        async with connect(f"ws://{host}/ws/sessions/{session['id']}", host=playfield.host,
                           port=playfield.port, origin=f"http://{host}"):
            pass

    with pytest.raises(InvalidStatus) as caught:
        asyncio.run(attempt())
    assert caught.value.response.status_code == 421


@pytest.mark.parametrize("origin", ["https://{host}", "HTTP://{host}", "Http://{host}"])
def test_websocket_origin_must_be_plain_http(playfield, origin):
    session = create_session(playfield, "maze")
    host = f"127.0.0.1:{playfield.port}"

    async def attempt():
        async with connect(playfield.ws_url + f"/ws/sessions/{session['id']}", origin=origin.format(host=host)):
            pass

    with pytest.raises(InvalidStatus) as caught:
        asyncio.run(attempt())
    assert caught.value.response.status_code == 403


def test_an_untyped_cross_site_body_is_refused(playfield):
    before = count(playfield)
    host = f"127.0.0.1:{playfield.port}"
    body = b'{"kind":"maze"}'
    for headers in [
        {"Host": host, "Origin": "http://evil.example"},
        {"Host": host, "Origin": "null"},
        {"Host": host},
        {"Host": host, "Content-Type": "text/plain", "Origin": f"http://{host}"},
        {"Host": host, "Content-Type": "application/x-www-form-urlencoded"},
        {"Host": host, "Content-Type": "application/jsonp"},
    ]:
        status, _, answer = raw(playfield, "POST", "/api/sessions", headers, body)
        assert status == 415, (headers, answer)
        assert b"application/json" in answer
    assert count(playfield) == before


def test_an_untyped_body_from_this_site_or_a_typed_one_is_accepted(playfield):
    host = f"127.0.0.1:{playfield.port}"
    body = b'{"kind":"maze"}'
    for headers in [
        {"Host": host, "Origin": f"http://{host}"},
        {"Host": host, "Content-Type": "application/json; charset=utf-8"},
        {"Host": host, "Content-Type": "Application/JSON", "Origin": "http://evil.example"},
    ]:
        status, _, answer = raw(playfield, "POST", "/api/sessions", headers, body)
        assert status == 201, (headers, answer)


@pytest.mark.parametrize("url", ["/\\evil.example", "\\\\evil.example", "/\\/evil.example", "http:\\\\evil.example",
                                 "https://", "http://@evil.example"])
def test_tag_links_that_leave_the_site_are_refused(playfield, url):
    status, _, answer = request(playfield.url + "/api/sessions", "POST",
                                {"kind": "tag-cloud", "config": {"tags": [{"text": "x", "url": url}]}})
    assert status == 400, answer
    assert answer["field"] == "config.tags[0].url"


def test_duplicate_keys_are_refused_over_http(playfield):
    before = count(playfield)
    status, _, answer = request(playfield.url + "/api/sessions", "POST",
                                b'{"kind":"maze","kind":"holes"}')
    assert status == 400
    assert "duplicate key" in answer["error"]
    assert count(playfield) == before


def test_duplicate_keys_are_bad_json_over_websocket(playfield):
    session = create_session(playfield, "bouncing-balls")

    async def talk():
        url = playfield.ws_url + f"/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url) as socket:
            await socket.send('{"type":"stop","type":"start"}')
            return await receive_until_async(socket, lambda m: m["type"] == "error", what="the error")

    message = asyncio.run(talk())
    assert message["error"] == "bad-json"
    assert "duplicate key" in message["message"]
