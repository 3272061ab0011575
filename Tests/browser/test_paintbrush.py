"""The shared paintbrush: two browsers paint in one session (the second through the "draw too"
link) and each sees the other's strokes; a guest may paint and undo but not clear; the
picture survives kill -9 (a reload shows the same pixels); the replay page ends on the same
picture; the page passes axe."""
import json
import signal
import time

import pytest
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from axe import assert_accessible
from deadline import Deadline, receive_until, wait_until
from demo_pages import create_session

# FNV-1a over the offscreen canvas's RGBA bytes: the exact picture, whatever the screen size.
PICTURE_HASH = """() => {
  const paper = window.playfield?.picture?.paper;
  if (!paper) return null;
  const data = paper.getContext('2d').getImageData(0, 0, paper.width, paper.height).data;
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i += 1) { h ^= data[i]; h = Math.imul(h, 0x01000193) >>> 0; }
  return h;
}"""

COLOUR_AT = """([x, y]) => {
  const d = window.playfield.picture.paper.getContext('2d').getImageData(x, y, 1, 1).data;
  return '#' + ((1 << 24) | (d[0] << 16) | (d[1] << 8) | d[2]).toString(16).slice(1);
}"""


def open_paint(watched, url, **kwargs):
    page = watched(**kwargs)
    page.page.goto(url)
    page.page.wait_for_function("() => window.playfield?.hello && window.playfield.picture?.paper")
    return page


def paint(page, points, colour=None):
    """Drags across the canvas through `points` (world px of the 640 x 480 canvas)."""
    p = page.page
    if colour:
        p.click(f'.swatch[data-color="{colour}"]')
    box = p.locator("canvas.view").bounding_box()
    scale = box["width"] / 640

    def at(point):
        return box["x"] + point[0] * scale, box["y"] + point[1] * scale

    p.mouse.move(*at(points[0]))
    p.mouse.down()
    for point in points[1:]:
        p.mouse.move(*at(point), steps=5)
    p.mouse.up()


def version(page):
    return page.page.evaluate("() => window.playfield.picture.version")


def colour_at(page, x, y):
    return page.page.evaluate(COLOUR_AT, [x, y])


def settle(page, quiet=0.5, timeout=10.0):
    """Waits until the picture has not changed for `quiet` seconds (every batch is in)."""
    end = time.monotonic() + timeout
    last, since = version(page), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < end, "the picture keeps changing"
        time.sleep(0.05)
        now = version(page)
        if now != last:
            last, since = now, time.monotonic()


def wait_same_picture(a, b, timeout=15.0, after=None):
    """Waits until both pages show the same version (newer than `after`, when given) and the
    same pixels; returns the hash."""
    end = time.monotonic() + timeout
    while True:
        va, vb = version(a), version(b)
        if after is not None and va == after:
            assert time.monotonic() < end, f"the picture stays at v{after}"
            time.sleep(0.05)
            continue
        ha, hb = a.page.evaluate(PICTURE_HASH), b.page.evaluate(PICTURE_HASH)
        if va == vb and ha == hb:
            return ha
        assert time.monotonic() < end, f"pictures differ: v{va} {ha} vs v{vb} {hb}"
        time.sleep(0.05)


