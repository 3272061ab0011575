"""The Mandelbrot explorer (/demos/mandelbrot, /embed/mandelbrot) in headless Chromium.

The page marks its section `data-ready="true"` once every tile of the view is drawn and no
animation runs, and `data-journey` with the journey; the tests wait on those, then read the
canvas's pixels. Tiles come from the real server, so the colours checked are the server's.
"""
import math
import re
from urllib.parse import parse_qs, urlparse

import pytest

from axe import assert_accessible
from demo_pages import host_site

READY = ".explorer[data-ready='true']"
CANVAS = ".explorer-canvas"

# The seed's classic colours for an escape count n of at most `max` (DESIGN.md): inside black;
# f = n/max, f <= 0.5 -> rgb(2f, 2f, 1-2f), else rgb(1, 2-2f, 0), channels floor(v*255 + 0.5).
def seed_colour(n, maximum=200):
    if n >= maximum:
        return (0, 0, 0)
    f = n / maximum
    rgb = (2 * f, 2 * f, 1 - 2 * f) if f <= 0.5 else (1, 2 - 2 * f, 0)
    return tuple(math.floor(v * 255 + 0.5) for v in rgb)


def escape_count(cx, cy, maximum=200):
    """The seed's count: z <- z^2 + c updates done while |z|^2 <= 4, capped at `maximum`."""
    zx = zy = 0.0
    n = 0
    while n < maximum and zx * zx + zy * zy <= 4:
        zx, zy = zx * zx - zy * zy + cx, 2 * zx * zy + cy
        n += 1
    return n


PIXEL = """([fx, fy]) => {
  const canvas = document.querySelector('.explorer-canvas');
  const x = Math.floor(fx * canvas.width), y = Math.floor(fy * canvas.height);
  return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
}"""

HASH = """() => {
  const canvas = document.querySelector('.explorer-canvas');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let h = 2166136261;
  for (let i = 0; i < data.length; i += 4) {
    h ^= data[i] | (data[i + 1] << 8) | (data[i + 2] << 16);
    h = Math.imul(h, 16777619);
  }
  return `${canvas.width}x${canvas.height}:${(h >>> 0).toString(16)}`;
}"""


# A bound on the wait for a whole view, not an expectation: with both cores busy (load 15-27)
# the seahorse view's 2,900-iteration tiles were not all drawn within 15 s.
READY_BOUND_MS = 60_000


def wait_ready(page, journey=None):
    """Waits until the view is fully drawn (and, if given, shows `journey`)."""
    if journey is None:
        page.wait_for_selector(READY, timeout=READY_BOUND_MS)
    else:
        page.wait_for_function(
            "j => { const e = document.querySelector('.explorer');"
            " return e.dataset.journey === j && e.dataset.ready === 'true'; }",
            arg=journey, timeout=READY_BOUND_MS)


def open_explorer(watched, playfield, query="", animate=False, **kwargs):
    """Opens the explorer and waits for its first picture; animations are off unless asked."""
    page = watched(reduced_motion="no-preference" if animate else "reduce", **kwargs)
    tiles = []
    page.page.on("request", lambda r: "/tiles/" in r.url and tiles.append(r.url))
    response = page.page.goto(playfield.url + "/demos/mandelbrot" + query)
    assert response.status == 200
    wait_ready(page.page)
    return page, tiles


def pixel(page, fx, fy):
    return tuple(page.evaluate(PIXEL, [fx, fy]))


def close(actual, expected, tolerance=2):
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected))


def click_quadrant(page, q, frame=None):
    """Clicks the middle of quadrant q (1 top left ... 4 bottom right) of the canvas."""
    canvas = (frame or page).locator(CANVAS)
    box = canvas.bounding_box()
    fx = 0.25 if q in (1, 3) else 0.75
    fy = 0.25 if q in (1, 2) else 0.75
    canvas.click(position={"x": box["width"] * fx, "y": box["height"] * fy})


