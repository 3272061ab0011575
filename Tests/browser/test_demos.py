"""The simulation pages in a real browser: they draw, their controls work, they reconnect,
they embed, and they fit a phone."""
import http.server
import json
import threading
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from axe import assert_accessible
from deadline import Deadline, receive_until, wait_until
from demo_pages import (
    create_session, newest_tick, open_demo, open_game_over, wait_for_drawing, wait_for_pixel,
    wait_for_tick_after)

# Colours each page must show once it draws (the seeds' look; values from the models' hello).
SEED_COLOURS = {
    "bouncing-balls": {"#000000", "#ffd400", "#ffffff"},  # box, yellow ball, white ball
    "maze": {"#000000", "#ffd400"},  # empty cells, ball
    "holes": {"#1b7a2e", "#ffd400", "#000000", "#ffffff"},  # table, ball, holes, flag
}


RECORD_EVENTS = """() => {
  window.seenEvents = [];
  const handlers = window.playfield.client.handlers;
  const original = handlers.event;
  handlers.event = (message) => { window.seenEvents.push(message.name); original(message); };
}"""


RECORD_SENDS = """() => {
  window.sent = [];
  const client = window.playfield.client;
  const original = client.send.bind(client);
  client.send = (message) => { window.sent.push(message); return original(message); };
}"""


def label_positions(page, frame=None):
    return (frame or page.page).locator(".cloud a").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y]; })")


def session_kinds(server):
    """Every session demo's kind, as the server lists them (`/api/demos`)."""
    with urllib.request.urlopen(server.url + "/api/demos", timeout=5) as response:
        return [demo["name"] for demo in json.load(response)["demos"] if demo["session"]]


# Kinds whose frames stop while nothing visible changes (`Simulation.lastStepChangedFrame`).
FRAMES_ON_CHANGE = {"street-soccer"}


def test_every_session_page_creates_a_session_streams_and_draws(playfield, watched):
    kinds = session_kinds(playfield)
    assert len(kinds) >= 5, kinds
    for kind in kinds:
        page_creates_a_session_streams_and_draws(playfield, watched, kind)


def page_creates_a_session_streams_and_draws(playfield, watched, kind):
    page = open_demo(watched, playfield.url + "/demos/" + kind)
    query = page.page.evaluate("() => Object.fromEntries(new URLSearchParams(location.search))")
    assert set(query) == {"session"}, "the address names the session, and holds no token"
    assert page.page.evaluate("() => location.hash") == ""
    assert page.page.evaluate("() => window.playfield.client.role") == "controller"
    assert page.page.locator(".demo-role").inner_text() == "You control this session."
    share = page.page.locator(".demo-share a", has_text="watch link").get_attribute("href")
    assert share.endswith(f"/demos/{kind}?session={query['session']}")
    status = page.page.locator(".status").inner_text()
    assert "connected" in status and "fps" in status and "rtt" in status
    # NB: models that send a frame only when it changed (docs/protocol.md) send none while at
    # rest: a new maze's ball, a match waiting for a person's move.
    if kind not in FRAMES_ON_CHANGE:
        ticks = newest_tick(page)
        wait_for_tick_after(page, ticks + 10)
    if kind == "tag-cloud":
        positions = label_positions(page)
        assert len(positions) == 24
        assert len({(round(x), round(y)) for x, y in positions}) == 24, "labels are spread out"
        links = page.page.locator(".cloud a[href]")
        assert links.count() >= 13
        assert page.page.locator(".cloud a", has_text="Maze").get_attribute("href") == "/demos/maze"
    elif kind in SEED_COLOURS:
        colours = page.canvas_colours("canvas.view")
        assert len(colours) >= 3, f"the canvas looks blank: {colours}"
        missing = SEED_COLOURS[kind] - set(colours)
        assert not missing, f"{kind} lacks its seed colours {missing}; has {list(colours)[:8]}"
    page.screenshot(f"demo-{kind}")


