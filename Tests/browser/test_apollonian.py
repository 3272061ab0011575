"""The Apollonian spheres viewer (/demos/apollonian, /embed/apollonian) in headless Chromium.

Chromium here renders WebGL2 with SwiftShader (on the CPU); the page says which renderer it
uses in `data-renderer`. The viewer marks its section `data-ready="true"` once the chosen level
is drawn, with `data-level` and `data-count`; `window.playfield.apollonian.sample()` draws a
frame and returns how many pixels are lit and a hash of the picture.
"""
import json
import struct
import time
import urllib.request

from axe import assert_accessible
from demo_pages import host_site
from test_embedding import call, heard, host_page, wait_heard

ROOT = "section.demo-apollonian"
READY = ROOT + "[data-ready='true']"


def served_count(server, level, surface):
    """How many spheres the viewer should draw: the served ones but the outer sphere."""
    query = "?surface=1" if surface else ""
    body = urllib.request.urlopen(f"{server.url}/api/spheres/1/{level}.bin{query}").read()
    count = struct.unpack_from("<I", body, 4)[0]
    return count - (0 if surface else 1)


def open_viewer(watched, server, path="/demos/apollonian", **kwargs):
    page = watched(**kwargs)
    response = page.page.goto(server.url + path)
    assert response.status == 200
    page.page.wait_for_selector(READY, timeout=30_000)
    return page


def wait_level(page, level, timeout=60_000):
    page.page.wait_for_function(
        "l => { const e = document.querySelector('section.demo-apollonian');"
        " return e.dataset.level === String(l) && e.dataset.ready === 'true'; }",
        arg=level, timeout=timeout)


def sample(page):
    return page.page.evaluate("() => window.playfield.apollonian.sample()")


def stop_turning(page):
    page.page.locator('[data-action="spin"]').click()
    assert page.page.locator('[data-action="spin"]').get_attribute("aria-pressed") == "false"


def test_the_seed_level_draws_and_a_level_key_changes_the_count(playfield, watched):
    page = open_viewer(watched, playfield)
    p = page.page
    probe = p.evaluate("() => !!document.createElement('canvas').getContext('webgl2')")
    assert p.locator(ROOT).get_attribute("data-renderer") == ("webgl2" if probe else "2d")
    assert p.locator(ROOT).get_attribute("data-level") == "7"
    count = served_count(playfield, 7, surface=True)
    assert p.locator(ROOT).get_attribute("data-count") == str(count)
    assert p.locator('[data-readout="count"]').inner_text() == f"{count:,}"
    picture = sample(page)
    assert picture["lit"] > 0.1 * picture["total"], "the canvas is (nearly) blank"
    p.keyboard.press("4")
    wait_level(page, 4)
    assert p.locator(ROOT).get_attribute("data-count") == str(served_count(playfield, 4, surface=True))
    assert p.locator('[data-readout="level"]').inner_text() == "4"
    assert p.locator('[data-control="level"]').input_value() == "4"
    p.wait_for_function("() => /^[0-9.]+$/.test(document.querySelector('[data-readout=frame]').textContent)")
    page.screenshot("apollonian-level-4")


