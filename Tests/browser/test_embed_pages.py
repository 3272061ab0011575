"""The page demos speak embed protocol v1 (docs/embedding.md): Stick Man, Temperature and the
Apollonian viewer, each embedded from another origin through the host library, answer
get-state, take a command and report it, capture their drawing as a PNG, refuse what they do
not take, and follow the frame rules."""
import base64
import time

import pytest

from axe import assert_accessible
from demo_pages import host_site
from test_embedding import call, colours, decode_png, heard, host_page, wait_heard

SHOTS = "/tmp/shots/wiring"

# What each frame draws in, for the size rule.
DRAWN = {"stick-man": ".stick-figure", "temperature": ".temp-picture", "apollonian": ".spheres-canvas"}


def embed_all(playfield, watched, width=400, height=300):
    page = watched(viewport=(1000, 1200))
    frames = {name.replace("-", "_"): (name, {}, width, height) for name in DRAWN}
    return page, frames, host_site(host_page(playfield, frames))


def png(shot):
    assert shot["image"].startswith("data:image/png;base64,")
    width, height, rows = decode_png(base64.b64decode(shot["image"].split(",", 1)[1]))
    assert (width, height) == (shot["width"], shot["height"])
    return width, height, rows


def test_stick_man_speaks_the_protocol(playfield, watched):
    page, _, host = embed_all(playfield, watched)
    p = page.page
    with host as url:
        p.goto(url)
        wait_heard(p, "stick_man", "ready")
        ready = heard(p, "stick_man", "ready")[0]
        assert ready["demo"] == "stick-man" and ready["events"] == ["pose"]
        assert {"reset", "input", "set", "capture", "get-state"} <= set(ready["commands"])
        assert "play" not in ready["commands"] and ready["aspect"] == pytest.approx(4 / 3, abs=0.001)
        assert set(ready["inputs"]) == {"read", "happy", "sad", "hat", "fly", "pendulum"}
        state = call(p, "stick_man", "getState")["result"]
        assert state["pose"] is None and state["hat"] is False and state["running"] is False
        assert state["readouts"]["speech"].startswith("Hello!")

        assert call(p, "stick_man", "send", {"type": "happy"})["ok"]
        wait_heard(p, "stick_man", "event", "pose", predicate="m.pose === 'happy' && !m.hat")
        wait_heard(p, "stick_man", "state", predicate="m.pose === 'happy'")
        assert "happy" in heard(p, "stick_man", "event", "pose")[-1]["says"]
        assert call(p, "stick_man", "set", {"hat": True, "pose": "sad"})["ok"]
        wait_heard(p, "stick_man", "state", predicate="m.pose === 'sad' && m.hat")
        inner = p.frame_locator("#stick_man iframe")
        assert inner.locator(".stick-figure").get_attribute("data-pose") == "sad"

        # The capture is the SVG drawn at twice its viewBox: the paper's cream and the ink.
        width, height, rows = png(call(p, "stick_man", "capture")["result"])
        assert (width, height) == (800, 800)
        assert {"#fbf6e9", "#1d1d1f", "#2a2a33"} <= colours(rows)

        assert call(p, "stick_man", "reset")["ok"]
        wait_heard(p, "stick_man", "state", predicate="m.pose === null && !m.hat")
        for request, code in [(("send", {"type": "dance"}), "bad-field"),
                              (("set", {"pose": "moonwalk"}), "bad-field"),
                              (("set", {"hat": "yes"}), "bad-field"),
                              (("set", {"colour": "red"}), "bad-field"),
                              (("play",), "unknown-command"),
                              (("step", 1), "unknown-command")]:
            answer = call(p, "stick_man", *request)
            assert not answer["ok"] and answer["code"] == code, (request, answer)


