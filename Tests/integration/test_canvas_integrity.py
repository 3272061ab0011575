"""Issue 22, finding 7: the shared canvas has integrity. A painter is who the server says sent
the stroke, an undo reaches only the sender's own strokes, no-op inputs are refused and never
logged, the owner can replace the drawing link (the old one is refused and its guests are
disconnected, also after a restart), and the input log needs the session's token."""
import json

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from deadline import receive_until
from helpers import create_session, request


def socket(server, session, token):
    return connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={token}")


def stroke(key, number, x):
    return {"type": "stroke", "author": key, "stroke": number, "color": "#ffffff", "radius": 4,
            "points": [x, 10, x + 5, 20]}


def paints(ws):
    """The next `paint` event's ops."""
    return receive_until(ws, lambda m: m["type"] == "event" and m["name"] == "paint", what="paint")["ops"]


def error(ws):
    return receive_until(ws, lambda m: m["type"] == "error", what="an error")


def logged(server, session, token=None):
    headers = {"Authorization": "Bearer " + token} if token else {}
    return request(f"{server.url}/api/sessions/{session['id']}/inputs", headers=headers)


def draw_token(session):
    return session["urls"]["draw"].split("#token=")[1]


def test_a_guest_undoes_only_their_own_and_no_ops_are_refused_unlogged(start_playfield):
    server = start_playfield()
    session = create_session(server, "paintbrush")
    assert session["urls"]["control"].endswith("#token=" + session["token"])
    with socket(server, session, session["token"]) as owner, \
            socket(server, session, draw_token(session)) as guest:
        for ws in (owner, guest):
            receive_until(ws, lambda m: m["type"] == "hello", what="hello")
        owner.send(json.dumps(stroke("shared-key", 1, 100)))
        for ws in (owner, guest):
            assert paints(ws)[0]["op"] == "mark"
        # The guest claims the owner's key: it is not the owner's, so nothing of theirs to undo.
        guest.send(json.dumps({"type": "undo", "author": "shared-key", "id": "u1"}))
        refused = error(guest)
        assert refused["error"] == "refused" and "nothing of yours" in refused["message"]
        guest.send(json.dumps(stroke("shared-key", 1, 300)))
        for ws in (owner, guest):
            assert paints(ws)[0]["op"] == "mark"
        guest.send(json.dumps({"type": "undo", "author": "shared-key"}))
        assert paints(owner) == [{"op": "undo", "stroke": 2}]
        owner.send(json.dumps({"type": "clear"}))
        assert paints(owner) == [{"op": "clear"}]
        owner.send(json.dumps({"type": "clear"}))
        assert "already empty" in error(owner)["message"]
    assert logged(server, session)[0] == 401
    assert logged(server, session, draw_token(session))[0] == 403
    status, _, body = logged(server, session, session["token"])
    assert status == 200
    types = [entry["input"]["type"] for entry in body["inputs"]]
    assert types == ["stroke", "stroke", "undo", "clear"], types
    authors = {entry["input"].get("author") for entry in body["inputs"]} - {None}
    assert all(a.startswith(("controller-", "draw-")) for a in authors) and "shared-key" not in authors


def test_the_owner_replaces_the_drawing_link_and_the_old_one_is_refused(start_playfield):
    server = start_playfield()
    session = create_session(server, "paintbrush")
    old = draw_token(session)
    links = f"{server.url}/api/sessions/{session['id']}/links"
    assert request(links, "POST")[0] == 401
    assert request(links, "POST", headers={"Authorization": "Bearer " + old})[0] == 403
    with socket(server, session, old) as guest:
        assert receive_until(guest, lambda m: m["type"] == "hello", what="hello")["role"] == "drawer"
        status, _, body = request(links, "POST", headers={"Authorization": "Bearer " + session["token"]})
        assert status == 200, body
        new = body["tokens"]["draw"]
        assert new != old and body["urls"]["draw"].endswith("#token=" + new)
        # The guest who joined with the old link is disconnected, and cannot come back with it.
        with pytest.raises(ConnectionClosed) as closed:
            receive_until(guest, lambda m: False, what="the close")
        assert closed.value.rcvd.code == 1008 and "replaced" in closed.value.rcvd.reason
    with pytest.raises(InvalidStatus) as refused:
        socket(server, session, old)
    assert refused.value.response.status_code == 403
    with socket(server, session, new) as guest:
        assert receive_until(guest, lambda m: m["type"] == "hello", what="hello")["role"] == "drawer"
    with socket(server, session, session["token"]) as owner:
        assert receive_until(owner, lambda m: m["type"] == "hello", what="hello")["drawToken"] == new

    # A restart keeps the new link and still refuses the old one.
    server.stop()
    again = start_playfield(database=server.database)
    with pytest.raises(InvalidStatus):
        socket(again, session, old)
    with socket(again, session, new) as guest:
        assert receive_until(guest, lambda m: m["type"] == "hello", what="hello")["role"] == "drawer"
    # A session without seats has no links to replace.
    maze = create_session(again, "maze")
    assert request(f"{again.url}/api/sessions/{maze['id']}/links", "POST",
                   headers={"Authorization": "Bearer " + maze["token"]})[0] == 404


def test_oembed_vouches_only_for_this_servers_pages_and_sends_cors(playfield):
    host = playfield.url[len("http://"):]
    ours = f"http://{host}/demos/paintbrush?session=abc&token=SECRET#token=MORE"
    status, headers, body = request(f"{playfield.url}/oembed?url={_quote(ours)}")
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
    assert "SECRET" not in body["html"] and "MORE" not in body["html"]
    assert f'src="http://{host}/embed/paintbrush?session=abc"' in body["html"]
    for foreign in ["https://evil.example/embed/maze", f"http://{host}@evil.example/demos/maze"]:
        status, headers, _ = request(f"{playfield.url}/oembed?url={_quote(foreign)}")
        assert status == 404 and headers["Access-Control-Allow-Origin"] == "*", foreign
    status, _, _ = request(f"{playfield.url}/oembed?url={_quote(ours)}&url={_quote(ours)}")
    assert status == 400


def test_tile_errors_carry_cors_and_expose_retry_after(playfield):
    for path in ["/tiles/mandelbrot/0/0/0.png?iter=100&iter=200", "/tiles/mandelbrot/0/9/0.png"]:
        status, headers, _ = request(playfield.url + path)
        assert status >= 400
        assert headers["Access-Control-Allow-Origin"] == "*", path
        assert "Retry-After" in headers["Access-Control-Expose-Headers"], path


def _quote(text):
    import urllib.parse
    return urllib.parse.quote(text, safe="")


def test_refused_no_ops_do_not_fill_the_owners_log(start_playfield):
    server = start_playfield("--inputs-per-session", "20")
    session = create_session(server, "paintbrush")
    with socket(server, session, draw_token(session)) as guest:
        receive_until(guest, lambda m: m["type"] == "hello", what="hello")
        # Three times the log's bound, one after another: each is refused and takes no room.
        for number in range(60):
            guest.send(json.dumps({"type": "undo", "author": "nothing", "id": number}))
            assert error(guest)["error"] == "refused"
    with socket(server, session, session["token"]) as owner:
        receive_until(owner, lambda m: m["type"] == "hello", what="hello")
        owner.send(json.dumps(stroke("k", 1, 50)))
        assert paints(owner)[0]["op"] == "mark"
