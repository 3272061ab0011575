"""The replay page (/sessions/ID/replay): it plays a stored session from tick 0 with the demo's
own drawing code, shows inputs at the tick they came, pauses, plays 0.25x to 8x, seeks both
ways, and fits a phone."""
import json
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import connect

from deadline import receive_until
from demo_pages import create_session, newest_tick, open_demo, wait_for_pixel

BLOCK = "#d3d3d3"
EMPTY = "#000000"
# Two cells far from the ball's path along the middle row: (row, column).
CELLS = [(1, 1), (1, 10)]


def drive(server, session, messages):
    """Sends `messages` as the controller, each after the previous one took effect; returns
    every frame and event received, by type."""
    received = {"frame": [], "event": []}
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url, max_size=None) as ws:

        def until(predicate):
            seen = []
            try:
                return receive_until(ws, predicate, 20, seen=seen)
            finally:
                for message in seen:
                    if message["type"] in received:
                        received[message["type"]].append(message)

        until(lambda m: m["type"] == "status")
        ws.send(json.dumps({"type": "stop"}))
        until(lambda m: m["type"] == "status" and not m["running"])
        for message in messages:
            ws.send(json.dumps(message))
            if message["type"] == "step":
                goal = (received["frame"] or [{"tick": 0}])[-1]["tick"] + message["count"]
                until(lambda m: m["type"] == "frame" and m["tick"] >= goal)
    return received


@pytest.fixture(scope="module")
def recorded(playfield):
    """A maze session, stopped and stepped so that two blocks appear at known ticks, with a
    tilt that rolls the ball; about 700 ticks long."""
    session = create_session(playfield, "maze")
    (r1, c1), (r2, c2) = CELLS
    received = drive(playfield, session, [
        {"type": "step", "count": 20},
        {"type": "toggle", "row": r1, "col": c1},
        {"type": "tilt", "x": 0.8, "y": 0.3},
        {"type": "step", "count": 40},
        {"type": "toggle", "row": r2, "col": c2},
        {"type": "step", "count": 40},
        {"type": "tilt", "x": -0.5, "y": -0.6},
        {"type": "step", "count": 600},
    ])
    mazes = [e for e in received["event"] if e["name"] == "maze"]
    assert [e["revision"] for e in mazes] == [1, 2]
    frames = {f["tick"]: f for f in received["frame"]}
    return {"session": session, "toggles": [e["tick"] for e in mazes], "frames": frames}


def cell_centre(page, row, col):
    box = page.page.locator("canvas.view").bounding_box()
    return (col + 0.5) * box["width"] / 12, (row + 0.5) * box["height"] / 12


def replay_state(page):
    return page.page.evaluate("() => ({ ...window.playfield.replay.state })")


def seek(page, tick):
    """Seeks with the seek bar (as a drag that ends there) and waits for the frame of `tick`."""
    page.page.locator(".seek-bar").fill(str(tick))
    page.page.wait_for_function(
        f"() => window.playfield.frames.newest?.tick === {tick} && !window.playfield.replay.state.seeking")


def tick_steps_until(page, done, within=20):
    """The tick differences between the frames received from now until the JS predicate
    `done(steps)` holds of them (at most `within` seconds: then the steps so far).

    NB: a count of frames, not a time window: on a busy machine frames come late or are
    dropped (which only widens the steps), so a fixed window may catch too few of them."""
    page.page.evaluate("""() => {
      window.frameTicks = [];
      const handlers = window.playfield.client.handlers;
      const original = window.originalFrame ?? handlers.frame;
      window.originalFrame = original;
      handlers.frame = (message) => { window.frameTicks.push(message.tick); original(message); };
    }""")
    steps = ("(() => { const t = window.frameTicks; "
             "return t.slice(1).map((tick, i) => tick - t[i]); })()")
    try:
        page.page.wait_for_function(f"() => ({done})({steps})", timeout=within * 1000)
    except PlaywrightTimeoutError:
        pass
    return page.page.evaluate(f"() => {steps}")


def ticks_over(page, seconds):
    start = newest_tick(page)
    time.sleep(seconds)
    return newest_tick(page) - start


