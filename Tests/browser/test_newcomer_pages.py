"""Issue 36 in headless Chromium: what a new user sees first (the bouncing balls page after its
gallery card, the recommended iframe snippet on a host page)."""
import json
import pathlib
import re
import urllib.request

import pytest

from axe import assert_accessible
from demo_pages import host_site, wait_for_drawing

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "out" / "screenshots"


def session_config(server, session_id):
    with urllib.request.urlopen(f"{server.url}/api/sessions/{session_id}", timeout=10) as response:
        return json.load(response)["config"]


def test_bouncing_balls_opens_as_its_gallery_card_looked(playfield, watched):
    html = urllib.request.urlopen(playfield.url + "/", timeout=10).read().decode()
    preview = re.search(r"/embed/bouncing-balls\?session=([A-Za-z0-9_-]+)", html).group(1)
    page = watched(viewport=(1280, 800))
    page.page.goto(playfield.url + "/demos/bouncing-balls?new")
    wait_for_drawing(page)
    mine = page.page.evaluate("() => window.playfield.session.id")
    assert mine != preview
    shown, asked = session_config(playfield, mine), session_config(playfield, preview)
    assert shown == asked and shown["balls"] == 24, (shown, asked)
    assert page.page.locator(".balls-form input[name=balls]").input_value() == "24"
    # `?balls=N` still sets the count, with the card's sizes and speeds.
    page.page.goto(playfield.url + "/demos/bouncing-balls?balls=100")
    wait_for_drawing(page)
    config = session_config(playfield, page.page.evaluate("() => window.playfield.session.id"))
    assert config["balls"] == 100 and config["radiusMax"] == 16
    page.screenshot("bouncing-balls-default")


def test_the_recommended_iframe_snippet_logs_nothing(playfield, browser):
    """The builder's snippet, as a person pastes it on a page of his own: no console message.
    (With `allowfullscreen` beside `allow="fullscreen"` Chromium warned that `allow` takes
    precedence.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        builder = context.new_page()
        builder.goto(playfield.url + "/demos/embedding")
        snippet = builder.locator("[data-snippet=iframe]")
        builder.wait_for_function(
            "() => document.querySelector('[data-snippet=iframe]').textContent.includes('<iframe')")
        iframe = snippet.inner_text()
        builder.close()
        with urllib.request.urlopen(
                f"{playfield.url}/oembed?url={urllib.request.quote(playfield.url + '/demos/maze', safe='')}",
                timeout=10) as response:
            oembed = json.load(response)["html"]
        for code in [iframe, oembed]:
            page = context.new_page()
            messages = []
            page.on("console", lambda m: m.type in ("warning", "error")
                    and messages.append(f"{m.type}: {m.text}"))
            html = f'<!doctype html><html lang="en"><title>My page</title><main>{code}</main></html>'
            with host_site(html) as url:
                page.goto(url)
                frame = page.locator("iframe").element_handle().content_frame()
                frame.wait_for_function("() => window.playfield?.hello", timeout=15_000)
                assert not messages, (code, messages)
                # NB: after the check: axe-core's own messages to a cross-origin frame warn.
                assert_accessible(page)
            page.close()
    finally:
        context.close()


def test_a_240_by_180_frame_keeps_its_picture_and_scoreboard_whole(playfield, watched):
    """The builder's smallest frame: the toolbar stays off the picture until the frame is
    hovered, focused or tapped, and Street Soccer's scoreboard fits above its pitch."""
    page = watched(viewport=(700, 500))
    p = page.page
    names = ["street-soccer", "bouncing-balls", "mandelbrot"]
    frames = "".join(f'<iframe id="{name}" src="{playfield.url}/embed/{name}" width="240" height="180" '
                     f'title="{name}" style="border:0;display:block;margin:8px"></iframe>' for name in names)
    with host_site(f"<!doctype html><html lang='en'><title>Host</title><body style='margin:0'>{frames}</body></html>") as url:
        p.goto(url)
        p.mouse.move(690, 490)  # nowhere near the frames
        for name in names:
            frame = p.locator(f"#{name}").element_handle().content_frame()
            if name == "mandelbrot":
                frame.wait_for_selector(".explorer[data-ready=true]", timeout=15_000)
            else:
                # NB: street soccer sends frames only when the match changes: its first is enough.
                enough = 0 if name == "street-soccer" else 3
                frame.wait_for_function(
                    f"() => window.playfield?.hello && window.playfield.frames.received > {enough}")
            bar = frame.locator(".embed-bar")
            bar.evaluate("e => Promise.all(e.getAnimations().map(a => a.finished))")
            assert bar.evaluate("e => [getComputedStyle(e).opacity, getComputedStyle(e).pointerEvents]") == [
                "0", "none"], name
            # Only the menu button: play and reset are in the demo's own controls.
            visible = [b for b in frame.locator(".embed-bar button").all() if b.is_visible()]
            assert len(visible) == 1 and "embed-menu-button" in visible[0].get_attribute("class"), name
            p.locator(f"#{name}").screenshot(path=f"{SHOTS}/embed-240x180-{name}.png")
            p.locator(f"#{name}").hover()
            frame.wait_for_function("() => getComputedStyle(document.querySelector('.embed-bar')).opacity === '1'")
            p.mouse.move(690, 490)
        soccer = p.locator("#street-soccer").element_handle().content_frame()
        board = soccer.locator(".scoreboard").bounding_box()
        pitch = soccer.locator(".pitch").bounding_box()
        outer = p.locator("#street-soccer").bounding_box()
        assert outer["x"] <= board["x"] and board["x"] + board["width"] <= outer["x"] + 240, board
        assert board["y"] >= outer["y"] and board["y"] + board["height"] <= pitch["y"] + 1, (board, pitch)
        assert pitch["y"] + pitch["height"] <= outer["y"] + 180 + 0.5
        for part in soccer.locator(".scoreboard > *").all():
            assert part.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), part.inner_text()