def test_temperature_speaks_the_protocol(playfield, watched):
    page, _, host = embed_all(playfield, watched)
    p = page.page
    with host as url:
        p.goto(url)
        wait_heard(p, "temperature", "ready")
        ready = heard(p, "temperature", "ready")[0]
        assert ready["demo"] == "temperature" and ready["events"] == ["temperature", "range"]
        assert ready["inputs"] == ["celsius", "fahrenheit"]
        state = call(p, "temperature", "getState")["result"]
        assert (state["celsius"], state["fahrenheit"], state["range"]) == (20, 68, "mild")

        answer = call(p, "temperature", "send", {"type": "fahrenheit", "value": 212})
        assert answer["ok"] and answer["result"]["celsius"] == 100
        wait_heard(p, "temperature", "event", "temperature", predicate="m.celsius === 100 && m.fahrenheit === 212")
        wait_heard(p, "temperature", "event", "range", predicate="m.range === 'hot' && m.message.startsWith('Hot')")
        wait_heard(p, "temperature", "state", predicate="m.range === 'hot'")
        inner = p.frame_locator("#temperature iframe")
        assert inner.locator("#temp-c").input_value() == "100"
        assert call(p, "temperature", "set", {"celsius": "-5,5"})["ok"]
        wait_heard(p, "temperature", "state", predicate="m.celsius === -5.5 && m.range === 'freezing'")

        # The capture is the picture drawn at twice its viewBox, with its freezing sky.
        width, height, rows = png(call(p, "temperature", "capture")["result"])
        assert (width, height) == (640, 400)
        sky = inner.locator(".temp-sky").evaluate("e => getComputedStyle(e).fill")
        red, green, blue = (int(v) for v in sky[sky.index("(") + 1:-1].split(",")[:3])
        assert "#%02x%02x%02x" % (red, green, blue) in colours(rows)
        assert "#e23b3b" in colours(rows)  # the mercury

        # A bad value is refused and changes nothing.
        for request in [("send", {"type": "celsius", "value": -300}),
                        ("send", {"type": "celsius", "value": "warm"}),
                        ("send", {"type": "kelvin", "value": 3}),
                        ("set", {"kelvin": 3}),
                        ("set", {"celsius": None})]:
            answer = call(p, "temperature", *request)
            assert not answer["ok"] and answer["code"] == "bad-field", (request, answer)
        assert call(p, "temperature", "getState")["result"]["celsius"] == -5.5
        assert not call(p, "temperature", "pause")["ok"]
        assert call(p, "temperature", "reset")["ok"]
        wait_heard(p, "temperature", "state", predicate="m.celsius === 20")


def test_apollonian_speaks_the_protocol(playfield, watched):
    page, _, host = embed_all(playfield, watched)
    p = page.page
    with host as url:
        p.goto(url)
        wait_heard(p, "apollonian", "ready")
        ready = heard(p, "apollonian", "ready")[0]
        assert ready["demo"] == "apollonian" and ready["events"] == ["drawn"]
        assert {"play", "pause", "reset", "input", "set"} <= set(ready["commands"])
        # NB: Chromium stops animation frames in frames out of sight; the viewer draws in them.
        p.locator("#apollonian").scroll_into_view_if_needed()
        wait_heard(p, "apollonian", "event", "drawn", predicate="m.level === 7 && m.count > 100")
        state = call(p, "apollonian", "getState")["result"]
        assert state["level"] == 7 and state["surface"] is True and state["ready"] is True

        assert call(p, "apollonian", "pause")["ok"]
        wait_heard(p, "apollonian", "state", predicate="m.running === false")
        assert call(p, "apollonian", "set", {"level": 3})["ok"]
        wait_heard(p, "apollonian", "event", "drawn", predicate="m.level === 3")
        level3 = heard(p, "apollonian", "event", "drawn")[-1]["count"]
        wait_heard(p, "apollonian", "state", predicate="m.level === 3 && m.ready")
        handle = p.locator("#apollonian iframe").element_handle().content_frame()
        distance = "() => window.playfield.apollonian.orbit.distance"
        before = handle.evaluate(distance)
        assert call(p, "apollonian", "send", {"type": "zoom", "factor": 0.5})["ok"]
        assert handle.evaluate(distance) < before
        assert call(p, "apollonian", "set", {"surface": False})["ok"]
        wait_heard(p, "apollonian", "event", "drawn", predicate=f"m.level === 3 && !m.surface && m.count > {level3}")

        width, height, rows = png(call(p, "apollonian", "capture")["result"])
        box = p.frame_locator("#apollonian iframe").locator(".spheres-canvas").bounding_box()
        assert width >= box["width"] - 1 and len(colours(rows)) > 20

        for request, code in [(("send", {"type": "zoom", "factor": 99}), "bad-field"),
                              (("send", {"type": "spin"}), "bad-field"),
                              (("set", {"level": 11}), "bad-field"),
                              (("set", {"spinning": 1}), "bad-field"),
                              (("step", 1), "unknown-command")]:
            answer = call(p, "apollonian", *request)
            assert not answer["ok"] and answer["code"] == code, (request, answer)
        assert call(p, "apollonian", "getState")["result"]["level"] == 3