def test_a_bare_page_resumes_this_browsers_session_and_new_starts_another(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/tag-cloud")
    p = page.page
    first = p.evaluate("() => window.playfield.client.id")
    p.goto(playfield.url + "/demos/tag-cloud")
    p.wait_for_function("() => window.playfield?.hello")
    assert p.evaluate("() => window.playfield.client.id") == first
    assert p.evaluate("() => window.playfield.client.role") == "controller"
    p.locator(".demo-share a", has_text="new session").click()
    p.wait_for_function("() => window.playfield?.hello")
    second = p.evaluate("() => window.playfield.client.id")
    assert second != first
    assert p.evaluate("() => new URLSearchParams(location.search).get('session')") == second


def test_the_address_can_configure_a_new_session(playfield, watched):
    config = '{"balls":40,"radiusMax":8,"radiusMin":4}'
    page = open_demo(watched, playfield.url + "/demos/bouncing-balls?config=" + config)
    p = page.page
    assert p.evaluate("() => window.playfield.hello.config.balls") == 40
    assert p.locator('[data-readout="count"]').inner_text() == "40"
    assert "config" not in p.evaluate("() => location.search")
    p.goto(playfield.url + "/demos/tag-cloud?tags=Swift,Rust|https://www.rust-lang.org/,Go")
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0")
    labels = p.locator(".cloud a")
    assert labels.all_inner_texts() == ["Swift", "Rust", "Go"]
    assert labels.nth(1).get_attribute("href") == "https://www.rust-lang.org/"
    p.goto(playfield.url + '/demos/maze?config={"rows":100}')
    p.locator(".demo-notice").wait_for()
    assert "rows" in p.locator(".demo-notice").inner_text()
    page.allow(lambda problem: "400" in problem)


def test_bouncing_balls_stop_step_start_and_add(playfield, watched):
    # Two balls, as the seed began (the page's own start is the gallery card's 24).
    page = open_demo(watched, playfield.url + "/demos/bouncing-balls?new&balls=2")
    p = page.page
    run = p.locator('[data-action="run"]')
    assert run.inner_text() == "STOP"
    run.click()
    p.wait_for_function("() => window.playfield.running === false")
    assert run.inner_text() == "START"
    frozen = newest_tick(page)
    time.sleep(0.3)
    assert newest_tick(page) == frozen, "STOP freezes the ticks"
    p.locator('[data-action="step"]').click()
    wait_for_tick_after(page, frozen)
    assert newest_tick(page) == frozen + 1, "STEP advances exactly one tick"
    # Grab ball 0 and flick it towards the far wall: a `throw` that the next STEP applies.
    p.evaluate(RECORD_SENDS)
    box = p.locator("canvas.view").bounding_box()
    scale = box["width"] / 320
    x0, y0 = p.evaluate("() => Array.from(window.playfield.frames.newest?.positions.slice(0, 2))")
    p.mouse.move(box["x"] + x0 * scale, box["y"] + y0 * scale)
    p.mouse.down()
    direction = 1 if x0 < 160 else -1
    # The flick, 10 ms a step as a hand makes it, and its release: in one task of the page,
    # since its speed is measured over the last 100 ms of event times, and a busy machine
    # can put more than that between two steps sent from here one by one.
    p.evaluate("""([x, y, dx]) => {
      const canvas = document.querySelector('canvas.view');
      const fire = (type, step) => canvas.dispatchEvent(new PointerEvent(type, {
        pointerId: 1, isPrimary: true, bubbles: true, clientX: x + dx * step, clientY: y }));
      for (let step = 1; step <= 6; step += 1) {
        const until = performance.now() + 10;
        while (performance.now() < until) {}
        fire('pointermove', step);
      }
      fire('pointerup', 6);
    }""", [box["x"] + x0 * scale, box["y"] + y0 * scale, direction * 20])
    p.mouse.up()
    throw = p.evaluate("() => window.sent.find((m) => m.type === 'throw')")
    assert throw["index"] == 0 and throw["vx"] * direction > 0 and abs(throw["vy"]) < abs(throw["vx"])
    p.locator('[data-action="step"]').click()
    wait_for_tick_after(page, frozen + 1)
    moved = (p.evaluate("() => window.playfield.frames.newest?.positions[0]") - x0) * direction
    assert moved > 0, f"the flicked ball moves the way it was flicked ({moved:.2f} px)"
    frozen += 2

    # A tap on an empty spot adds a ball there (a tap on a ball would throw it instead): take
    # the corner farthest from both balls.
    box = p.locator("canvas.view").bounding_box()
    balls = p.evaluate("() => Array.from(window.playfield.frames.newest?.positions)")
    corners = [(0.12, 0.08), (0.88, 0.92), (0.12, 0.92), (0.88, 0.08)]

    def clearance(corner):
        cx, cy = corner[0] * 320, corner[1] * 480
        return min(((balls[i] - cx) ** 2 + (balls[i + 1] - cy) ** 2) ** 0.5 for i in range(0, len(balls), 2))

    corner = max(corners, key=clearance)
    p.mouse.click(box["x"] + corner[0] * box["width"], box["y"] + corner[1] * box["height"])
    run.click()  # START: the queued add-ball applies on the next tick
    p.wait_for_function("() => window.playfield.running === true")
    p.wait_for_function("() => window.playfield.frames.newest?.count === 3")
    assert p.locator('[data-readout="count"]').inner_text() == "3"
    wait_for_tick_after(page, frozen + 20)
    page.screenshot("demo-bouncing-balls-added")


def test_maze_tap_toggles_a_block_and_keys_tilt(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/maze")
    p = page.page
    box = p.locator("canvas.view").bounding_box()
    cell = box["width"] / 12
    x, y = 1.5 * cell, 2.5 * cell  # row 2, column 1: far from the ball at the centre
    assert page.pixel("canvas.view", x, y) == "#000000"
    p.mouse.click(box["x"] + x, box["y"] + y)
    p.wait_for_function("() => window.playfield.frames.newest?.revision === 1")
    wait_for_pixel(page, "canvas.view", x, y, "#d3d3d3")  # a tap adds a light-grey block
    page.screenshot("demo-maze-block")

    start = p.evaluate("() => window.playfield.frames.newest?.ball[0]")
    p.keyboard.down("ArrowRight")
    p.wait_for_function("() => window.playfield.frames.newest?.tilt[0] > 0.5")
    p.wait_for_function(f"() => window.playfield.frames.newest?.ball[0] > {start} + 40")
    p.keyboard.up("ArrowRight")
    p.wait_for_function("() => window.playfield.frames.newest?.tilt[0] === 0")

    # The tilt pad: holding the pointer near its top edge tilts up (towards row 0).
    pad = p.locator(".tilt-pad").bounding_box()
    p.mouse.move(pad["x"] + pad["width"] / 2, pad["y"] + 4)
    p.mouse.down()
    p.wait_for_function("() => window.playfield.frames.newest?.tilt[1] > 0.8")
    p.mouse.up()
    p.wait_for_function("() => window.playfield.frames.newest?.tilt[1] === 0")

    p.locator('[data-action="clear"]').click()
    p.wait_for_function("() => window.playfield.frames.newest?.revision === 2")
    wait_for_pixel(page, "canvas.view", x, y, "#000000")  # CLEAR removes every block (once drawn)


def test_holes_scores_game_over_and_restart(playfield, watched):
    page = open_game_over(watched, playfield)
    p = page.page
    overlay = p.locator(".overlay")
    overlay.locator("text=GAME OVER").wait_for()
    assert p.locator('[data-readout="balls"]').inner_text() == "0"
    assert p.locator('[data-readout="score"]').inner_text() == "0"
    assert p.locator('[data-readout="level"]').inner_text() == "1"
    page.screenshot("demo-holes-game-over")
    p.evaluate(RECORD_EVENTS)
    overlay.locator('[data-action="restart"]').click()
    p.wait_for_function("() => window.seenEvents.includes('reset')")
    p.wait_for_function("() => window.playfield.frames.newest?.gameOver === false")


def test_tag_cloud_drag_turns_it_with_inertia(playfield, watched):
    session = create_session(playfield, "tag-cloud", {"autoRotate": 0})
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    before = label_positions(page)
    time.sleep(0.3)
    assert label_positions(page) == before, "without a drag (and no idle spin) nothing moves"
    box = p.locator(".cloud").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    p.mouse.move(cx - 100, cy)
    p.mouse.down()
    for step in range(1, 11):
        p.mouse.move(cx - 100 + step * 20, cy + step * 3)
        time.sleep(0.016)
    p.mouse.up()
    p.wait_for_function("() => window.playfield.frames.newest?.dragging === false")
    after = label_positions(page)
    moved = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(before, after))
    assert moved > 24 * 10, f"a drag turns the cloud (moved {moved:.0f} px in all)"
    # It keeps turning after release (inertia): the next frames move it on.
    wait_until(lambda: label_positions(page) != after, 10, "the cloud turning on after release")
    assert p.url == page.page.url  # the drag did not follow a link
    page.screenshot("demo-tag-cloud-dragged")


def test_holes_keys_steer_the_ball_to_the_flag(playfield, watched):
    # One hole, far from the diagonal the ball rolls along from the bottom-right corner.
    session = create_session(playfield, "holes", {"holes": [[0.95, 0.05]]})
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    p.keyboard.down("ArrowLeft")
    p.keyboard.down("KeyW")  # WASD works as well as the arrows
    p.wait_for_function("() => window.playfield.frames.newest?.score === 1", timeout=15_000)
    p.keyboard.up("ArrowLeft")
    p.keyboard.up("KeyW")
    p.wait_for_function("() => document.querySelector('[data-readout=\"score\"]').textContent === '1'")
    assert p.locator('[data-readout="balls"]').inner_text() == "3"
    assert "Flag!" in p.locator(".demo-notice").inner_text()


def first_ball(server, tilt):
    """Where the first ball of a new default holes game ends, tilted `tilt` from tick 0:
    "score" or "lost" (ticks counted on a stopped session, so no clock is involved)."""
    session = create_session(server, "holes")
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url, max_size=None) as ws:
        receive_until(ws, lambda m: m["type"] == "hello", what="hello")
        ws.send(json.dumps({"type": "stop"}))
        receive_until(ws, lambda m: m["type"] == "status" and not m["running"], what="stopped")
        ws.send(json.dumps({"type": "tilt", "x": tilt[0], "y": tilt[1]}))
        deadline = Deadline(60, "the first ball's end")
        while True:
            ws.send(json.dumps({"type": "step", "count": 30}))
            frame = receive_until(ws, lambda m: m["type"] == "frame", seconds=deadline.left())
            if frame["score"] or frame["ballsLeft"] < 3:
                return "score" if frame["score"] else "lost"


