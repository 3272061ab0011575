"""Embedding (docs/embedding.md): a host page on another origin drives demos through the host
library over protocol v1; frames fit from 240x180 up; the host keeps focus and the wheel
until the frame is clicked; oEmbed and the Embedding demo."""
import base64
import html
import json
import pathlib
import re
import struct
import time
import urllib.parse
import urllib.request
import zlib

import pytest

from axe import assert_accessible
from deadline import Deadline, wait_until
from demo_pages import create_session, host_site
from launcher import demo_names

SHOTS = "/tmp/shots/embed"


def host_page(playfield, frames, extra=""):
    """A host page that embeds `frames` ({name: (demo, options, width, height)}) through the
    ES module host library, and logs every message each player hears in `window.heard`."""
    script = "\n".join(
        f'players["{name}"] = watch("{name}", new PlayfieldEmbed("#{name}", '
        f'{{demo: "{demo}", options: {json.dumps(options)}, width: {w}, height: {h}, autoHeight: false}}));'
        for name, (demo, options, w, h) in frames.items())
    holders = "".join(f'<div id="{name}"></div>' for name in frames)
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<style>body {{ margin: 0; font: 16px sans-serif; }} .tall {{ height: 3000px; }}</style></head>
<body><h1>A host page</h1><label>Search <input id="search" autofocus></label>
{holders}<div class="tall"></div>{extra}
<script type="module">
import {{ PlayfieldEmbed }} from "{playfield.url}/js/playfield-embed.js";
window.players = {{}};
window.heard = [];
function watch(name, player) {{
  for (const type of ["ready", "state", "event", "error", "resize"]) {{
    player.on(type, (message) => heard.push({{ frame: name, ...message }}));
  }}
  return player;
}}
{script}
window.hostReady = true;
</script></body></html>"""


def heard(page, frame, kind, name=None):
    return page.evaluate(
        "([f, t, n]) => heard.filter((m) => m.frame === f && m.type === t && (!n || m.name === n))",
        [frame, kind, name])


def wait_heard(page, frame, kind, name=None, predicate="true", timeout=15_000):
    page.wait_for_function(
        f"""([f, t, n]) => heard.some((m) => m.frame === f && m.type === t && (!n || m.name === n)
            && ({predicate}))""", arg=[frame, kind, name], timeout=timeout)


def call(page, frame, method, *args):
    """Runs `players[frame][method](...args)` in the host page; returns {ok, result|error}."""
    return page.evaluate(
        """async ([f, m, args]) => {
          try { return { ok: true, result: await players[f][m](...args) }; }
          catch (error) { return { ok: false, code: error.code ?? null, message: error.message }; }
        }""", [frame, method, list(args)])


def decode_png(data):
    """Width, height and RGBA rows of an 8-bit RGBA PNG (what canvas.toDataURL writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    width, height, depth, colour = header[:4]
    assert (depth, colour) == (8, 6), "8-bit RGBA"
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = previous[i]
            c = previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def seeded(playfield, seed):
    """A bouncing-balls session with `seed` and the config the page starts with (the gallery
    card's, from its `data-config`)."""
    page = urllib.request.urlopen(playfield.url + "/embed/bouncing-balls", timeout=10).read().decode()
    config = json.loads(html.unescape(re.search(r'data-config="([^"]*)"', page).group(1)))
    body = json.dumps({"kind": "bouncing-balls", "config": config, "seed": seed}).encode()
    request = urllib.request.Request(
        playfield.url + "/api/sessions", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["id"]


def start_hash(playfield, session):
    with urllib.request.urlopen(f"{playfield.url}/api/sessions/{session}/replay?tick=0") as answer:
        return json.load(answer)["stateHash"]


def colours(rows):
    seen = set()
    for row in rows:
        for i in range(0, len(row), 4):
            seen.add("#%02x%02x%02x" % (row[i], row[i + 1], row[i + 2]))
    return seen


def test_host_library_drives_two_demos_from_another_origin(playfield, watched):
    page = watched(viewport=(1000, 800))
    p = page.page
    frames = {"balls": ("bouncing-balls", {"seed": 7}, 400, 300), "fractal": ("mandelbrot", {}, 400, 300)}
    with host_site(host_page(playfield, frames)) as url:
        p.goto(url)
        wait_heard(p, "balls", "ready")
        wait_heard(p, "fractal", "ready")
        ready = heard(p, "balls", "ready")[0]
        assert ready["v"] == 1 and ready["demo"] == "bouncing-balls" and ready["role"] == "controller"
        assert {"play", "pause", "reset", "step", "input", "capture", "get-state"} <= set(ready["commands"])
        assert {"collision", "ball-added", "reset"} <= set(ready["events"])
        assert ready["aspect"] == pytest.approx(360 / 580, abs=0.001)
        assert len(heard(p, "balls", "resize")) == 1
        explorer = heard(p, "fractal", "ready")[0]
        assert explorer["demo"] == "mandelbrot" and "play" not in explorer["commands"]

        # The seed option made a session with that seed: at tick 0 it is the same state as
        # another session made with seed 7, and not the one of seed 8.
        session = ready["session"]
        assert start_hash(playfield, session) == start_hash(playfield, seeded(playfield, 7))
        assert start_hash(playfield, session) != start_hash(playfield, seeded(playfield, 8))

        # Pause: the state says stopped and its tick no longer moves; play: it rises again.
        assert call(p, "balls", "pause")["ok"]
        wait_heard(p, "balls", "state", predicate="m.running === false")
        paused = call(p, "balls", "getState")["result"]
        assert paused["running"] is False
        time.sleep(0.5)
        assert call(p, "balls", "getState")["result"]["tick"] == paused["tick"]
        # Paused, it steps frame by frame: the step is answered once its ticks ran.
        assert call(p, "balls", "step", 3)["ok"]
        deadline = Deadline(10, "the stepped tick in the embed's state")
        while call(p, "balls", "getState")["result"]["tick"] != paused["tick"] + 3:
            deadline.left()
            time.sleep(0.05)
        assert call(p, "balls", "play")["ok"]
        wait_heard(p, "balls", "state", predicate=f"m.running && m.tick > {paused['tick'] + 20}")
        # Running, a step is refused: pause first.
        bad = call(p, "balls", "step", 1)
        assert not bad["ok"] and bad["code"] == "running" and "stop" in bad["message"]
        state = heard(p, "balls", "state")[-1]
        # The page starts as the gallery card does (its `data-config`).
        assert state["readouts"]["count"] == "24"

        # An input goes to the session; its event comes back.
        assert call(p, "balls", "send", {"type": "add-ball", "x": 100, "y": 100})["ok"]
        wait_heard(p, "balls", "event", "ball-added", predicate="m.index === 24")
        wait_heard(p, "balls", "state", predicate="m.readouts.count === '25'")
        assert call(p, "fractal", "send", {"type": "quadrant", "q": 1})["ok"]
        wait_heard(p, "fractal", "event", "view", predicate="m.journey === '1'")

        # capture: a PNG of the canvas, the seed's colours in it.
        shot = call(p, "balls", "capture")["result"]
        assert shot["image"].startswith("data:image/png;base64,")
        width, height, rows = decode_png(base64.b64decode(shot["image"].split(",", 1)[1]))
        assert (width, height) == (shot["width"], shot["height"]) and width * 3 == height * 2
        assert {"#000000", "#ffd400", "#ffffff"} <= colours(rows)
        fractal = call(p, "fractal", "capture")["result"]
        fw, fh, frows = decode_png(base64.b64decode(fractal["image"].split(",", 1)[1]))
        assert fw == fh and len(colours(frows)) > 20

        # Bad requests are refused with a reason, and nothing throws.
        bad = call(p, "balls", "send", "nope")
        assert not bad["ok"] and bad["code"] == "bad-field"
        bad = call(p, "balls", "step", 0)
        assert not bad["ok"] and bad["code"] == "bad-field" and "count" in bad["message"]
        bad = call(p, "fractal", "play")
        assert not bad["ok"] and bad["code"] == "unknown-command"
        bad = call(p, "fractal", "set", {"palette": "plaid"})
        assert not bad["ok"] and bad["code"] == "bad-field"
        bad = call(p, "balls", "set", {"theme": "pink"})
        assert not bad["ok"] and "theme must be one of dark, light" in bad["message"]
        bad = call(p, "balls", "subscribe", ["no-such-event"])
        assert not bad["ok"] and bad["code"] == "bad-field"
        replies = p.evaluate("""() => new Promise((resolve) => {
          const got = [];
          addEventListener("message", (e) => {
            const m = e.data?.playfield;
            if (m?.type === "reply" || m?.type === "error") got.push(m);
            if (got.length >= 4) resolve(got);
          });
          const target = players.balls.iframe.contentWindow;
          target.postMessage({ playfield: { type: "play", id: "old" } }, "*");
          target.postMessage({ playfield: { v: 1, type: "fly", id: "x" } }, "*");
          target.postMessage({ playfield: { v: 1, id: "y" } }, "*");
          target.postMessage({ playfield: "play" }, "*");
        })""")
        codes = sorted((m.get("id") or "", m["error"]) for m in replies)
        assert codes == [("", "bad-message"), ("old", "bad-version"), ("x", "unknown-command"), ("y", "missing-type")]

        # set: the theme changes at once; unsubscribe stops an event.
        assert call(p, "balls", "set", {"theme": "light"})["result"]["options"]["theme"] == "light"
        inner = next(f for f in p.frames if "/embed/bouncing-balls" in f.url)
        assert inner.evaluate("() => document.body.dataset.theme") == "light"
        # The library's frames allow full screen, so the toolbar offers it, and it works.
        inner.locator(".embed-fullscreen-button").click()
        inner.wait_for_function("() => document.fullscreenElement === document.documentElement")
        inner.locator(".embed-fullscreen-button").click()
        inner.wait_for_function("() => document.fullscreenElement === null")
        assert "ball-added" not in call(p, "balls", "unsubscribe", ["ball-added"])["result"]["events"]
        count = len(heard(p, "balls", "event", "ball-added"))
        assert call(p, "balls", "send", {"type": "add-ball", "x": 50, "y": 50})["ok"]
        wait_heard(p, "balls", "state", predicate="m.readouts.count === '26'")
        assert len(heard(p, "balls", "event", "ball-added")) == count
        p.screenshot(path=f"{SHOTS}/host-two-demos.png")

    # A spectator frame refuses to control the session.
    frames = {"watcher": ("bouncing-balls", {"session": session, "watch": ""}, 300, 300)}
    with host_site(host_page(playfield, frames)) as url:
        p.goto(url)
        wait_heard(p, "watcher", "ready")
        ready = heard(p, "watcher", "ready")[0]
        assert ready["role"] == "spectator" and "play" not in ready["commands"]
        bad = call(p, "watcher", "pause")
        assert not bad["ok"] and bad["code"] == "not-controller"
        inner = next(f for f in p.frames if "/embed/bouncing-balls" in f.url)
        assert inner.locator(".embed-play-button").is_hidden(), "a watcher is offered no controls"
        assert inner.locator(".embed-menu-button").is_visible()
        assert call(p, "watcher", "getState")["result"]["running"] is True


def test_a_command_the_server_refuses_replies_with_its_reason(start_playfield, watched):
    """A host's command goes to the server with an id; its reply waits for the server's `ack`
    or `error` (docs/embedding.md section 5): a spectator's input and an input past a full log
    get `ok: false` with the server's code and reason, an accepted one `ok: true`."""
    server = start_playfield("--inputs-per-session", "2")
    session = create_session(server, "bouncing-balls")
    page = watched(viewport=(900, 700))
    p = page.page
    frames = {
        "owner": ("bouncing-balls", {"session": session["id"], "token": session["token"]}, 300, 400),
        "watcher": ("bouncing-balls", {"session": session["id"], "watch": ""}, 300, 400),
    }
    ball = {"type": "add-ball", "x": 100, "y": 100}
    with host_site(host_page(server, frames)) as url:
        p.goto(url)
        wait_heard(p, "owner", "ready")
        wait_heard(p, "watcher", "ready")

        refused = call(p, "watcher", "send", ball)
        assert refused == {"ok": False, "code": "not-controller",
                           "message": "spectators cannot send add-ball; connect with the session's token"}
        refused = call(p, "watcher", "pause")
        assert not refused["ok"] and refused["code"] == "not-controller"
        assert "spectators cannot send stop" in refused["message"]

        # Two inputs fit in the log; the third is refused by the server, which says why.
        for _ in range(2):
            assert call(p, "owner", "send", ball) == {"ok": True, "result": None}
        # Accepted means accepted: both balls are there.
        balls = session["config"]["balls"] + 2
        wait_heard(p, "owner", "state", predicate=f"m.readouts.count === '{balls}'")
        full = call(p, "owner", "send", ball)
        assert not full["ok"] and full["code"] == "log-full"
        assert "this session has logged 2 inputs" in full["message"]
        # Session commands are not inputs: the owner still runs and stops it.
        assert call(p, "owner", "pause") == {"ok": True, "result": None}
        wait_heard(p, "owner", "state", predicate="m.running === false")
        # The frame showed each refusal too; the host heard no stray error for them.
        assert not [m for m in heard(p, "owner", "error") if m.get("error") == "log-full"]
        assert not [m for m in heard(p, "watcher", "error") if m.get("error") == "not-controller"]


def test_url_options_are_read_checked_and_the_rest_ignored(playfield, watched):
    page = watched(viewport=(900, 700))
    p = page.page
    options = {"theme": "light", "controls": "none", "autoplay": False, "rows": 8, "bogus": "yes"}
    frames = {"maze": ("maze", options, 400, 300), "bad": ("holes", {"controls": "huge"}, 300, 300)}
    with host_site(host_page(playfield, frames)) as url:
        p.goto(url)
        wait_heard(p, "maze", "ready")
        ready = heard(p, "maze", "ready")[0]
        assert ready["options"] == {"autoplay": False, "controls": "none", "theme": "light"}
        wait_heard(p, "maze", "state", predicate="m.running === false")
        config = json.load(urllib.request.urlopen(f"{playfield.url}/api/sessions/{ready['session']}"))["config"]
        assert config["rows"] == 8
        inner = next(f for f in p.frames if "/embed/maze" in f.url)
        assert inner.evaluate("() => getComputedStyle(document.querySelector('.embed-bar')).display") == "none"
        wait_heard(p, "bad", "error", predicate="m.error === 'bad-option' && m.message.includes('controls')")
        assert heard(p, "bad", "ready")[0]["options"]["controls"] == "full"


def test_maze_option_starts_from_a_saved_maze(playfield, watched):
    cells = ["#......."] + ["........"] * 7
    body = json.dumps({"cells": cells}).encode()
    request = urllib.request.Request(
        playfield.url + "/api/mazes/corner", data=body, method="PUT",
        headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    page = watched(viewport=(400, 300))
    p = page.page
    p.goto(playfield.url + "/embed/maze?maze=corner")
    p.wait_for_function("() => window.playfield?.hello")
    assert p.evaluate("() => window.playfield.hello.cells") == cells
    assert "maze=" not in p.url, "a reload resumes the session instead of making another"
    p.goto(playfield.url + "/embed/maze?maze=nowhere")
    p.wait_for_function("() => window.playfield?.hello")
    p.locator(".demo-notice", has_text='No saved maze "nowhere"').wait_for()
    page.allow(lambda problem: "/api/mazes/nowhere" in problem or "404" in problem)


def test_auto_height_follows_the_frames_resize_messages(playfield, watched):
    page = watched(viewport=(900, 700))
    p = page.page
    html = f"""<!doctype html><html lang="en"><title>Host</title><div id="box"></div>
<script src="{playfield.url}/js/playfield-embed.global.js"></script>
<script>window.player = new PlayfieldEmbed("#box", {{ demo: "maze", width: 300, height: 100 }});</script>"""
    with host_site(html) as url:
        p.goto(url)
        p.wait_for_function("() => player.info !== null")
        # The maze's natural frame is 480 x 540: 300 px wide wants 338 px.
        p.wait_for_function("() => document.querySelector('#box iframe').getBoundingClientRect().height === 338")
        p.evaluate("() => { player.iframe.width = '400'; }")
        p.wait_for_function("() => document.querySelector('#box iframe').getBoundingClientRect().height === 450")


SIZES = [(240, 180), (400, 300), (1280, 720)]
DRAWN = {"bouncing-balls": "canvas.view", "maze": "canvas.view", "holes": "canvas.view",
         "tag-cloud": ".cloud", "mandelbrot": ".explorer-canvas"}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_frames_fit_any_size(playfield, watched, size):
    width, height = size
    page = watched(viewport=(1400, 900))
    p = page.page
    frames = "".join(
        f'<iframe id="{name}" src="{playfield.url}/embed/{name}" width="{width}" height="{height}" '
        f'title="{name}" style="border:0;display:block"></iframe>' for name in DRAWN)
    with host_site(f"<!doctype html><html lang='en'><title>Host</title><body style='margin:0'>{frames}</body></html>") as url:
        p.goto(url)
        for name, selector in DRAWN.items():
            inner = p.frame_locator(f"#{name}")
            # NB: Chromium stops animation frames in frames out of sight; the explorer draws in them.
            p.locator(f"#{name}").scroll_into_view_if_needed()
            handle = p.locator(f"#{name}").element_handle().content_frame()
            if name == "mandelbrot":
                handle.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
            else:
                handle.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0")
            box = inner.locator(selector).bounding_box()
            frame_box = p.locator(f"#{name}").bounding_box()
            share = box["width"] * box["height"] / (width * height)
            # The drawing takes the whole frame along one side, and no less than half of it
            # at 400x300 and smaller.
            assert max(box["width"] / width, box["height"] / height) >= 0.99, (name, box)
            if width <= 400:
                assert share >= 0.5, (name, share)
            assert frame_box["x"] <= box["x"] and box["x"] + box["width"] <= frame_box["x"] + width + 0.5
            scroll = handle.evaluate("""() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
              document.body.scrollWidth, document.body.scrollHeight, innerWidth, innerHeight]""")
            assert scroll[0] <= scroll[4] and scroll[1] <= scroll[5], (name, scroll)
            assert scroll[2] <= scroll[4] and scroll[3] <= scroll[5], (name, scroll)
            # Every toolbar button is inside the frame.
            for button in handle.locator(".embed-bar button").all():
                b = button.bounding_box()
                if b is None:
                    continue  # not shown at this size (a small frame keeps the menu button alone)
                assert b["x"] >= frame_box["x"] and b["x"] + b["width"] <= frame_box["x"] + width
                assert b["y"] + b["height"] <= frame_box["y"] + height
            p.locator(f"#{name}").screenshot(path=f"{SHOTS}/embed-{name}-{width}x{height}.png")


@pytest.mark.parametrize("name", ["maze", "tag-cloud", "bouncing-balls", "mandelbrot"])
def test_phone_sized_frame_shows_its_controls_below_the_picture(playfield, watched, name):
    page = watched(viewport=(390, 844), has_touch=True, is_mobile=True, device_scale_factor=2)
    p = page.page
    p.goto(playfield.url + "/embed/" + name)
    if name == "mandelbrot":
        p.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
    else:
        p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0")
    picture = p.locator(DRAWN[name]).bounding_box()
    controls = p.locator(".controls, .explorer-controls").first
    box = controls.bounding_box()
    assert picture["width"] >= 380, "the picture takes the phone's width"
    assert box["y"] >= picture["y"] + picture["height"] - 1 and box["y"] + box["height"] <= 844
    # NB: the controls fade in; wait for the end of the transition rather than sample it.
    controls.evaluate("e => Promise.all(e.getAnimations().map(a => a.finished))")
    p.wait_for_function(
        "() => getComputedStyle(document.querySelector('.controls, .explorer-controls')).opacity === '1'")
    assert p.evaluate("() => document.documentElement.scrollHeight") <= 844
    # No line of text is cut off: what does not fit went into the menu, where it wraps.
    for element in p.locator(".controls *, .explorer-controls *").all():
        if element.is_visible():
            assert element.evaluate("e => e.scrollWidth <= e.clientWidth + 1 || e.clientWidth === 0")
    p.screenshot(path=f"{SHOTS}/embed-phone-{name}.png")


def test_menu_holds_the_share_links_and_status_line(playfield, watched):
    page = watched(viewport=(400, 300))
    p = page.page
    p.goto(playfield.url + "/embed/maze")
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0")
    menu = p.locator(".embed-menu")
    assert menu.is_hidden()
    p.locator(".embed-menu-button").click()
    assert menu.is_visible() and p.locator(".embed-menu-button").get_attribute("aria-expanded") == "true"
    assert menu.locator(".demo-share a", has_text="watch link").count() == 1
    assert "connected" in menu.locator(".status").inner_text()
    info = menu.locator(".info")
    assert info.evaluate("e => e.scrollWidth <= e.clientWidth"), "the info line wraps, not cut off"
    p.screenshot(path=f"{SHOTS}/embed-maze-menu-400x300.png")
    assert_accessible(page)
    p.keyboard.press("Escape")
    assert menu.is_hidden()


def test_host_keeps_focus_and_the_wheel_until_the_frame_is_clicked(playfield, watched):
    page = watched(viewport=(900, 600))
    p = page.page
    frames = {"fractal": ("mandelbrot", {}, 480, 400), "balls": ("bouncing-balls", {}, 300, 300)}
    with host_site(host_page(playfield, frames)) as url:
        p.goto(url)
        wait_heard(p, "fractal", "ready")
        wait_heard(p, "balls", "ready")
        inner = next(f for f in p.frames if "/embed/mandelbrot" in f.url)
        inner.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
        assert p.evaluate("() => document.activeElement.id") == "search", "no focus stealing"
        p.keyboard.type("abc")
        assert p.evaluate("() => document.getElementById('search').value") == "abc"

        zoom = inner.evaluate("() => window.location.search")
        box = p.locator("#fractal iframe").bounding_box()
        p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        p.mouse.wheel(0, 240)
        p.wait_for_function("() => scrollY > 100")
        assert inner.evaluate("() => window.location.search") == zoom, "the explorer did not zoom"
        assert inner.locator(".embed-hint").is_visible(), "the frame says how to zoom"

        # Clicked into, the frame takes the wheel: it zooms and the host page stays put.
        box = p.locator("#fractal iframe").bounding_box()
        p.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        inner.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
        before = inner.evaluate("() => window.location.search")
        scrolled = p.evaluate("() => scrollY")
        p.mouse.wheel(0, -240)
        inner.wait_for_function(f"() => window.location.search !== {json.dumps(before)}")
        time.sleep(0.3)
        assert p.evaluate("() => scrollY") == scrolled


def doc_examples():
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "embedding.md").read_text()
    return re.findall(r"```html\n(.*?)```", text, re.S)


def test_the_guide_examples_work_as_written(playfield, watched):
    page = watched(viewport=(900, 700))
    p = page.page
    module = next(block for block in doc_examples() if block.startswith("<!doctype html>"))
    with host_site(module.replace("http://127.0.0.1:8080", playfield.url)) as url:
        p.goto(url)
        p.wait_for_function("() => /^tick \\d+$/.test(document.getElementById('tick').textContent)")
        inner = next(f for f in p.frames if "/embed/bouncing-balls" in f.url)
        inner.wait_for_function("() => window.playfield?.hello")
        assert inner.evaluate("() => window.playfield.hello.config.balls") == 12
        assert inner.evaluate("() => document.body.dataset.theme") == "light"
        p.click("#pause")
        inner.wait_for_function("() => window.playfield.running === false")
        p.click("#capture")
        p.wait_for_function("() => document.getElementById('shot').src.startsWith('data:image/png')")
    script = next(block for block in doc_examples() if "playfield-embed.global.js" in block)
    html = (f'<!doctype html><html lang="en"><title>Host</title><iframe title="maze" '
            f'src="{playfield.url}/embed/maze"></iframe>' + script.replace("http://127.0.0.1:8080", playfield.url))
    with host_site(html) as url:
        p.goto(url)
        inner = p.locator("iframe").element_handle().content_frame()
        inner.wait_for_function("() => window.playfield?.hello && window.playfield.running === false")


def test_oembed_frame_follows_the_size_rules(playfield):
    page = urllib.parse.quote(f"{playfield.url}/demos/bouncing-balls", safe="")
    with urllib.request.urlopen(f"{playfield.url}/oembed?url={page}&maxwidth=400&maxheight=300") as answer:
        body = json.load(answer)
    assert (body["width"], body["height"]) == (186, 300)
    assert 'allow="fullscreen; accelerometer; gyroscope"' in body["html"]
    assert "allowfullscreen" not in body["html"] and f"{playfield.url}/embed/bouncing-balls" in body["html"]


def test_embedding_demo(playfield, watched):
    page = watched(viewport=(1280, 900))
    p = page.page
    p.goto(playfield.url + "/demos/embedding")
    natural = p.locator(".natural-box iframe")
    scaled = p.locator(".scaled-box iframe")
    natural_frame = natural.element_handle().content_frame()
    scaled_frame = scaled.element_handle().content_frame()
    natural_frame.wait_for_function("() => window.playfield?.frames.received > 3")
    scaled_frame.wait_for_function("() => window.playfield?.frames.received > 3")
    # The same session, driven in one frame and watched in the other, drawn smaller.
    assert natural_frame.evaluate("() => window.playfield.client.role") == "controller"
    assert scaled_frame.evaluate("() => window.playfield.client.role") == "spectator"
    assert natural_frame.evaluate("() => window.playfield.session.id") == scaled_frame.evaluate(
        "() => window.playfield.session.id")
    transform = scaled.evaluate("e => getComputedStyle(e).transform")
    assert transform.startswith("matrix(0.") or transform.startswith("matrix(")
    nb, sb = natural.bounding_box(), scaled.bounding_box()
    assert sb["width"] < nb["width"] and sb["width"] / sb["height"] == pytest.approx(360 / 580, abs=0.01)

    # The builder: a live frame through the host library, snippets and a remote.
    p.wait_for_function("() => document.querySelector('.event-log').textContent.includes('ready')")
    html = p.locator("[data-snippet=iframe]").inner_text()
    assert f'src="{playfield.url}/embed/bouncing-balls"' in html and 'width="400"' in html
    p.locator("select[name=demo]").select_option("maze")
    p.locator("select[name=theme]").select_option("light")
    p.wait_for_function("() => document.querySelector('[data-snippet=iframe]').textContent.includes('/embed/maze?theme=light')")
    assert "/oembed?url=" in p.locator("[data-snippet=oembed]").inner_text()
    assert "import { PlayfieldEmbed }" in p.locator("[data-snippet=library]").inner_text()
    p.wait_for_function("() => document.querySelector('.event-log').textContent.includes('ready: maze')")
    p.locator("[data-remote=pause]").click()
    p.wait_for_function("() => document.querySelector('.remote-state').textContent.startsWith('paused')")
    p.locator("[data-remote=capture]").click()
    p.wait_for_function("() => document.querySelector('.capture img')?.src.startsWith('data:image/png')")
    p.locator("[data-remote=play]").click()
    p.wait_for_function("() => document.querySelector('.remote-state').textContent.startsWith('running')")
    p.screenshot(path=f"{SHOTS}/embedding-demo-1280.png", full_page=True)
    assert_accessible(page)
    p.set_viewport_size({"width": 390, "height": 844})
    # Laid out anew for the phone (its resize handlers may take a moment on a busy machine).
    p.wait_for_function("() => document.documentElement.scrollWidth <= 390", timeout=10_000)
    p.screenshot(path=f"{SHOTS}/embedding-demo-phone.png", full_page=True)


@pytest.mark.parametrize("path", ["/embed/maze?theme=light", "/embed/mandelbrot?controls=minimal"])
def test_embed_options_pages_are_accessible(playfield, watched, path):
    page = watched(viewport=(400, 300))
    page.page.goto(playfield.url + path)
    page.page.wait_for_load_state("networkidle")
    assert_accessible(page)



# Every demo the build serves (`playfield demos`, the one registry), each at `/embed/NAME`. NB:
# but the embedding page, whose own content is frames of the others and a snippet builder
# (embedded, it shows its first frame and clips the rest: nobody frames it small).
EMBEDDABLE = [
    name for name in demo_names() if name != "embedding"]

# What a person reads or uses over the picture: the toolbar, the demo's controls with their
# readouts and messages (the tag cloud's labels and street soccer's squares overlap by design:
# they are the picture, in `.stage`). Returns the ones cut by the frame and the pairs that
# overlap, one nesting the other aside. NB: a page that is a document (the recipe book, the
# embedding page) scrolls down: below the frame is not cut, beside it is. What a closed
# <details> holds is not shown (Chromium still gives it a box).
CONTROL_PROBLEMS = """() => {
  const wanted = 'button, input, select, a[href], output, .readouts > div, .explorer-readouts > div,'
    + ' .temp-message, .tilt-pad';
  const name = (e) => e.tagName.toLowerCase() + (e.dataset.action ? `[${e.dataset.action}]` : '')
    + ' ' + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 24);
  const shown = [...document.querySelectorAll(wanted)]
    .filter((e) => !e.closest('.cloud, .stage, .embed-menu, [hidden], details:not([open]) > :not(summary)'))
    .map((e) => ({ e, r: e.getBoundingClientRect(), style: getComputedStyle(e) }))
    .filter(({ r, style }) => r.width > 0 && r.height > 0 && style.visibility !== 'hidden');
  const problems = [];
  const scrollsDown = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const overflow = getComputedStyle(p).overflowY;
      const root = p === document.documentElement || p === document.body;
      if (p.scrollHeight > p.clientHeight + 1
        && (overflow === 'auto' || overflow === 'scroll' || (root && overflow === 'visible'))) return true;
    }
    return false;
  };
  for (const { e, r } of shown) {
    const bottom = scrollsDown(e) ? Infinity : innerHeight;
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > bottom + 0.5) {
      problems.push(`${name(e)} is cut by the frame: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
  }
  shown.forEach((a, i) => shown.slice(i + 1).forEach((b) => {
    if (a.e.contains(b.e) || b.e.contains(a.e)) return;
    const dx = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const dy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (dx > 1 && dy > 1) problems.push(`${name(a.e)} and ${name(b.e)} overlap`);
  }));
  return { count: shown.length, problems };
}"""


@pytest.mark.parametrize("size", [(240, 180), (400, 300)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", EMBEDDABLE)
def test_controls_fit_small_frames_without_overlapping(playfield, watched, name, size):
    """docs/embedding.md section 4 promises 240 x 180 and up: with the controls shown (as after
    a tap), every control, readout and message is inside the frame, and none covers another or
    the toolbar."""
    width, height = size
    page = watched(viewport=size)
    p = page.page
    p.goto(f"{playfield.url}/embed/{name}")
    p.wait_for_load_state("networkidle")
    if name == "mandelbrot":
        p.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
    p.evaluate("() => { document.body.dataset.touched = 'true'; }")
    # The controls shown and laid out (transitions run slower on a busy machine): the problems
    # that remain after up to 10 s are the page's.
    found = {}

    def settled():
        found.update(p.evaluate(CONTROL_PROBLEMS))
        return found["count"] > 0 and not found["problems"]
    try:
        wait_until(settled, 10, "the shown controls to fit", interval=0.25)
    except TimeoutError:
        pass
    page.screenshot(f"embed-controls-{name}-{width}x{height}")
    assert found["count"] > 0, "no controls found"
    assert not found["problems"], "\n".join(found["problems"])