def query(page):
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_start_view_shows_the_seed_colours(playfield, watched):
    page, tiles = open_explorer(watched, playfield)
    p = page.page
    assert p.locator("[data-readout=journey]").inner_text() == "start"
    assert p.url == playfield.url + "/demos/mandelbrot"
    # The seed's settings: classic colours and 200 iterations on the whole window.
    assert tiles and all("iter=200&palette=classic" in url for url in tiles), tiles
    assert all(re.search(r"/tiles/mandelbrot/\d/", url) for url in tiles)
    # Points in flat areas of the picture (their 7x7 neighbourhoods share one count), given as
    # complex numbers, compared with the seed's formula on the seed's own count.
    for cx, cy in [(-1.85, 1.35), (0.9, 1.2), (0.5, -1.2), (-0.2, 0.3), (-1, 0.1)]:
        expected = seed_colour(escape_count(cx, cy))
        actual = pixel(p, (cx + 2) / 3, (1.5 - cy) / 3)
        assert close(actual, expected), (cx, cy, actual, expected)
    assert seed_colour(1) == (3, 3, 252) and seed_colour(2) == (5, 5, 250)
    assert pixel(p, 0.6, 0.4) == (0, 0, 0)  # inside the main cardioid: c = -0.2 + 0.3i
    # The seed's white cross-hair through the middle.
    assert pixel(p, 0.5, 0.1) == (255, 255, 255)
    assert pixel(p, 0.1, 0.5) == (255, 255, 255)
    assert p.locator("[data-readout=iterations]").inner_text() == "200 (auto)"
    page.screenshot("mandelbrot-start")


def test_quadrant_journey_and_permalink(playfield, watched):
    page, _ = open_explorer(watched, playfield, animate=True)
    p = page.page
    start = p.evaluate(HASH)
    click_quadrant(p, 4)
    wait_ready(p, "4")
    # Quadrant 4 of the seed's window: x in [-0.5, 1], y in [-1.5, 0]; c = -0.2 - 0.3i is
    # inside the main cardioid, at 20% across and 20% down.
    assert pixel(p, 0.2, 0.2) == (0, 0, 0)
    click_quadrant(p, 1)
    wait_ready(p, "4-1")
    assert query(p) == {"journey": "4-1"}
    assert "4-1" in p.locator(".explorer-info").inner_text()
    assert p.locator("[data-readout=centre]").inner_text() == "−0.1250 − 0.3750i"
    journey = p.evaluate(HASH)
    assert journey != start
    page.screenshot("mandelbrot-journey-4-1")

    p.reload()
    wait_ready(p, "4-1")
    assert p.evaluate(HASH) == journey
    assert "4-1" in p.locator(".explorer-info").inner_text()

    # A shared link opened in a fresh page draws the same picture too.
    other, _ = open_explorer(watched, playfield, "?journey=4-1")
    assert other.page.evaluate(HASH) == journey


def test_back_and_reset(playfield, watched):
    page, _ = open_explorer(watched, playfield)
    p = page.page
    start = p.evaluate(HASH)
    back = p.locator("[data-action=back]")
    reset = p.locator("[data-action=reset]")
    assert back.is_disabled() and reset.is_disabled()
    click_quadrant(p, 1)
    wait_ready(p, "1")
    one = p.evaluate(HASH)
    click_quadrant(p, 3)
    wait_ready(p, "1-3")
    back.click()
    wait_ready(p, "1")
    assert query(p) == {"journey": "1"}
    assert p.evaluate(HASH) == one
    back.click()
    wait_ready(p, "")
    assert p.evaluate(HASH) == start
    assert back.is_disabled()

    click_quadrant(p, 2)
    wait_ready(p, "2")
    click_quadrant(p, 2)
    wait_ready(p, "2-2")
    reset.click()
    wait_ready(p, "")
    assert p.url == playfield.url + "/demos/mandelbrot"
    assert p.evaluate(HASH) == start
    # RESET is a step like any other: the browser's Back button undoes it.
    p.go_back()
    wait_ready(p, "2-2")

    # From a shared link there is no earlier page of ours: Back drops the last tap.
    p.goto(playfield.url + "/demos/mandelbrot?journey=3-2-4")
    wait_ready(p, "3-2-4")
    back.click()
    wait_ready(p, "3-2")
    assert query(p) == {"journey": "3-2"}