def test_two_browsers_paint_together_through_the_drawing_link(playfield, watched):
    session = create_session(playfield, "paintbrush")
    assert "/demos/paintbrush?session=" in session["urls"]["draw"]
    owner = open_paint(watched, playfield.url + session["urls"]["control"])
    guest = open_paint(watched, playfield.url + session["urls"]["draw"])
    assert owner.page.evaluate("() => window.playfield.client.role") == "controller"
    assert guest.page.evaluate("() => window.playfield.client.role") == "drawer"
    assert guest.page.locator(".demo-role").inner_text() == "You are drawing as a guest."
    # The owner is offered the API's drawing link, with the token in the fragment (no server
    # or Referer sees it); the guest's address keeps no token.
    href = owner.page.locator(".draw-link").get_attribute("href")
    draw = session["urls"]["draw"].split("token=")[1]
    assert href == f"{playfield.url}/demos/paintbrush?session={session['id']}#token={draw}"
    assert guest.page.evaluate("() => location.href") == f"{playfield.url}/demos/paintbrush?session={session['id']}"
    assert guest.page.locator(".paint-guests").is_hidden()
    assert guest.page.locator('[data-action="clear"]').is_disabled()

    paint(owner, [(60, 60), (200, 60), (200, 160)], colour="#ff0000")
    paint(guest, [(400, 300), (560, 420)], colour="#00ff00")
    owner.page.wait_for_function("() => window.playfield.picture.marks.some(m => m.color === '#00ff00')", timeout=10_000)
    guest.page.wait_for_function("() => window.playfield.picture.marks.some(m => m.color === '#ff0000')", timeout=10_000)
    wait_same_picture(owner, guest)
    for page in (owner, guest):
        assert colour_at(page, 130, 60) == "#ff0000"
        assert colour_at(page, 480, 360) == "#00ff00"
        assert colour_at(page, 600, 40) == "#000000"
    # Strokes are smoothed lines in batches, not a message per pixel.
    marks = owner.page.evaluate("() => window.playfield.picture.marks.map(m => m.points.length / 2)")
    assert len(marks) < 40 and sum(marks) > 10

    # UNDO takes back only the guest's own stroke.
    before = version(owner)
    guest.page.click('[data-action="undo"]')
    wait_same_picture(owner, guest, after=before)
    assert colour_at(owner, 480, 360) == "#000000"
    assert colour_at(owner, 130, 60) == "#ff0000"

    # The guest's token cannot clear; the owner's CLEAR empties both canvases.
    guest.page.evaluate("() => window.playfield.client.send({type: 'clear'})")
    guest.page.wait_for_function(
        "() => document.querySelector('.demo-notice').textContent.includes('drawing token cannot send clear')")
    before = version(owner)
    owner.page.click('[data-action="clear"]')
    wait_same_picture(owner, guest, after=before)
    assert colour_at(guest, 130, 60) == "#000000"
    assert_accessible(owner)
    assert_accessible(guest)


def test_a_watcher_cannot_paint_and_a_late_joiner_gets_the_whole_picture(playfield, watched):
    session = create_session(playfield, "paintbrush", {"brushRadius": 20})
    owner = open_paint(watched, playfield.url + session["urls"]["control"])
    paint(owner, [(100, 100), (300, 100)], colour="#ffff00")
    paint(owner, [(100, 300), (300, 300)], colour="#0000ff")
    owner.page.wait_for_function("() => window.playfield.picture.marks.some(m => m.color === '#0000ff')")
    watcher = open_paint(watched, playfield.url + session["urls"]["watch"])
    assert watcher.page.evaluate("() => window.playfield.client.role") == "spectator"
    # A watcher's painting tools are off; only the PNG export stays.
    for tool in ['.swatch[data-color="#ff0000"]', ".any-color", '[data-action="erase"]',
                 '[data-action="undo"]', '[data-action="clear"]', 'input[name="radius"]']:
        assert watcher.page.locator(tool).is_disabled(), tool
    assert watcher.page.locator('[data-action="export"]').is_enabled()
    for tool in ['.swatch[data-color="#ff0000"]', '[data-action="erase"]', '[data-action="undo"]']:
        assert owner.page.locator(tool).is_enabled(), tool
    wait_same_picture(owner, watcher)
    assert colour_at(watcher, 200, 100) == "#ffff00"
    # Radius 20 from the config: 15 px off the line is still painted.
    assert colour_at(watcher, 200, 115) == "#ffff00"
    before = version(watcher)
    paint(watcher, [(400, 400), (500, 400)])
    watcher.page.wait_for_function("() => !document.querySelector('.demo-notice').hidden")
    time.sleep(0.3)
    assert version(watcher) == before == version(owner)


