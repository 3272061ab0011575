"""Client: every HTTP method against the real server, and bad input refused with the server's
words."""
import struct
import zlib

import numpy as np
import pytest

from playfield_client import Client, HTTPError, PlayfieldError, SessionInfo
from playfield_client.tiles import decode_png


def test_sessions_are_created_listed_shown_and_deleted(client):
    info = client.create_session("bouncing-balls", {"balls": 3}, seed=11)
    assert isinstance(info, SessionInfo)
    assert info.kind == "bouncing-balls" and info.config["balls"] == 3
    assert len(info.id) == 22 and len(info.token) == 22
    assert info.urls["socket"] == "/ws/sessions/" + info.id
    assert info.id in {s.id for s in client.sessions()}
    shown = client.session(info.id)
    assert shown.id == info.id and shown.token is None and shown.config == info.config
    client.delete_session(info.id, info.token)
    assert info.id not in {s.id for s in client.sessions()}
    with pytest.raises(HTTPError) as missing:
        client.session(info.id)
    assert missing.value.status == 404 and "no session" in missing.value.message


def test_the_kinds_are_the_servers_session_demos(client):
    demos = client.demos()
    assert [demo["name"] for demo in demos if demo["session"]] == client.kinds()
    assert {"maze", "holes", "paintbrush"} <= set(client.kinds())
    assert "mandelbrot" in {demo["name"] for demo in demos} - set(client.kinds())
    for kind in client.kinds():
        info = client.create_session(kind)
        assert info.kind == kind
        client.delete_session(info)


def test_the_same_seed_gives_the_same_bouncing_balls(client):
    first = client.create_session("bouncing-balls", {"balls": 5, "radiusMin": 5, "radiusMax": 20}, seed=7)
    second = client.create_session("bouncing-balls", {"balls": 5, "radiusMin": 5, "radiusMax": 20}, seed=7)
    other = client.create_session("bouncing-balls", {"balls": 5, "radiusMin": 5, "radiusMax": 20}, seed=8)
    radii = []
    for info in (first, second, other):
        with client.connect(info) as session:
            radii.append(session.hello.data["radii"])
        client.delete_session(info)
    assert radii[0] == radii[1]
    assert radii[0] != radii[2]


@pytest.mark.parametrize("kind, config, seed, field, words", [
    ("marbles", {}, None, "kind", "kind must be one of: bouncing-balls, maze, holes, tag-cloud"),
    ("bouncing-balls", {"balls": 0}, None, "config.balls", "balls: must be an integer from 1 to 10000"),
    ("maze", {"colour": 1}, None, "config.colour", "colour"),
    ("holes", {}, -1, "seed", "seed must be an integer from 0 to 9007199254740991"),
    ("holes", {}, 2**53, "seed", "seed must be an integer from 0 to 9007199254740991"),
    ("holes", {}, 1.5, "seed", "seed must be an integer"),
])
def test_bad_sessions_are_refused_naming_the_field(client, kind, config, seed, field, words):
    with pytest.raises(HTTPError) as refused:
        client.create_session(kind, config, seed=seed)
    assert refused.value.status == 400
    assert refused.value.field == field
    assert words in refused.value.message
    assert words in str(refused.value) and "POST /api/sessions" in str(refused.value)


def test_deleting_needs_the_right_token(client):
    info = client.create_session("maze")
    with pytest.raises(HTTPError) as anonymous:
        client.delete_session(info.id)
    assert anonymous.value.status == 401
    with pytest.raises(HTTPError) as wrong:
        client.delete_session(info.id, "A" * 22)
    assert wrong.value.status == 403 and "token" in wrong.value.message
    client.delete_session(info)
    with pytest.raises(HTTPError) as gone:
        client.delete_session(info)
    assert gone.value.status == 404


def test_state_inputs_and_replay(client):
    info = client.create_session("maze", seed=3)
    with client.connect(info) as session:
        session.stop()
        session.toggle(1, 1)
        session.tilt(0.5, 0)
        frame = session.step(5)
    state = client.state(info.id)
    assert state["tick"] == frame.tick and state["running"] is False
    assert len(state["stateHash"]) == 16
    logged = client.inputs(info)
    assert [entry["input"]["type"] for entry in logged["inputs"]] == ["toggle", "tilt"]
    assert logged["more"] is False
    assert client.replay_state(info.id, frame.tick)["stateHash"] == state["stateHash"]
    with pytest.raises(HTTPError) as future:
        client.replay_state(info.id, frame.tick + 1000)
    assert future.value.field == "tick"
    client.delete_session(info)


def test_mazes_are_saved_listed_loaded_and_deleted(client):
    cells = ["#..", "...", "..#"]
    saved = client.save_maze("client-test", cells)
    assert saved.name == "client-test" and saved.cells == cells and saved.token
    assert "client-test" in {m.name for m in client.mazes()}
    assert client.maze("client-test").cells == cells
    with pytest.raises(HTTPError) as foreign:
        client.save_maze("client-test", ["..."] * 3)
    assert foreign.value.status == 403, "replacing needs the owner token"
    assert client.save_maze("client-test", ["..."] * 3, token=saved.token).cells == ["..."] * 3
    with pytest.raises(HTTPError) as wrong:
        client.delete_maze("client-test", "not-the-token")
    assert wrong.value.status == 403
    client.delete_maze("client-test", saved.token)
    assert "client-test" not in {m.name for m in client.mazes()}
    with pytest.raises(HTTPError) as missing:
        client.maze("client-test")
    assert missing.value.status == 404
    with pytest.raises(HTTPError) as bad:
        client.save_maze("bad", ["#x"])
    assert bad.value.status == 400 and bad.value.field is not None
    with pytest.raises(ValueError):
        client.maze("")