def test_keyboard(playfield, watched):
    page, _ = open_explorer(watched, playfield)
    p = page.page
    p.locator(CANVAS).focus()
    p.keyboard.press("2")
    wait_ready(p, "2")
    p.keyboard.press("3")
    wait_ready(p, "2-3")
    assert query(p) == {"journey": "2-3"}
    p.keyboard.press("Backspace")
    wait_ready(p, "2")
    p.keyboard.press("r")
    wait_ready(p, "")
    assert query(p) == {}
    p.keyboard.press("+")
    wait_ready(p)
    assert float(query(p)["zoom"]) == 1
    assert (float(query(p)["x"]), float(query(p)["y"])) == (-0.5, 0)
    p.keyboard.press("ArrowRight")
    wait_ready(p)
    # One arrow press moves an eighth of the view (side 1.5 at zoom 1).
    assert float(query(p)["x"]) == pytest.approx(-0.5 + 1.5 / 8, abs=0.01)
    p.keyboard.press("-")
    wait_ready(p)
    assert float(query(p)["zoom"]) == 0
    assert p.locator("[data-readout=journey]").inner_text() == "free view"


def test_drag_and_wheel(playfield, watched):
    page, _ = open_explorer(watched, playfield)
    p = page.page
    box = p.locator(CANVAS).bounding_box()
    size = box["width"]
    p.mouse.move(box["x"] + 100, box["y"] + 100)
    p.mouse.down()
    p.mouse.move(box["x"] + 160, box["y"] + 140, steps=6)
    p.mouse.up()
    wait_ready(p)
    q = query(p)
    # The picture follows the pointer: the centre moves 60 px left and 40 px up, in units.
    assert float(q["x"]) == pytest.approx(-0.5 - 60 * 3 / size, abs=1e-9)
    assert float(q["y"]) == pytest.approx(40 * 3 / size, abs=1e-9)
    assert float(q["zoom"]) == 0
    assert p.locator("[data-readout=journey]").inner_text() == "free view"

    # Wheel zoom keeps the point under the pointer in place.
    before = {k: float(v) for k, v in query(p).items()}
    px, py = 0.3 * size, 0.6 * size
    p.mouse.move(box["x"] + px, box["y"] + py)
    for _ in range(4):
        p.mouse.wheel(0, -100)
    p.wait_for_function("() => new URLSearchParams(location.search).get('zoom') === '1'")
    wait_ready(p)
    after = {k: float(v) for k, v in query(p).items()}
    assert after["zoom"] == 1

    def under(view):
        pixel_side = 3 / 2 ** view["zoom"] / size
        return (view["x"] + (px - size / 2) * pixel_side, view["y"] - (py - size / 2) * pixel_side)

    # NB: a wheel event reports whole CSS pixels, so allow one pixel of the old view.
    assert under(after) == pytest.approx(under(before), abs=3 / size)
    page.screenshot("mandelbrot-free-view")


def test_palette_and_iterations(playfield, watched):
    page, tiles = open_explorer(watched, playfield)
    p = page.page
    p.select_option("[data-control=palette]", "fire")
    p.wait_for_function("() => location.search.includes('palette=fire')")
    wait_ready(p)
    p.select_option("[data-control=iterations]", "1000")
    p.wait_for_function("() => location.search.includes('iter=1000')")
    wait_ready(p)
    assert query(p) == {"palette": "fire", "iter": "1000"}
    assert any(url.endswith("?iter=1000&palette=fire") for url in tiles)
    fire = p.evaluate(HASH)
    p.reload()
    wait_ready(p)
    assert p.locator("[data-control=palette]").input_value() == "fire"
    assert p.locator("[data-control=iterations]").input_value() == "1000"
    assert p.evaluate(HASH) == fire
    assert p.locator("[data-readout=iterations]").inner_text() == "1,000"
    page.screenshot("mandelbrot-fire")
    # Going back returns to the earlier view, not to the earlier look.
    click_quadrant(p, 1)
    wait_ready(p, "1")
    p.select_option("[data-control=palette]", "ocean")
    p.wait_for_function("() => location.search.includes('palette=ocean')")
    p.locator("[data-action=back]").click()
    wait_ready(p, "")
    assert query(p) == {"palette": "ocean", "iter": "1000"}
    assert p.locator("[data-control=palette]").input_value() == "ocean"