def test_bad_and_flooding_paint_input_gets_errors(playfield):
    session = create_session(playfield, "paintbrush", {"maxStrokes": 3})
    draw = session["urls"]["draw"].split("token=")[1]
    url = f"{playfield.ws_url}/ws/sessions/{session['id']}?token={draw}"
    # NB: no compression and no keepalive pings, since the flood below writes raw frames on the
    # socket; max_queue=None keeps the reader thread reading while the flood is written.
    with connect(url, max_size=None, max_queue=None, compression=None, ping_interval=None) as ws:
        hello = receive_until(ws, lambda m: True, what="hello")
        assert hello["type"] == "hello" and hello["role"] == "drawer" and "drawToken" not in hello
        assert hello["limits"]["pointsPerMessage"] == 256

        def stroke(number, points):
            return {"type": "stroke", "author": "flood", "stroke": number, "color": "#ffffff",
                    "radius": 5, "points": points}

        def next_of(kind, name=None, seconds=10):
            return receive_until(
                ws, lambda m: m["type"] == kind and (name is None or m.get("name") == name),
                seconds, what=f"{kind} {name or ''}")

        ws.send(json.dumps(stroke(1, [1] * 514)))
        error = next_of("error")
        assert error["field"] == "points" and "256" in error["message"]
        ws.send(json.dumps(stroke(1, [1, 2, 3])))
        assert next_of("error")["field"] == "points"
        ws.send(json.dumps({"type": "stop"}))
        assert "cannot send stop" in next_of("error")["message"]
        for number in range(5):
            ws.send(json.dumps(stroke(number, [10, 10])))
        rejected = next_of("event", "input-rejected")
        assert "canvas is full" in rejected["reason"]
        # A flood is refused with too-many, and the session keeps ticking. The bound (512
        # commands waiting for one tick) is about timing: messages sent one by one from here
        # may all be taken by the ticks in between, on a busy machine most of all. So the
        # flood goes out in one write of 4,000 small frames (the server reads 64 KB, some
        # 1,900 of them, at a time, and queues a read's messages at once), and is written
        # again, within a deadline, if the ticks still took it all.
        frame = Frame(Opcode.TEXT, json.dumps({"type": "undo", "author": "flood"}).encode())
        flood = b"".join(frame.serialize(mask=True, extensions=[]) for _ in range(4000))
        deadline = Deadline(60, "a too-many error for a flood")
        too_many = None
        while too_many is None:
            ws.socket.sendall(flood)
            try:
                too_many = next_of("error", seconds=min(5, deadline.left()))
            except TimeoutError:
                deadline.left()
        assert too_many["error"] == "too-many", too_many
        tick = next_of("frame")["tick"]
        assert next_of("frame")["tick"] > tick
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{playfield.ws_url}/ws/sessions/{session['id']}?token={'0' * 64}")
    assert refused.value.response.status_code == 403