def test_a_finished_holes_game_enters_the_high_scores(client):
    # One ball and one hole on the start: the first ball is lost at once.
    playing = client.create_session("holes")
    with client.connect(playing) as session:
        session.stop()
        with pytest.raises(HTTPError) as early:
            client.enter_high_score(playing.id, playing.token, "early")
    assert early.value.status == 409 and "no finished game" in early.value.message
    client.delete_session(playing)
    # Only default games enter the table: roll each of the three balls into the nearest hole.
    info = client.create_session("holes")
    with client.connect(info) as session:
        session.stop()
        frame = session.step(1)
        for _ in range(400):
            if frame.game_over:
                break
            if frame.ball:
                (bx, by), holes = frame.ball, frame.holes
                hx, hy = min(holes, key=lambda h: (h[0] - bx) ** 2 + (h[1] - by) ** 2)
                session.tilt(max(-1, min(1, (hx - bx) / 20)), max(-1, min(1, (by - hy) / 20)))
            frame = session.step(20)
        assert frame.game_over and frame.phase == "over"
    with pytest.raises(HTTPError) as stolen:
        client.enter_high_score(info.id, "B" * 22, "thief")
    assert stolen.value.status == 403 and stolen.value.field == "token"
    rank = client.enter_high_score(info.id, info.token, "client")
    rows = client.high_scores()
    assert [row.rank for row in rows] == list(range(1, len(rows) + 1))
    if rank is None:
        assert "client" not in {row.name for row in rows}
    else:
        assert rows[rank - 1].name == "client" and rows[rank - 1].score == frame.score
    with pytest.raises(HTTPError) as twice:
        client.enter_high_score(info.id, info.token, "client")
    assert twice.value.status == 409 and "already" in twice.value.message
    client.delete_session(info)


def test_tiles_come_as_png_bytes_or_arrays(client):
    png = client.tile(0, 0, 0, array=False)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = client.tile(0, 0, 0)
    assert isinstance(image, np.ndarray)
    assert image.dtype == np.uint8 and image.shape == (256, 256, 3)
    assert np.array_equal(image, decode_png(png))
    # The middle of the whole-set tile is c = -0.5: inside the set, drawn black.
    assert image[128, 128].tolist() == [0, 0, 0]
    assert len({tuple(p) for p in image.reshape(-1, 3)[::97]}) > 5
    grey = client.tile(1, 0, 1, iterations=50, palette="gray")
    assert grey.shape == (256, 256, 3)
    with pytest.raises(HTTPError) as outside:
        client.tile(1, 5, 0)
    assert outside.value.status == 400 and "outside" in outside.value.message
    with pytest.raises(HTTPError) as bad:
        client.tile(0, 0, 0, palette="plaid")
    assert bad.value.status == 400 and "palette" in bad.value.message


def _png(width, height, colour, rows):
    """A PNG with each row's filter chosen by the caller: `rows` is [(filter, bytes)]."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    data = b"".join(bytes([kind]) + row for kind, row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(data)) + chunk(b"IEND", b"")


def _filter(kind, row, previous, bpp):
    out = bytearray()
    for x, value in enumerate(row):
        left = row[x - bpp] if x >= bpp else 0
        up = previous[x]
        corner = previous[x - bpp] if x >= bpp else 0
        if kind == 0:
            guess = 0
        elif kind == 1:
            guess = left
        elif kind == 2:
            guess = up
        elif kind == 3:
            guess = (left + up) // 2
        else:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            guess = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
        out.append((value - guess) & 0xFF)
    return bytes(out)


def test_the_png_decoder_undoes_every_row_filter():
    rng = np.random.default_rng(5)
    pixels = rng.integers(0, 256, size=(10, 7, 3), dtype=np.uint8)
    rows, previous = [], bytes(7 * 3)
    for y in range(10):
        row = pixels[y].tobytes()
        kind = y % 5
        rows.append((kind, _filter(kind, row, previous, 3)))
        previous = row
    assert np.array_equal(decode_png(_png(7, 10, 2, rows)), pixels)
    with pytest.raises(PlayfieldError):
        decode_png(b"GIF89a")


def test_bad_addresses_are_refused_clearly():
    with pytest.raises(ValueError):
        Client("ftp://example.com")
    with pytest.raises(ValueError):
        Client("127.0.0.1:8080")
    with pytest.raises(PlayfieldError) as down:
        Client("http://127.0.0.1:9", timeout=2).sessions()
    assert "cannot reach http://127.0.0.1:9" in str(down.value)


def test_client_and_async_client_are_one_api():
    """`AsyncClient`'s coroutines are written out (typed, no `setattr`); each has its `Client`
    twin's parameters, and neither has a public method the other lacks (but `street_soccer`,
    a blocking match that drives its own socket). `compare` gives an `AsyncCompare`."""
    import inspect

    from playfield_client import AsyncClient

    def public(cls):
        return {name: member for name, member in vars(cls).items()
                if not name.startswith("_") and callable(member)}

    blocking, asynchronous = public(Client), public(AsyncClient)
    assert set(blocking) - set(asynchronous) == {"street_soccer"}
    assert set(asynchronous) <= set(blocking)
    for name, method in asynchronous.items():
        if name == "connect":
            continue
        if name == "compare":
            assert (inspect.signature(method).parameters
                    == inspect.signature(blocking[name]).parameters)
            continue
        assert inspect.signature(method) == inspect.signature(blocking[name]), name