LEAFLET = pathlib.Path("/usr/share/javascript/leaflet")  # Debian's libjs-leaflet (make test-deps)


def leaflet_page(playfield):
    """docs/tiles.md's Leaflet recipe, as a page of another site."""
    text = (ROOT / "docs" / "tiles.md").read_text()
    recipe = re.search(r"<!-- leaflet -->\n```html\n(.*?)```", text, re.S).group(1)
    return recipe.replace("http://127.0.0.1:8080", playfield.url).replace(
        "https://unpkg.com/leaflet@1.9.4/dist/", "/leaflet/")


def test_the_leaflet_recipe_asks_for_tiles_that_exist(playfield, watched):
    """Leaflet (Debian's, no network) with the recipe of docs/tiles.md: every tile it asks for
    is one of ours (0 <= X, Y < 2^Z) and arrives; without `bounds` it asked for negative rows."""
    if not (LEAFLET / "leaflet.js").exists():
        pytest.fail("Debian's libjs-leaflet is missing: run make test-deps")
    with host_site(leaflet_page(playfield), {"/leaflet/": LEAFLET}) as url:
        page = watched(viewport=(800, 600))
        p = page.page
        tiles = []
        p.on("response", lambda r: "/tiles/" in r.url and tiles.append((r.url, r.status)))
        p.goto(url)
        p.wait_for_function("() => document.querySelectorAll('.leaflet-tile-loaded').length >= 4", timeout=20_000)
        # Deeper, off the centre: Seahorse valley.
        p.evaluate("() => { const map = window.map; map.setView([(0.1318 - 1.5) * 256 / 3, (-0.7436 + 2) * 256 / 3], 9, {animate: false}); }")
        p.wait_for_function("""() => [...document.querySelectorAll('.leaflet-tile')].length > 0
          && [...document.querySelectorAll('.leaflet-tile')].every(t => t.classList.contains('leaflet-tile-loaded'))""",
                            timeout=30_000)
        page.screenshot("leaflet-recipe")
    assert len(tiles) >= 8
    for url, status in tiles:
        z, x, y = map(int, re.search(r"/tiles/mandelbrot/(\d+)/(\d+)/(\d+)\.png", url).groups())
        assert status == 200 and 0 <= x < 2 ** z and 0 <= y < 2 ** z, url
    assert any(re.search(r"/tiles/mandelbrot/9/", url) for url, _ in tiles)