def test_the_picture_survives_kill_9_and_the_replay_ends_on_it(start_playfield, watched):
    server = start_playfield()
    session = create_session(server, "paintbrush")
    path = session["urls"]["control"]
    owner = open_paint(watched, server.url + path)
    paint(owner, [(50, 50), (300, 200), (600, 80)], colour="#ff0000")
    paint(owner, [(100, 400), (500, 400)], colour="#0000ff")
    owner.page.click('[data-action="erase"]')
    paint(owner, [(300, 50), (300, 450)])
    settle(owner)
    before = owner.page.evaluate(PICTURE_HASH)
    marks = owner.page.evaluate("() => window.playfield.picture.marks.length")
    owner.page.context.close()
    time.sleep(1.5)  # the journal writes inputs within a second
    server.stop(signal.SIGKILL)

    again = start_playfield(database=server.database)
    reloaded = open_paint(watched, again.url + path)
    assert reloaded.page.evaluate("() => window.playfield.client.role") == "controller"
    assert reloaded.page.evaluate("() => window.playfield.picture.marks.length") == marks
    assert reloaded.page.evaluate(PICTURE_HASH) == before
    assert colour_at(reloaded, 300, 200) == "#000000"  # erased
    assert colour_at(reloaded, 200, 143) == "#ff0000"
    assert_accessible(reloaded)
    # PNG export: the canvas at its own size, 640 x 480.
    with reloaded.page.expect_download() as download:
        reloaded.page.click('[data-action="export"]')
    assert download.value.suggested_filename == f"paintbrush-{session['id']}.png"
    png = open(download.value.path(), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert int.from_bytes(png[16:20], "big") == 640 and int.from_bytes(png[20:24], "big") == 480

    replay = watched()
    replay.page.goto(again.url + f"/sessions/{session['id']}/replay")
    replay.page.wait_for_function("() => window.playfield?.hello && window.playfield.picture?.paper")
    # Every count of marks the page held after each event: a busy browser may not poll between
    # two of them, so the page records them itself.
    replay.page.evaluate("""() => {
      window.markCounts = [];
      const handlers = window.playfield.client.handlers;
      const original = handlers.event;
      handlers.event = (message) => {
        original(message);
        window.markCounts.push(window.playfield.picture.marks.length);
      };
    }""")
    replay.page.click('[data-speed="8"]')
    replay.page.wait_for_function(
        f"() => window.playfield.picture.marks.length === {marks}", timeout=30_000)
    counts = replay.page.evaluate("() => window.markCounts")
    assert any(0 < count < marks for count in counts), counts  # stroke by stroke
    assert replay.page.evaluate(PICTURE_HASH) == before
    assert_accessible(replay)


def test_a_tap_on_a_phone_paints_a_dot_and_the_page_fits(playfield, watched):
    session = create_session(playfield, "paintbrush")
    page = open_paint(watched, playfield.url + session["urls"]["control"], viewport=(390, 844),
                      has_touch=True)
    p = page.page
    assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
    p.click('.swatch[data-color="#0000ff"]')
    box = p.locator("canvas.view").bounding_box()
    p.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.wait_for_function("() => window.playfield.picture.marks.length === 1")
    mark = p.evaluate("() => window.playfield.picture.marks[0]")
    assert mark["color"] == "#0000ff" and mark["radius"] == 10
    x, y = round(mark["points"][0]), round(mark["points"][1])
    assert abs(x - 320) <= 2 and abs(y - 240) <= 2
    assert colour_at(page, x, y) == "#0000ff" and colour_at(page, x + 12, y) == "#000000"
    page.screenshot("paintbrush-phone")


def test_the_gallery_card_of_an_empty_canvas_is_not_a_black_box(playfield, watched):
    session = create_session(playfield, "paintbrush")
    page = open_paint(watched, f"{playfield.url}/embed/paintbrush?session={session['id']}&watch&preview",
                      viewport=(320, 240))
    page.page.wait_for_function("() => window.playfield.status.drawn.rate() > 0")
    colours = page.canvas_colours("canvas.view")
    for seed_colour in ["#ffffff", "#ff0000", "#0000ff", "#ffff00", "#00ff00"]:
        assert colours.get(seed_colour, 0) > 100, (seed_colour, list(colours.items())[:8])
    # Only on the card: the picture itself stays empty, and a page that is no card shows it so.
    assert page.page.evaluate("() => window.playfield.picture.marks.length") == 0
    plain = open_paint(watched, f"{playfield.url}/embed/paintbrush?session={session['id']}&watch",
                       viewport=(320, 240))
    plain.page.wait_for_function("() => window.playfield.status.drawn.rate() > 0")
    assert list(plain.canvas_colours("canvas.view")) == ["#000000"]