@pytest.mark.parametrize("steer", ["keys", "pad"])
def test_keys_and_pad_tilt_as_far_as_the_seed_so_a_new_player_can_score(playfield, watched, steer):
    """Issue 23: a new player could not score in holes with the keys or the pad, while a script
    scored at once. Up-left from the start on the default table (the seed's five holes) reaches
    the flag at the seed's full tilt, 1 g on each axis, and falls into the middle hole at the
    keys' old 0.6 g; keys and the pad's corner now tilt that far."""
    assert first_ball(playfield, (-1, 1)) == "score"
    assert first_ball(playfield, (-0.6, 0.6)) == "lost"
    session = create_session(playfield, "holes")
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    p.evaluate(RECORD_SENDS)
    if steer == "keys":
        p.keyboard.down("ArrowLeft")
        p.keyboard.down("ArrowUp")
    else:
        pad = p.locator(".tilt-pad").bounding_box()
        p.mouse.move(pad["x"] + pad["width"] / 2, pad["y"] + pad["height"] / 2)
        p.mouse.down()
        p.mouse.move(pad["x"] - 20, pad["y"] - 20, steps=4)  # past the pad's top-left corner
    p.wait_for_function("() => window.sent.some((m) => m.type === 'tilt' && m.x === -1 && m.y === 1)")