def test_bad_address_is_explained_not_fatal(playfield, watched):
    page, _ = open_explorer(watched, playfield, "?journey=5-1&palette=plaid&iter=0")
    notice = page.page.locator(".explorer-notice")
    assert notice.is_visible()
    text = notice.inner_text()
    assert "5-1" in text and "plaid" in text and "iter" in text
    assert page.page.locator("[data-readout=journey]").inner_text() == "start"


def test_deep_zoom_past_doubles(playfield, watched):
    """Quadrant taps past level 42 and wheel zoom to level 400+, near the dendrite at c = i,
    where pixels escape quickly; the permalink holds the centre as long decimals, and a reload
    shows the same picture."""
    page, tiles = open_explorer(watched, playfield, "?x=0&y=1&zoom=30")
    p = page.page
    zoom = lambda: float(p.evaluate("document.querySelector('.explorer').dataset.zoom"))
    p.locator(CANVAS).focus()
    for index in range(14):
        p.keyboard.press(str(1 + index % 4))
        wait_ready(p)
    assert zoom() == 44
    assert query(p)["journey"] == "1-2-3-4-1-2-3-4-1-2-3-4-1-2"
    depths = [int(re.search(r"/tiles/mandelbrot/(\d+)/", url).group(1)) for url in tiles]
    assert max(depths) > 42  # perturbation tiles, no longer a precision notice
    assert p.locator(".explorer-notice").is_hidden()
    page.screenshot("mandelbrot-deep-level-44")

    box = p.locator(CANVAS).bounding_box()
    p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(4):
        p.mouse.wheel(0, -36000)  # 90 levels each (1/400 level per wheel pixel)
        wait_ready(p)
    p.wait_for_function("() => location.search.includes('zoom=404')")
    assert zoom() == 404
    q = query(p)
    assert "journey" not in q and len(q["x"]) + len(q["y"]) > 150
    assert re.fullmatch(r"\d\.\de-12[12]", p.locator("[data-readout=depth]").inner_text())
    depths = [int(re.search(r"/tiles/mandelbrot/(\d+)/", url).group(1)) for url in tiles]
    assert max(depths) >= 404
    page.screenshot("mandelbrot-deep-level-404")
    centre = p.locator("[data-readout=centre]").inner_text()
    before = p.evaluate(HASH)

    p.reload()
    wait_ready(p)
    assert zoom() == 404
    assert p.locator("[data-readout=centre]").inner_text() == centre
    assert p.evaluate(HASH) == before
    assert_accessible(p)


def test_bookmarks_fly_to_famous_places(playfield, watched):
    page, _ = open_explorer(watched, playfield)
    p = page.page
    menu = p.locator("[data-control=bookmark]")
    labels = menu.locator("option").all_inner_texts()
    assert "The dendrite at c = i (1e-300)" in labels
    menu.select_option(label="The dendrite at c = i (1e-300)")
    p.wait_for_function("() => location.search.includes('zoom=997')")
    wait_ready(p)
    assert query(p)["x"] == "0" and query(p)["y"] == "1"
    assert p.locator("[data-readout=depth]").inner_text() == "2.2e-300"
    page.screenshot("mandelbrot-bookmark-i-1e-300")
    assert_accessible(p)