@pytest.mark.parametrize("size", [(240, 180), (400, 300)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_page_demo_frames_fit(playfield, watched, size):
    width, height = size
    page = watched(viewport=(1400, 900))
    p = page.page
    frames = "".join(
        f'<iframe id="{name}" src="{playfield.url}/embed/{name}" width="{width}" height="{height}" '
        f'title="{name}" style="border:0;display:block"></iframe>' for name in DRAWN)
    with host_site(f"<!doctype html><html lang='en'><title>Host</title><body style='margin:0'>"
                   f"<input id='search' autofocus aria-label='Search'>{frames}</body></html>") as url:
        p.goto(url)
        for name, selector in DRAWN.items():
            p.locator(f"#{name}").scroll_into_view_if_needed()
            handle = p.locator(f"#{name}").element_handle().content_frame()
            if name == "apollonian":
                handle.wait_for_selector(".demo[data-ready=true]", timeout=15_000)
            else:
                handle.wait_for_load_state("networkidle")
            box = handle.locator(selector).bounding_box()
            frame_box = p.locator(f"#{name}").bounding_box()
            share = box["width"] * box["height"] / (width * height)
            assert max(box["width"] / width, box["height"] / height) >= 0.99, (name, box)
            assert share >= 0.5, (name, share)
            # The whole drawing is inside the frame: nothing is cut off.
            assert frame_box["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= frame_box["x"] + width + 0.5
            assert frame_box["y"] - 0.5 <= box["y"] and box["y"] + box["height"] <= frame_box["y"] + height + 0.5
            scroll = handle.evaluate("""() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
              document.body.scrollWidth, document.body.scrollHeight, innerWidth, innerHeight]""")
            assert scroll[0] <= scroll[4] and scroll[1] <= scroll[5], (name, scroll)
            assert scroll[2] <= scroll[4] and scroll[3] <= scroll[5], (name, scroll)
            for button in handle.locator(".embed-bar button").all():
                b = button.bounding_box()
                if b is None:
                    continue  # not shown at this size (a small frame keeps the menu button alone)
                assert b["x"] >= frame_box["x"] and b["x"] + b["width"] <= frame_box["x"] + width
            p.locator(f"#{name}").screenshot(path=f"{SHOTS}/embed-{name}-{width}x{height}.png")
        # Loading the frames took no focus from the host page.
        assert p.evaluate("() => document.activeElement.id") == "search"


@pytest.mark.parametrize("name", list(DRAWN))
def test_wheel_scrolls_the_host_until_the_frame_is_clicked(playfield, watched, name):
    page = watched(viewport=(800, 600))
    p = page.page
    frame = (f'<iframe id="f" src="{playfield.url}/embed/{name}" width="400" height="300" '
             f'title="{name}" style="border:0;display:block"></iframe>')
    with host_site(f"<!doctype html><html lang='en'><title>Host</title><body style='margin:0'>"
                   f"{frame}<div style='height:3000px'></div></body></html>") as url:
        p.goto(url)
        handle = p.locator("#f").element_handle().content_frame()
        handle.wait_for_load_state("networkidle")
        if name == "apollonian":
            handle.wait_for_selector(".demo[data-ready=true]", timeout=15_000)
        distance = "() => window.playfield.apollonian.orbit.distance"
        before = handle.evaluate(distance) if name == "apollonian" else None
        p.mouse.move(200, 150)
        p.mouse.wheel(0, 200)
        p.wait_for_function("() => scrollY > 0")
        assert p.evaluate("() => document.activeElement.tagName") == "BODY"
        if name == "apollonian":
            # Not zoomed while the wheel was the host's; after a click into the frame it zooms.
            assert handle.evaluate(distance) == before
            p.evaluate("() => scrollTo(0, 0)")
            p.mouse.click(200, 150)
            p.mouse.wheel(0, 200)
            handle.wait_for_function(f"() => window.playfield.apollonian.orbit.distance > {before}")


@pytest.mark.parametrize("path", ["/embed/stick-man", "/embed/temperature", "/embed/apollonian",
                                  "/embed/stick-man?theme=light", "/embed/temperature?theme=light"])
def test_page_demo_embeds_are_accessible(playfield, watched, path):
    page = watched(viewport=(400, 300))
    page.page.goto(playfield.url + path)
    page.page.wait_for_load_state("networkidle")
    assert_accessible(page)
    # With the demo's own controls shown over the picture (hover), and the menu open.
    page.page.mouse.move(200, 150)
    page.page.locator(".embed-menu-button").click()
    page.page.wait_for_timeout(300)
    assert_accessible(page)