def test_a_deleted_session_ends_the_page(playfield, watched):
    session = create_session(playfield, "maze")
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    request = urllib.request.Request(
        playfield.url + session["urls"]["api"], method="DELETE",
        headers={"Authorization": "Bearer " + session["token"]})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 204
    page.page.wait_for_function("() => window.playfield.client.state === 'ended'")
    assert "ended: the session was deleted" in page.page.locator(".status").inner_text()


def test_a_refused_token_falls_back_to_watching(playfield, watched):
    session = create_session(playfield, "maze")
    page = watched()
    p = page.page
    p.goto(playfield.url + session["urls"]["watch"] + "&token=not-the-token")
    p.wait_for_function("() => window.playfield?.hello?.role === 'spectator'", timeout=15_000)
    assert p.locator(".demo-role").inner_text() == "You are watching."
    assert "refused" in p.locator(".demo-notice").inner_text()
    assert p.evaluate("() => new URLSearchParams(location.search).has('token')") is False
    # The refused handshakes (403) show in the console; they are the point of this test.
    page.allow(lambda problem: "403" in problem or "WebSocket" in problem)


def test_spectators_watch_without_controls(playfield, watched):
    session = create_session(playfield, "bouncing-balls")
    page = open_demo(watched, playfield.url + session["urls"]["watch"])
    p = page.page
    assert p.evaluate("() => window.playfield.client.role") == "spectator"
    assert p.locator(".demo-role").inner_text() == "You are watching."
    for action in ("run", "step", "reset"):
        assert p.locator(f'[data-action="{action}"]').is_disabled()
    assert "watching" in p.locator(".status").inner_text()