def test_geometry_module(playfield, watched):
    """The pure view math, run in the page: a journey lands exactly on its quadtree tile."""
    page, _ = open_explorer(watched, playfield)
    result = page.page.evaluate("""async () => {
      const g = await import('/js/mandelbrot/geometry.js');
      const u = await import('/js/mandelbrot/url-state.js');
      const journey = [1, 4, 4, 1, 3, 3];
      const view = g.journeyView(g.startView, journey);
      const covering = g.coveringTiles(view, view.zoom, 256);
      const round = u.parseState(u.formatState({
        anchor: {x: -0.7436438870371587, y: 0.13182590420531198, zoom: 12.345},
        journey: [2, 3], palette: 'ocean', iterations: 777}));
      const corners = [[10, 10], [90, 10], [10, 90], [90, 90]];
      return {view, covering, round, auto: [0, 5, 6, 12, 42].map(g.autoIterations),
              quadrants: corners.map(([x, y]) => g.quadrantAt(x, y, 100))};
    }""")
    # 1-4-4-1-3-3 from the seed's window is tile 6/X/Y: walk the quadtree by hand.
    x = y = 0
    for q in [1, 4, 4, 1, 3, 3]:
        x, y = 2 * x + (q in (2, 4)), 2 * y + (q in (3, 4))
    side = 3 / 64
    assert result["view"] == {"x": -2 + (x + 0.5) * side, "y": 1.5 - (y + 0.5) * side, "zoom": 6}
    [tile] = result["covering"]
    assert (tile["z"], tile["x"], tile["y"]) == (6, x, y)
    assert (tile["left"], tile["top"], tile["side"]) == pytest.approx((0, 0, 256), abs=1e-9)
    assert result["round"] == {"state": {
        "anchor": {"x": -0.7436438870371587, "y": 0.13182590420531198, "zoom": 12.345},
        "journey": [2, 3], "palette": "ocean", "iterations": 777}, "problems": []}
    assert result["auto"][:2] == [200, 200] and result["auto"] == sorted(result["auto"])
    assert result["auto"][-1] <= 100000
    assert result["quadrants"] == [1, 2, 3, 4]


