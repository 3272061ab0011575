"""A page on another site may not open our WebSockets (RFC 6455 §10.2): the session channel,
`/ws/batch` and replays refuse a foreign `Origin` with 403 before anything happens, as every
socket does, while this site's pages and clients without `Origin` (scripts) get through."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deadline import Deadline, receive_one
from helpers import request

FOREIGN = ["http://evil.example", "http://localhost.evil.example:{port}", "null",
           "http://127.0.0.1:{other}"]
PATHS = ["/ws/sessions/{id}", "/ws/sessions/{id}?token={token}", "/ws/batch", "/ws/replays/{id}"]


@pytest.fixture(scope="module")
def on_demand(playfield):
    status, _, session = request(playfield.url + "/api/sessions", "POST",
                                 {"kind": "holes", "seed": 3, "clock": "on-demand"})
    assert status == 201, session
    return session


def state(playfield, session):
    status, _, body = request(f"{playfield.url}/api/sessions/{session['id']}")
    assert status == 200, body
    return body


async def opened(url, origin):
    """The first message on a socket opened with `origin` (None: no Origin at all)."""
    async with connect(url, origin=origin, max_size=None) as ws:
        if "/ws/batch" in url:
            return "open"
        return (await receive_one(ws, Deadline(20, "the first message").left()))["type"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("origin", FOREIGN)
def test_another_sites_page_gets_403_and_changes_nothing(playfield, on_demand, path, origin):
    before = state(playfield, on_demand)
    url = playfield.ws_url + path.format(**on_demand)
    with pytest.raises(InvalidStatus) as caught:
        asyncio.run(opened(url, origin.format(port=playfield.port, other=playfield.port + 1)))
    assert caught.value.response.status_code == 403
    assert b"origin not allowed" in caught.value.response.body
    after = state(playfield, on_demand)
    assert (after["tick"], after["spectators"], after["controllers"]) == \
        (before["tick"], before["spectators"], before["controllers"])


@pytest.mark.parametrize("path, first", [("/ws/sessions/{id}", "hello"),
                                         ("/ws/sessions/{id}?token={token}", "hello"),
                                         ("/ws/batch", "open"), ("/ws/replays/{id}", "hello")])
@pytest.mark.parametrize("origin", ["http://127.0.0.1:{port}", None])
def test_this_site_and_scripts_get_through(playfield, on_demand, path, first, origin):
    url = playfield.ws_url + path.format(**on_demand)
    assert asyncio.run(opened(url, origin and origin.format(port=playfield.port))) == first


def test_a_foreign_page_cannot_attach_even_with_the_token(playfield, on_demand):
    """The batch channel's token check never runs for a foreign page: the upgrade is refused
    before any message, so a leaked control token is no use from another site."""
    async def attempt():
        async with connect(playfield.ws_url + "/ws/batch", origin="http://evil.example") as ws:
            await ws.send(json.dumps({"type": "attach", "id": 1, "session": on_demand["id"],
                                      "token": on_demand["token"]}))
    with pytest.raises(InvalidStatus):
        asyncio.run(attempt())