def test_replay_shows_inputs_at_their_ticks_and_seeks_both_ways(playfield, watched, recorded):
    session = recorded["session"]
    first, second = recorded["toggles"]
    page = open_demo(watched, playfield.url + session["urls"]["replay"])
    p = page.page
    assert p.title().startswith("Replay: Maze ball")
    hello = p.evaluate("() => window.playfield.hello")
    assert hello["mode"] == "replay" and hello["end"] >= max(recorded["frames"])
    assert p.locator(".demo-share a", has_text="all sessions").get_attribute("href") == "/sessions"
    assert p.locator("[data-needs-control], .tilt-pad").count() == 0, "a replay takes no input"

    # Paused just before the first toggle: no blocks yet. One tick later the first is there.
    p.locator('[data-action="play"]').click()
    p.wait_for_function("() => window.playfield.replay.state.playing === false")
    assert p.locator('[data-action="play"]').inner_text() == "PLAY"
    seek(page, first - 1)
    x1, y1 = cell_centre(page, *CELLS[0])
    x2, y2 = cell_centre(page, *CELLS[1])
    wait_for_pixel(page, "canvas.view", x1, y1, EMPTY)
    seek(page, first)
    wait_for_pixel(page, "canvas.view", x1, y1, BLOCK)
    assert page.pixel("canvas.view", x2, y2) == EMPTY
    seek(page, second)
    wait_for_pixel(page, "canvas.view", x2, y2, BLOCK)
    page.screenshot("replay-maze-blocks")

    # The replay is the recording: the ball is where the live session had it, tick for tick.
    ticks = sorted(recorded["frames"])
    for tick in (ticks[len(ticks) // 2], ticks[len(ticks) // 4], ticks[-1]):
        seek(page, tick)
        replayed = p.evaluate("() => window.playfield.frames.newest.ball")
        assert replayed == recorded["frames"][tick]["ball"], f"tick {tick}"

    # Back to 0 (a fresh start: both blocks gone), then forward again.
    seek(page, 0)
    wait_for_pixel(page, "canvas.view", x1, y1, EMPTY)
    wait_for_pixel(page, "canvas.view", x2, y2, EMPTY)
    assert "tick 0 /" in p.locator(".seek-time").inner_text()
    seek(page, second + 100)
    wait_for_pixel(page, "canvas.view", x1, y1, BLOCK)
    wait_for_pixel(page, "canvas.view", x2, y2, BLOCK)
    text = p.locator(".seek-time").inner_text()
    assert f"tick {second + 100} / {hello['end']}" in text and "0:0" in text


def test_replay_pauses_plays_faster_and_restarts_at_the_end(playfield, watched, recorded):
    page = open_demo(watched, playfield.url + recorded["session"]["urls"]["replay"])
    p = page.page
    end = p.evaluate("() => window.playfield.hello.end")

    # Space pauses; a paused replay sends no new ticks.
    p.keyboard.press("Space")
    p.wait_for_function("() => window.playfield.replay.state.playing === false")
    assert ticks_over(page, 0.3) == 0, "pause stops the ticks"
    assert "(paused)" in p.locator(".status").inner_text()

    seek(page, 0)
    p.keyboard.press("Space")
    p.wait_for_function("() => window.playfield.replay.state.playing === true")
    # Twelve frames at least, and until one of them is a single tick (any frame may be late).
    normal = tick_steps_until(page, "(s) => s.length >= 12 && s.includes(1)")
    p.locator('[data-speed="4"]').click()
    p.wait_for_function("() => window.playfield.replay.state.speed === 4")
    assert p.locator('[data-speed="4"]').get_attribute("aria-pressed") == "true"
    fast = tick_steps_until(page, "(s) => s.length >= 12 && s.includes(4)")
    # NB: counts, not rates: a busy machine may drop frames, which only widens the steps.
    assert normal and min(normal) == 1, f"1x advances one tick per frame: {normal}"
    assert fast and min(fast) == 4 and all(step % 4 == 0 for step in fast), f"4x: {fast}"
    page.screenshot("replay-maze-4x")

    # At the end the replay stops; PLAY (now REPLAY) starts it again from tick 0.
    play = p.locator('[data-action="play"]')
    play.click()
    p.wait_for_function("() => window.playfield.replay.state.playing === false")
    seek(page, end - 20)
    play.click()
    p.wait_for_function(
        f"() => window.playfield.replay.state.tick === {end} && !window.playfield.replay.state.playing")
    assert play.inner_text() == "REPLAY"
    play.click()
    p.wait_for_function("() => window.playfield.replay.state.playing === true")
    p.wait_for_function(f"() => window.playfield.frames.newest?.tick < {end - 100}")


@pytest.mark.parametrize("kind", ["bouncing-balls", "holes", "tag-cloud"])
def test_replay_of_every_kind_draws_with_the_demo_code(playfield, watched, kind):
    session = create_session(playfield, kind)
    time.sleep(1)
    page = open_demo(watched, playfield.url + session["urls"]["replay"])
    p = page.page
    if kind == "tag-cloud":
        assert p.locator(".cloud a").count() == 24
    else:
        colours = page.canvas_colours("canvas.view")
        assert len(colours) >= 3, f"the {kind} replay looks blank: {colours}"
    if kind == "holes":
        assert p.locator('[data-readout="balls"]').inner_text() == "3"
    if kind == "bouncing-balls":
        assert p.locator('[data-readout="count"]').inner_text() == "2"
    page.screenshot(f"replay-{kind}")


def test_replay_page_on_a_phone(playfield, watched, recorded):
    page = open_demo(
        watched, playfield.url + recorded["session"]["urls"]["replay"], viewport=(390, 844),
        has_touch=True, is_mobile=True, device_scale_factor=2)
    p = page.page
    assert p.evaluate("() => document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    box = p.locator("canvas.view").bounding_box()
    assert 300 <= box["width"] <= 390
    for selector in ('[data-action="play"]', '[data-speed="8"]', ".seek-bar"):
        control = p.locator(selector).bounding_box()
        assert control["x"] >= 0 and control["x"] + control["width"] <= 390, selector
        assert control["y"] + control["height"] <= 844, f"{selector} is on the first screen"
    p.locator('[data-speed="0.25"]').tap()
    p.wait_for_function("() => window.playfield.replay.state.speed === 0.25")
    page.screenshot("phone-replay")