def test_reconnects_after_a_drop_and_after_a_server_restart(start_playfield, watched):
    server = start_playfield()
    page = open_demo(watched, server.url + "/demos/maze")
    p = page.page
    session = p.evaluate("() => window.playfield.client.id")

    # The socket drops: the client reconnects to the same session.
    p.evaluate("() => window.playfield.client.drop()")
    p.wait_for_function("() => window.playfield.client.connections === 2", timeout=10_000)
    p.wait_for_function("() => window.playfield.client.state === 'connected'")

    # The server goes away and comes back on the same port with the same database.
    tick = newest_tick(page)
    server.stop()
    p.wait_for_function("() => window.playfield.client.state === 'reconnecting'", timeout=10_000)
    assert "connecting" in p.locator(".status").inner_text()  # reconnecting, or trying again
    again = start_playfield("--port", str(server.port), database=server.database)
    p.wait_for_function("() => window.playfield.client.connections === 3", timeout=20_000)
    wait_for_tick_after(page, tick)
    assert p.evaluate("() => window.playfield.client.id") == session, "the same session resumed"
    assert again.alive()
    # While the server was down the browser logged failed connections; those are expected.
    page.allow(lambda problem: "ERR_CONNECTION_REFUSED" in problem or "WebSocket" in problem)


@pytest.fixture
def host_page():
    """Serves one HTML page from another origin (another port), as a site embedding a demo."""
    pages = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 204)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def serve(html):
        pages["/"] = html
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    server.shutdown()
    server.server_close()


def test_embed_page_works_in_an_iframe(playfield, watched, host_page):
    page = watched()
    p = page.page
    p.goto(host_page(
        '<!doctype html><title>host</title><p>A site that embeds a demo:</p>'
        '<script>window.heard = []; addEventListener("message", (e) => heard.push(e.data));</script>'
        f'<iframe src="{playfield.url}/embed/holes" width="320" height="460"></iframe>'))
    frame = p.frame_locator("iframe")
    handle = p.wait_for_selector("iframe").content_frame()
    handle.wait_for_function(
        "() => window.playfield?.hello && window.playfield.frames.received > 3"
        " && window.playfield.status.drawn.rate() > 0", timeout=10_000)
    box = frame.locator("canvas.view").bounding_box()
    assert box["width"] <= 320 and box["height"] <= 460, "the demo sizes itself to its frame"
    assert box["height"] > 200, "and uses the room it has"
    colours = page.canvas_colours("canvas.view", frame=handle)
    assert SEED_COLOURS["holes"] <= set(colours)
    assert handle.evaluate("() => document.querySelector('.site-header')") is None
    page.screenshot("embed-holes")

    # The host page hears what happens and can drive the demo with postMessage (protocol v1,
    # docs/embedding.md; test_embedding.py tests it through the host library).
    heard = p.evaluate("() => window.heard.map((m) => m.playfield)")
    ready = next(m for m in heard if m["type"] == "ready")
    assert ready["v"] == 1 and ready["demo"] == "holes" and ready["role"] == "controller"
    p.evaluate("""() => document.querySelector("iframe").contentWindow.postMessage(
        { playfield: { v: 1, type: "pause" } }, "*")""")
    handle.wait_for_function("() => window.playfield.running === false")
    p.wait_for_function(
        "() => window.heard.some((m) => m.playfield.type === 'state' && !m.playfield.running)")