def test_phone_touch(playfield, watched):
    phone = dict(viewport=(390, 844), has_touch=True, is_mobile=True, device_scale_factor=3)
    page, _ = open_explorer(watched, playfield, **phone)
    p = page.page
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    box = p.locator(CANVAS).bounding_box()
    assert box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    p.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.75)
    wait_ready(p, "3")
    assert query(p) == {"journey": "3"}
    page.screenshot("mandelbrot-phone-journey-3")

    # A two-finger pinch spreading from 60 to 120 px apart zooms in one level about its middle.
    cdp = p.context.new_cdp_session(p)
    mx, my = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def touch(kind, spread):
        points = [] if kind == "touchEnd" else [
            {"x": mx - spread / 2, "y": my, "id": 1}, {"x": mx + spread / 2, "y": my, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 60)
    for spread in range(70, 121, 10):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    wait_ready(p)
    q = query(p)
    assert float(q["zoom"]) == pytest.approx(2, abs=0.01)
    # Quadrant 3's centre of the seed's window, unchanged by a pinch about the middle.
    assert (float(q["x"]), float(q["y"])) == pytest.approx((-1.25, -0.75), abs=3 / 2 / box["width"])
    page.screenshot("mandelbrot-phone-pinch")


def test_embed_in_an_iframe(playfield, watched):
    page = watched(viewport=(900, 700))
    p = page.page
    html = (
        '<!doctype html><title>Host</title><p>Another site that embeds the explorer:</p>'
        f'<iframe id="f" src="{playfield.url}/embed/mandelbrot?journey=1" '
        'width="480" height="360" style="border:0"></iframe>')
    with host_site(html) as host:
        p.goto(host)
        frame = p.frame_locator("#f")
        frame.locator(READY).wait_for(timeout=15000)
        inner = next(f for f in p.frames if "/embed/mandelbrot" in f.url)
        assert frame.locator(".site-header").count() == 0
        box = frame.locator(CANVAS).bounding_box()
        # A square as large as the frame allows below the info line and above the controls.
        assert box["width"] == box["height"] and 180 <= box["height"] <= 360
        length = p.evaluate("history.length")
        click_quadrant(p, 4, frame)
        inner.wait_for_function(
            "() => document.querySelector('.explorer').dataset.journey === '1-4'")
        inner.wait_for_selector(READY)
        assert "journey=1-4" in inner.url
        page.screenshot("mandelbrot-embed")
        # The frame keeps its steps to itself: the host page's Back button stays the host's.
        assert p.evaluate("history.length") == length
        click_quadrant(p, 2, frame)
        inner.wait_for_function(
            "() => document.querySelector('.explorer').dataset.journey === '1-4-2'")
        frame.locator("[data-action=back]").click()
        inner.wait_for_function(
            "() => document.querySelector('.explorer').dataset.journey === '1-4'")
        inner.wait_for_selector(READY)

        # A bigger frame gets a bigger square.
        p.evaluate("() => Object.assign(document.getElementById('f'), {width: 800, height: 640})")
        inner.wait_for_function(
            "w => document.querySelector('.explorer-canvas').getBoundingClientRect().width > w",
            arg=box["width"] + 100)
        inner.wait_for_selector(READY)
        page.screenshot("mandelbrot-embed-large")


COLOUR_SPREAD = """() => {
  const canvas = document.querySelector('.explorer-canvas');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return { colours: counts.size, top: Math.max(...counts.values()) / (data.length / 4) };
}"""

SEAHORSE = "?x=-0.743643887037158&y=0.131825904205311&zoom=30"


def test_deep_views_are_coloured_to_show_their_structure(playfield, watched):
    """Issue 23: the seed's classic colours divide the count by the cap, so a deep view (here
    2,900 iterations in seahorse valley) turns one flat colour; the default palette, auto,
    keeps the seed's colours for the seed's view and bands deep views by the smooth count."""
    page, tiles = open_explorer(watched, playfield, SEAHORSE)
    p = page.page
    assert p.locator("[data-control=palette]").input_value() == "auto"
    assert tiles and all("&palette=ultra" in url for url in tiles if "iter=2900" in url), tiles
    spread = p.evaluate(COLOUR_SPREAD)
    assert spread["top"] < 0.05 and spread["colours"] > 20_000, spread
    page.screenshot("mandelbrot-seahorse-auto")
    # The seed's palette, asked for by name, is still the seed's: the same view goes flat.
    classic, _ = open_explorer(watched, playfield, SEAHORSE + "&palette=classic")
    assert classic.page.evaluate(COLOUR_SPREAD)["top"] > 2 * spread["top"]


def test_quadrants_are_numbered_on_the_picture(playfield, watched):
    """The seed's quadrants 1 (top left) to 4 (bottom right) are written beside the
    cross-hair's centre, so a journey such as 1-4-4-1 can be followed on screen."""
    page, _ = open_explorer(watched, playfield)
    p = page.page
    # The view's centre (-0.5) is inside the set, black: the numbers are the light pixels there.
    light = p.evaluate("""() => {
      const canvas = document.querySelector('.explorer-canvas');
      const size = canvas.width, h = Math.round(size * 0.04), middle = size / 2;
      return [[-1, -1], [1, -1], [-1, 1], [1, 1]].map(([dx, dy]) => {
        const x = Math.round(middle + dx * h * 0.8 - h / 2), y = Math.round(middle + dy * h * 0.8 - h / 2);
        const d = canvas.getContext('2d').getImageData(x, y, h, h).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] > 200 && d[i + 2] > 200) n += 1;
        return n;
      });
    }""")
    assert all(n > 10 for n in light), light
    assert "quadrants 1 to 4" in p.locator(CANVAS).get_attribute("aria-label")


def test_a_deep_centre_reads_as_one_line(playfield, watched):
    page, _ = open_explorer(watched, playfield, "?x=0&y=1&zoom=200")
    centre = page.page.locator("[data-readout=centre]")
    text = centre.inner_text()
    assert re.fullmatch(r"0\.\d{16}… \+ 1\.\d{16}…i \(\d+ decimals\)", text), text
    assert len(centre.get_attribute("title")) > 100, "every digit is in the title"