def test_a_drag_turns_the_view_and_leaves_a_spin(playfield, watched):
    page = open_viewer(watched, playfield)
    p = page.page
    stop_turning(page)
    before = sample(page)["hash"]
    assert sample(page)["hash"] == before, "the view moves while nothing turns it"
    box = p.locator(".spheres-canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    p.mouse.move(x, y)
    p.mouse.down()
    for step in range(1, 9):
        p.mouse.move(x + 15 * step, y + 3 * step)
        time.sleep(0.01)
    p.mouse.up()
    assert sample(page)["hash"] != before, "the drag did not turn the picture"
    # A quick flick, timed inside the page (16 ms between moves, released at once), keeps
    # turning the view after the pointer is up.
    yaw = p.evaluate("""async () => {
      const canvas = document.querySelector('.spheres-canvas');
      const at = (type, x) => canvas.dispatchEvent(new PointerEvent(type,
        { pointerId: 7, clientX: x, clientY: 200, bubbles: true }));
      at('pointerdown', 100);
      for (let i = 1; i <= 6; i++) {
        await new Promise((done) => setTimeout(done, 16));
        at('pointermove', 100 + 20 * i);
      }
      at('pointerup', 220);
      return window.playfield.apollonian.orbit.yaw;
    }""")
    p.wait_for_function(f"() => Math.abs(window.playfield.apollonian.orbit.yaw - {yaw}) > 0.05")


def test_keys_zoom_turn_and_reset(playfield, watched):
    page = open_viewer(watched, playfield)
    p = page.page
    stop_turning(page)
    orbit = "() => { const o = window.playfield.apollonian.orbit; return [o.yaw, o.pitch, o.distance]; }"
    p.locator(".spheres-canvas").focus()
    p.keyboard.press("=")
    start = p.evaluate(orbit)
    yaw, pitch, distance = start
    p.keyboard.press("+")
    assert p.evaluate(orbit)[2] < distance
    p.keyboard.press("-")
    p.keyboard.press("-")
    assert p.evaluate(orbit)[2] > distance
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowUp")
    moved = p.evaluate(orbit)
    assert moved[0] > yaw and moved[1] < pitch
    p.keyboard.press("=")
    assert p.evaluate(orbit) == start
    p.keyboard.press(" ")
    assert p.locator('[data-action="spin"]').get_attribute("aria-pressed") == "true"


def test_every_sphere_of_level_10_loads_with_a_progress_bar(playfield, watched):
    page = open_viewer(watched, playfield)
    p = page.page
    stop_turning(page)
    p.evaluate("""() => {
      window.sawLoading = false;
      const bar = document.querySelector('.spheres-loading');
      new MutationObserver(() => { if (!bar.hidden) window.sawLoading = true; })
        .observe(bar, { attributes: true });
    }""")
    p.keyboard.press("s")
    wait_level(page, 7)
    assert p.locator(ROOT).get_attribute("data-count") == "11159"
    assert p.locator('[data-action="shell"]').get_attribute("aria-pressed") == "false"
    p.locator('[data-control="level"]').select_option("10")
    wait_level(page, 10, timeout=120_000)
    assert p.locator(ROOT).get_attribute("data-count") == "383891"
    assert p.locator('[data-readout="count"]').inner_text() == "383,891"
    assert p.evaluate("() => window.sawLoading")
    assert sample(page)["lit"] > 0
    page.screenshot("apollonian-level-10")


def test_without_webgl2_it_says_so_and_draws_flat(playfield, watched):
    page = watched()
    page.page.add_init_script("""(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
      };
    })()""")
    page.page.goto(playfield.url + "/demos/apollonian")
    page.page.wait_for_selector(READY, timeout=30_000)
    assert page.page.locator(ROOT).get_attribute("data-renderer") == "2d"
    notice = page.page.locator(".spheres-notice")
    assert notice.is_visible() and "WebGL2" in notice.inner_text()
    picture = sample(page)
    assert picture["lit"] > 0.1 * picture["total"]
    page.screenshot("apollonian-flat")


def test_pages_are_accessible_on_a_desktop_and_embedded_on_a_phone(playfield, watched):
    page = open_viewer(watched, playfield)
    assert_accessible(page)
    page.screenshot("apollonian-desktop")
    phone = open_viewer(watched, playfield, "/embed/apollonian", viewport=(390, 700))
    assert phone.page.locator(".site-header").count() == 0
    box = phone.page.locator(".spheres-canvas").bounding_box()
    assert box["width"] <= 390 and box["height"] > 150
    assert sample(phone)["lit"] > 0
    assert_accessible(phone)
    phone.screenshot("apollonian-embed-phone")


def test_the_address_keeps_the_level_and_shell(playfield, watched):
    page = open_viewer(watched, playfield, "/demos/apollonian?level=3&surface=0")
    p = page.page
    assert p.locator(ROOT).get_attribute("data-level") == "3"
    assert p.locator(ROOT).get_attribute("data-count") == "89"
    assert p.locator('[data-action="shell"]').get_attribute("aria-pressed") == "false"
    p.keyboard.press("5")
    wait_level(page, 5)
    assert p.url.endswith("?level=5&surface=0")
    bad = open_viewer(watched, playfield, "/demos/apollonian?level=12")
    assert bad.page.locator(ROOT).get_attribute("data-level") == "7"
    notice = bad.page.locator(".spheres-notice")
    assert notice.is_visible() and "0 to 10" in notice.inner_text()


def test_a_host_page_drives_the_viewer_through_embed_protocol_v1(playfield, watched):
    page = watched(viewport=(1000, 800))
    p = page.page
    frames = {"spheres": ("apollonian", {}, 480, 360)}
    with host_site(host_page(playfield, frames)) as url:
        p.goto(url)
        wait_heard(p, "spheres", "ready")
        ready = heard(p, "spheres", "ready")[0]
        assert ready["v"] == 1 and ready["demo"] == "apollonian"
        assert {"play", "pause", "reset", "input", "set", "get-state", "capture"} <= set(ready["commands"])
        assert ready["events"] == ["drawn"] and ready["inputs"] == ["turn", "zoom"]
        assert call(p, "spheres", "set", {"level": 3, "surface": False})["ok"]
        wait_heard(p, "spheres", "event", "drawn", predicate="m.level === 3 && m.count === 89")
        state = call(p, "spheres", "getState")["result"]
        assert state["level"] == 3 and state["surface"] is False and state["count"] == 89
        assert state["readouts"]["count"] == "89"
        assert call(p, "spheres", "pause")["ok"]
        wait_heard(p, "spheres", "state", predicate="m.running === false")
        assert call(p, "spheres", "send", {"type": "turn", "yaw": 0.5})["ok"]
        shot = call(p, "spheres", "capture")["result"]
        assert shot["image"].startswith("data:image/png;base64,") and len(shot["image"]) > 5000
        refused = call(p, "spheres", "set", {"level": 11})
        assert not refused["ok"] and refused["code"] == "bad-field" and "level" in refused["message"]
        refused = call(p, "spheres", "send", {"type": "fly"})
        assert not refused["ok"] and refused["code"] == "bad-field"
        assert call(p, "spheres", "getState")["result"]["level"] == 3