def test_phone_viewport_with_touch(playfield, watched):
    page = open_demo(
        watched, playfield.url + "/demos/maze", viewport=(390, 844), has_touch=True, is_mobile=True,
        device_scale_factor=2)
    p = page.page
    assert p.evaluate("() => document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    box = p.locator("canvas.view").bounding_box()
    assert 300 <= box["width"] <= 390
    cell = box["width"] / 12
    x, y = 10.5 * cell, 1.5 * cell
    p.touchscreen.tap(box["x"] + x, box["y"] + y)
    p.wait_for_function("() => window.playfield.frames.newest?.revision === 1")
    wait_for_pixel(page, "canvas.view", x, y, "#d3d3d3")  # a touch adds a block (once drawn)
    pad = p.locator(".tilt-pad").bounding_box()
    assert pad["y"] + pad["height"] <= 844 * 1.4, "the tilt pad is within reach"
    page.screenshot("phone-maze")


@pytest.mark.timeout(600)  # NB: every session kind's page, twice, on a machine maybe busy
def test_the_address_never_holds_the_control_token(playfield, watched):
    """Issue 23: people copy the address bar to share; a token there hands over control. The
    page keeps the token and takes it out of the address (and its history entry) at once; a
    reload still controls, and the copied address only watches. Every session kind's own page
    (as the server lists them), and one frame."""
    kinds = session_kinds(playfield)
    assert "paintbrush" in kinds and "maze" in kinds, kinds
    for place, kind in [("demos", kind) for kind in kinds] + [("embed", "maze")]:
        address_never_holds_the_control_token(playfield, watched, place, kind)


def address_never_holds_the_control_token(playfield, watched, place, kind):
    session = create_session(playfield, kind)
    page = None
    for link in (f"/{place}/{kind}?session={session['id']}&token={session['token']}",
                 f"/{place}/{kind}?session={session['id']}#token={session['token']}"):
        # NB: one live page at a time besides the stranger's: dozens of them animating at once
        # on a busy machine took this test past its timeout.
        if page is not None:
            page.close()
        page = open_demo(watched, playfield.url + link)
        p = page.page
        assert p.evaluate("() => window.playfield.client.role") == "controller"
        address = p.evaluate("() => location.href")
        assert session["token"] not in address and "token" not in address, address
        assert address == f"{playfield.url}/{place}/{kind}?session={session['id']}"
        # What the page offers to copy is the same watch link, without the token.
        if place == "demos":
            share = p.locator(".demo-share .share-link").get_attribute("href")
            assert share == f"{playfield.url}/demos/{kind}?session={session['id']}"
        p.reload()
        wait_for_drawing(page)
        assert p.evaluate("() => window.playfield.client.role") == "controller", "a reload controls"
        # The copied address, opened in another browser, only watches.
        stranger = open_demo(watched, address)
        assert stranger.page.evaluate("() => window.playfield.client.role") == "spectator"
        stranger.close()
    assert_accessible(page)
    page.close()


def test_without_storage_the_token_waits_in_the_fragment(playfield, watched):
    """Where storage is refused (private modes, sandboxed frames) a reload still controls: the
    token stays in the fragment, which no server and no Referer header sees."""
    session = create_session(playfield, "maze")
    page = watched()
    p = page.page
    p.add_init_script("Storage.prototype.setItem = () => { throw new DOMException('no', 'SecurityError'); };")
    p.goto(f"{playfield.url}/demos/maze?session={session['id']}&token={session['token']}")
    wait_for_drawing(page)
    assert p.evaluate("() => location.search") == f"?session={session['id']}"
    assert p.evaluate("() => location.hash") == f"#token={session['token']}"
    p.reload()
    wait_for_drawing(page)
    assert p.evaluate("() => window.playfield.client.role") == "controller"


def delete_session(server, page):
    """Deletes the session `page` controls (with the token this browser keeps)."""
    session_id, token = page.page.evaluate("() => [window.playfield.client.id, window.playfield.client.token]")
    request = urllib.request.Request(f"{server.url}/api/sessions/{session_id}", method="DELETE",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 204


@pytest.mark.parametrize("count", [500, 10_000])
def test_any_ball_count_up_to_ten_thousand_starts_from_the_address(playfield, watched, count):
    page = open_demo(watched, f"{playfield.url}/demos/bouncing-balls?balls={count}")
    hello = page.page.evaluate("() => window.playfield.hello")
    assert len(hello["radii"]) == count
    config = hello["config"]
    assert config["radiusMax"] == 5 and config["width"] / config["height"] == pytest.approx(2 / 3, abs=0.05)
    assert page.page.locator(".balls-form input").input_value() == str(count)
    delete_session(playfield, page)


def test_the_new_form_starts_a_session_with_that_many_balls(playfield, watched):
    page = open_demo(watched, f"{playfield.url}/demos/bouncing-balls?new")
    p = page.page
    assert p.locator(".balls-form input").input_value() == "24"  # the gallery card's start
    p.locator(".balls-form input").fill("40")
    p.locator(".balls-form button").click()
    p.wait_for_function("() => window.playfield?.hello?.radii.length === 40", timeout=15_000)
    assert p.evaluate("() => window.playfield.hello.config.radiusMax") == 16, "40 fit the page's box"
    assert "balls" not in p.evaluate("() => location.search")
    delete_session(playfield, page)


@pytest.mark.parametrize("place", ["demos", "embed"])
def test_a_refused_address_option_leaves_a_usable_page_that_says_why(playfield, watched, place):
    page = watched()
    p = page.page
    p.goto(f"{playfield.url}/{place}/bouncing-balls?balls=20000")
    notice = p.locator(".demo-notice")
    notice.wait_for(state="visible")
    assert "Cannot start a session: balls: must be an integer from 1 to 10000" in notice.inner_text()
    assert "(balls in the address)" in notice.inner_text()
    time.sleep(5)  # longer than a passing notice stays
    assert notice.is_visible(), "the reason stays"
    assert p.locator(".stage").is_hidden(), "no empty, squashed picture"
    for action in ("run", "step", "reset"):
        assert p.locator(f'[data-action="{action}"]').is_disabled()
    page.allow(lambda problem: "400" in problem)
    assert_accessible(page)
    if place == "embed":
        return
    assert p.locator(".demo-role").inner_text() == "No session."
    # Both ways out work: the defaults, or another count.
    assert p.locator(".demo-share a").get_attribute("href") == "/demos/bouncing-balls?new"
    p.locator(".balls-form input").fill("12")
    p.locator(".balls-form button").click()
    p.wait_for_function("() => window.playfield?.hello?.radii.length === 12", timeout=15_000)
    assert p.locator(".demo-notice").is_hidden()
    delete_session(playfield, page)


def test_tag_cloud_labels_fade_at_the_back_instead_of_shrinking_to_specks(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/tag-cloud?new")
    p = page.page
    wait_for_tick_after(page, newest_tick(page) + 5)
    sizes = p.evaluate("""() => [...document.querySelectorAll('.cloud a')].map((a) => {
      const r = a.getBoundingClientRect();
      return { height: r.height, opacity: Number(getComputedStyle(a).opacity),
               font: parseFloat(a.style.fontSize) };
    })""")
    # Every label stays readable (the seed's depth scale went down to 0.1: 2 to 3 px specks)...
    smallest = min(s["height"] / s["font"] for s in sizes)
    assert smallest >= 0.55, sizes
    assert min(s["height"] for s in sizes) >= 8
    # ...and the back shows by fading.
    opacities = sorted(s["opacity"] for s in sizes)
    assert opacities[0] < 0.5 < opacities[-1]
    delete_session(playfield, page)
