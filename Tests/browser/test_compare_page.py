"""The compare page (/compare): it makes the group the address describes, draws every pane
with its demo's picture code, plays, steps, seeks, marks the tick where the panes part, shows
each view (side by side, 2x2, overlay, wipe; stacked on a phone), swaps, charts a readout of
every pane, captures one PNG, and passes axe."""
import json
import pathlib
import urllib.parse
import urllib.request

import pytest

from axe import assert_accessible
from demo_pages import create_session, open_demo
from test_stored_pages import play_to_game_over
from test_demos import host_page  # noqa: F401 (the fixture: a page of another origin)

SHOTS = pathlib.Path(__file__).resolve().parent.parent.parent / "out" / "screenshots"
SPEC = {
    "kind": "bouncing-balls", "seed": "7", "ticks": "600",
    "config": json.dumps({"balls": 6, "width": 300, "height": 200, "radiusMin": 10,
                          "radiusMax": 20, "speedMin": 200, "speedMax": 400}),
    "variants": json.dumps([{}, {"restitution": 0.5}]),
}


def open_compare(watched, url, spec=SPEC, **kwargs):
    page = watched(**kwargs)
    page.page.goto(url + "/compare?" + urllib.parse.urlencode(spec))
    page.page.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                                timeout=10_000)
    return page


def test_the_page_plays_both_panes_and_marks_where_they_part(playfield, watched):
    page = open_compare(watched, playfield.url)
    p = page.page
    assert p.locator(".compare-pane canvas").count() == 2
    # Played on load; the divergence arrives within the run and is marked on the timeline.
    p.wait_for_function("() => window.playfield.diverged !== null", timeout=15_000)
    tick = p.evaluate("() => window.playfield.diverged")
    assert tick > 0
    assert p.locator(".compare-mark").is_visible()
    assert f"tick {tick}" in p.locator(".compare-diverged").inner_text()
    # Both canvases drew something other than the background.
    drawn = p.evaluate("""() => [...document.querySelectorAll('.compare-pane canvas')].map(c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 60) return true;
        return false; })""")
    assert drawn == [True, True]
    page.screenshot("compare-desktop")
    assert_accessible(page)


def test_the_keyboard_pauses_steps_and_seeks(playfield, watched):
    page = open_compare(watched, playfield.url)
    p = page.page
    play = p.locator('[data-action="play"]')
    play.focus()
    p.keyboard.press("Enter")  # pause (it plays on load)
    p.wait_for_function("() => window.playfield.status && !window.playfield.status.playing")
    before = p.evaluate("() => window.playfield.frames.newest.tick")
    p.locator('[data-action="step"]').focus()
    p.keyboard.press("Enter")
    p.wait_for_function(f"() => window.playfield.frames.newest.tick === {before + 1}")
    slider = p.locator("#compare-seek")
    slider.focus()
    p.keyboard.press("Home")
    p.wait_for_function("() => window.playfield.frames.newest.tick === 0")
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => window.playfield.frames.newest.tick === 1")
    assert p.locator(".compare-tick").inner_text() == "1"


def test_four_panes_make_a_grid_and_stack_on_a_phone(playfield, watched):
    spec = dict(SPEC, variants=json.dumps([{}, {"restitution": 0.9}, {"restitution": 0.7},
                                           {"restitution": 0.5}]))
    page = open_compare(watched, playfield.url, spec)
    boxes = [page.page.locator(".compare-pane").nth(i).bounding_box() for i in range(4)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[2]["y"] > boxes[0]["y"], "2x2"
    page.screenshot("compare-four")
    phone = open_compare(watched, playfield.url, spec, viewport=(390, 844), has_touch=True,
                         is_mobile=True)
    boxes = [phone.page.locator(".compare-pane").nth(i).bounding_box() for i in range(2)]
    assert boxes[1]["y"] > boxes[0]["y"] and abs(boxes[1]["x"] - boxes[0]["x"]) < 1, "stacked"
    phone.screenshot("compare-phone")
    assert_accessible(phone)


def test_a_refused_comparison_says_why(playfield, watched):
    page = watched()
    spec = dict(SPEC, variants=json.dumps([{}, {"wobble": 1}]))
    page.page.goto(playfield.url + "/compare?" + urllib.parse.urlencode(spec))
    status = page.page.locator(".compare-status")
    status.wait_for(state="visible")
    page.page.wait_for_function(
        "() => document.querySelector('.compare-status').textContent.includes('wobble')")
    page.allow(lambda problem: "400" in problem)
    page.screenshot("compare-refused")


@pytest.mark.parametrize("variants", [{"restitution": 0.5}, [{}] * 5, [{}, 3]],
                         ids=["not-a-list", "five", "a-number"])
def test_an_address_the_server_refuses_says_why_and_leaves_the_form(playfield, watched, variants):
    page = watched()
    p = page.page
    p.goto(playfield.url + "/compare?" + urllib.parse.urlencode(dict(SPEC, variants=json.dumps(variants))))
    p.wait_for_function("() => document.querySelector('.compare-status').textContent.includes('cannot start')")
    assert "variants" in p.locator(".compare-status").inner_text()
    page.allow(lambda problem: "400" in problem)
    # The form holds the address's comparison, to be mended and sent again.
    p.locator(".compare-setup summary").click()
    p.locator('textarea[name="variants"]').fill('{}\n{"restitution": 0.5}')
    p.locator(".compare-form button").click()
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2", timeout=10_000)
    assert p.locator(".compare-pane canvas").count() == 2
    assert p.locator(".compare-status").inner_text() == ""


@pytest.mark.parametrize("kind", ["maze", "holes", "tag-cloud"])
def test_a_demo_pages_compare_link_opens_a_comparison_of_it(playfield, watched, kind):
    page = watched()
    page.page.goto(f"{playfield.url}/demos/{kind}")
    page.page.get_by_role("link", name="Compare with…").click()
    page.page.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                                timeout=10_000)
    assert page.page.evaluate("() => window.playfield.hello.kind") == kind
    assert page.page.locator(".compare-pane canvas").count() == 2
    page.screenshot(f"compare-{kind}")


def test_a_host_page_of_another_origin_drives_the_whole_group(playfield, watched, host_page):
    page = watched()
    p = page.page
    spec = urllib.parse.urlencode(SPEC)
    p.goto(host_page(
        '<!doctype html><title>host</title>'
        '<script>window.heard = []; addEventListener("message", (e) => heard.push(e.data));</script>'
        f'<iframe title="compare" src="{playfield.url}/embed/compare?{spec}" width="640" height="420"></iframe>'))
    frame = p.wait_for_selector("iframe").content_frame()
    frame.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                            timeout=10_000)

    def post(message):
        p.evaluate("(m) => document.querySelector('iframe').contentWindow.postMessage("
                   "{ playfield: { v: 1, ...m } }, '*')", message)

    post({"type": "pause"})
    frame.wait_for_function("() => window.playfield.status && !window.playfield.status.playing")
    post({"type": "input", "input": {"type": "seek", "tick": 100}})
    frame.wait_for_function("() => window.playfield.frames.newest.tick === 100")
    post({"type": "step"})
    frame.wait_for_function("() => window.playfield.frames.newest.tick === 101")
    newest = frame.evaluate("() => window.playfield.frames.newest")
    assert len(newest["panes"]) == 2, "every pane moved with the one command"
    heard = p.evaluate("() => window.heard.map((m) => m.playfield)")
    assert any(m["type"] == "ready" and m["demo"] == "compare" for m in heard)
    assert any(m["type"] == "event" and m.get("name") == "diverged" for m in heard)
    # A capture is every pane side by side, 8 px apart.
    post({"type": "capture", "id": 7})
    p.wait_for_function("() => window.heard.some((m) => m.playfield?.type === 'reply' && m.playfield.id === 7)")
    reply = p.evaluate("() => window.heard.find((m) => m.playfield?.type === 'reply' && m.playfield.id === 7).playfield")
    assert reply["ok"], reply
    widths = frame.evaluate("() => [...document.querySelectorAll('.compare-pane canvas')].map((c) => c.width)")
    assert reply["result"]["width"] == sum(widths) + 8 and reply["result"]["image"].startswith("data:image/png")
    page.screenshot("compare-embedded")


# Each view, on a desktop and on a phone: which pictures show, where, and what they hold.
VIEWS = ["side", "grid", "overlay", "wipe"]
SIZES = {"desktop": {"viewport": (1280, 900)},
         "phone": {"viewport": (390, 844), "has_touch": True, "is_mobile": True}}

DRAWN = """(selector) => [...document.querySelectorAll(selector)].map(c => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 60) return true;
  return false; })"""


def pause(page):
    p = page.page
    p.locator('[data-action="play"]').click()
    p.wait_for_function("() => window.playfield.status && !window.playfield.status.playing")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", VIEWS)
def test_every_view_shows_its_panes(playfield, watched, view, size):
    variants = [{}, {"restitution": 0.7}] + ([{"restitution": 0.5}, {"restitution": 0.3}]
                                              if view == "grid" else [])
    spec = dict(SPEC, variants=json.dumps(variants), view=view)
    page = open_compare(watched, playfield.url, spec, **SIZES[size])
    p = page.page
    assert p.evaluate("() => window.playfield.view") == view
    assert p.locator(f'input[name="view"][value="{view}"]').is_checked()
    panes = p.locator(".compare-pane canvas")
    if view in ("overlay", "wipe"):
        assert p.locator(".compare-stage canvas").is_visible()
        assert not panes.first.is_visible(), "the panes are drawn on the stage"
        assert p.locator(".compare-wipe").is_visible() == (view == "wipe")
        assert p.locator(".compare-ghost").is_visible() == (view == "overlay")
        assert p.evaluate(DRAWN, ".compare-stage canvas") == [True]
        caption = p.locator(".compare-stage figcaption").inner_text()
        assert "pane 1 (the shared config)" in caption and "pane 2 (restitution 0.7)" in caption
        assert caption.startswith("Wipe" if view == "wipe" else "Overlay")
    else:
        assert not p.locator(".compare-stage").is_visible()
        boxes = [panes.nth(i).bounding_box() for i in range(len(variants))]
        if size == "phone":
            assert all(b["y"] > a["y"] + a["height"] - 1 for a, b in zip(boxes, boxes[1:])), "stacked"
        elif view == "side":
            assert boxes[0]["y"] == boxes[1]["y"] and boxes[1]["x"] > boxes[0]["x"] + boxes[0]["width"]
        else:
            assert boxes[0]["y"] == boxes[1]["y"] and boxes[2]["y"] > boxes[0]["y"] + boxes[0]["height"] - 1
            assert abs(boxes[2]["x"] - boxes[0]["x"]) < 1, "2x2"
        assert p.evaluate(DRAWN, ".compare-pane canvas") == [True] * len(variants)
    # Nothing is wider than the screen.
    assert p.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"compare-view-{view}-{size}.png"), full_page=True)
    assert_accessible(page)


STAGE_VERSUS_PANES = """() => {
  const data = (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const stage = data(document.querySelector('.compare-stage canvas'));
  const panes = [...document.querySelectorAll('.compare-pane canvas')].map((c) => ({
    pane: Number(c.closest('figure').dataset.pane), d: data(c), width: c.width }));
  const width = panes[0].width;
  // Per pane: how many pixels (away from the wipe line) the stage shows as that pane has them,
  // left and right of the middle, and how many pixels differ between the two panes.
  const out = { left: {}, right: {}, differing: 0, ghosted: 0, nearerGhost: 0 };
  const [a, b] = panes;
  for (let i = 0; i < stage.length; i += 4) {
    const x = (i / 4) % width;
    const side = x < width / 2 ? 'left' : 'right';
    const same = (d) => d[i] === stage[i] && d[i + 1] === stage[i + 1] && d[i + 2] === stage[i + 2];
    for (const p of panes) out[side][p.pane] = (out[side][p.pane] || 0) + (same(p.d) ? 1 : 0);
    if (a.d[i] !== b.d[i] || a.d[i + 1] !== b.d[i + 1] || a.d[i + 2] !== b.d[i + 2]) {
      out.differing += 1;
      if (!same(a.d) && !same(b.d)) out.ghosted += 1;
      const far = (d) => Math.abs(d[i] - stage[i]) + Math.abs(d[i + 1] - stage[i + 1]) + Math.abs(d[i + 2] - stage[i + 2]);
      if (far(b.d) < far(a.d)) out.nearerGhost += 1;
    }
  }
  out.half = (stage.length / 4) / 2;
  return out;
}"""


def test_overlay_ghosts_wipe_splits_and_swap_reorders_by_keyboard(playfield, watched):
    page = open_compare(watched, playfield.url, dict(SPEC, view="overlay"))
    p = page.page
    p.wait_for_function("() => window.playfield.diverged !== null", timeout=15_000)
    pause(page)
    p.locator("#compare-seek").focus()
    p.keyboard.press("End")  # the end: the panes are far apart
    end = p.evaluate("() => window.playfield.hello.end")
    p.wait_for_function(f"() => window.playfield.frames.newest.tick === {end}")
    found = p.evaluate(STAGE_VERSUS_PANES)
    assert found["differing"] > 100
    # Overlay: where the panes differ, the stage is neither: the ghost is blended over the first.
    assert found["ghosted"] > 0.9 * found["differing"], found
    # At 40 % the first pane shows more than its ghost; the slider at 90 % turns that round.
    assert found["nearerGhost"] < 0.1 * found["differing"], found
    p.locator("#compare-ghost").focus()
    p.keyboard.press("End")
    p.wait_for_function("() => document.querySelector('#compare-ghost').value === '90'")
    found = p.evaluate(STAGE_VERSUS_PANES)
    assert found["nearerGhost"] > 0.9 * found["differing"], found
    page.screenshot("compare-overlay-paused")

    # The keyboard moves to the wipe (arrow keys in the view's radio group), then the line.
    p.locator('input[name="view"][value="overlay"]').focus()
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => window.playfield.view === 'wipe'")
    assert "view=wipe" in p.url
    found = p.evaluate(STAGE_VERSUS_PANES)
    line = 2 * p.evaluate("() => document.querySelector('.compare-stage canvas').height")
    # At 50 %, the left half is pane 1 and the right half pane 2 (but for the line between).
    assert found["left"]["0"] >= found["half"] - line and found["right"]["1"] >= found["half"] - line
    wipe = p.locator("#compare-wipe")
    wipe.focus()
    p.keyboard.press("End")  # all of pane 1
    p.wait_for_function("() => document.querySelector('#compare-wipe').value === '100'")
    found = p.evaluate(STAGE_VERSUS_PANES)
    shown = {pane: found["left"][pane] + found["right"][pane] for pane in ("0", "1")}
    assert shown["0"] >= 2 * found["half"] - line and shown["1"] < shown["0"], "the line at the right edge: pane 1 only"
    page.screenshot("compare-wipe-right")

    # SWAP (Enter on the button): pane 2 comes first, so the wipe shows pane 2 where pane 1 was.
    swap = p.locator('[data-action="swap"]')
    swap.focus()
    p.keyboard.press("Enter")
    p.wait_for_function("() => window.playfield.order.join() === '1,0'")
    assert p.locator(".compare-stage figcaption").inner_text().startswith("Wipe: pane 2")
    assert p.locator(".compare-announce").inner_text() == "Panes in order 2, 1."
    found = p.evaluate(STAGE_VERSUS_PANES)
    shown = {pane: found["left"][pane] + found["right"][pane] for pane in ("0", "1")}
    assert shown["1"] >= 2 * found["half"] - line and shown["0"] < shown["1"]
    # Back to side by side: the panes' figures are in the swapped order too.
    p.locator('input[name="view"][value="side"]').check()
    order = p.evaluate("() => [...document.querySelectorAll('.compare-pane')].map((f) => f.dataset.pane)")
    assert order == ["1", "0"]
    assert_accessible(page)


def test_the_chart_plots_a_readout_of_every_pane_and_marks_the_parting(playfield, watched):
    page = open_compare(watched, playfield.url)
    p = page.page
    p.wait_for_function("() => window.playfield.diverged !== null", timeout=15_000)
    names = p.locator('select[name="readout"] option').all_inner_texts()
    assert "energy" in names and "count" in names
    assert p.locator('select[name="readout"]').input_value() == "energy", "balls chart their energy first"
    p.locator('select[name="readout"]').select_option("momentum x")
    p.wait_for_function("() => window.playfield.chart.chosen === 'momentum x'")
    p.locator('select[name="readout"]').select_option("energy")
    pause(page)
    tick = p.evaluate("() => window.playfield.frames.newest.tick")
    newest = p.evaluate("() => window.playfield.frames.newest")
    values = p.evaluate(f"() => window.playfield.chart.valuesAt({tick})")
    assert values == pytest.approx([pane["energy"] for pane in newest["panes"]], rel=1e-6)
    assert values[0] != pytest.approx(values[1]), "the lossy pane has less energy after parting"
    legend = p.locator(".compare-legend li").all_inner_texts()
    assert len(legend) == 2 and legend[0].startswith("Pane 1: ")
    label = p.locator(".compare-plot").get_attribute("aria-label")
    assert label.startswith("energy of every pane by tick") and f"part at tick {p.evaluate('() => window.playfield.diverged')}" in label
    p.evaluate("() => window.playfield.chart.draw()")  # NB: as the next animation frame would
    colours = page.canvas_colours(".compare-plot")
    assert "#ffd400" in colours and "#7fc8ff" in colours, "a line per pane in its colour"
    assert "#ff6b6b" in colours, "the parting tick's line"
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / "compare-chart.png"), full_page=True)


def test_go_to_the_parting_and_seeking_back_shows_the_same_frames(playfield, watched):
    page = open_compare(watched, playfield.url)
    p = page.page
    p.wait_for_function("() => window.playfield.diverged !== null", timeout=15_000)
    pause(page)
    diverged = p.evaluate("() => window.playfield.diverged")
    button = p.locator('[data-action="parting"]')
    assert button.inner_text() == f"GO TO TICK {diverged}"
    button.click()
    p.wait_for_function(f"() => window.playfield.frames.newest.tick === {diverged}")
    at_parting = p.evaluate("() => window.playfield.frames.newest")
    assert at_parting["panes"][0] != at_parting["panes"][1]
    p.locator("#compare-seek").focus()
    p.keyboard.press("End")
    p.wait_for_function("() => window.playfield.frames.newest.tick === window.playfield.hello.end")
    button.click()
    p.wait_for_function(f"() => window.playfield.frames.newest.tick === {diverged}")
    assert p.evaluate("() => window.playfield.frames.newest") == at_parting


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_capture_downloads_one_png_of_every_pane(playfield, watched):
    spec = dict(SPEC, variants=json.dumps([{}, {"restitution": 0.8}, {"restitution": 0.5}]))
    page = open_compare(watched, playfield.url, spec)
    p = page.page
    pause(page)
    p.locator('[data-action="capture"]').click()
    link = p.locator(".compare-download")
    link.wait_for(state="visible")
    assert p.evaluate("() => document.activeElement === document.querySelector('.compare-download')")
    with p.expect_download() as caught:
        link.click()
    download = caught.value
    tick = p.evaluate("() => window.playfield.frames.newest.tick")
    assert download.suggested_filename == f"compare-bouncing-balls-tick-{tick}.png"
    width, height = png_size(open(download.path(), "rb").read())
    sizes = p.evaluate("() => [...document.querySelectorAll('.compare-pane canvas')].map((c) => [c.width, c.height])")
    assert width == sum(w for w, _ in sizes) + 8 * 2 and height == max(h for _, h in sizes)
    assert p.evaluate("() => window.playfield.capture.width") == width
    page.screenshot("compare-captured")
    assert_accessible(page)


def test_soccer_and_paintbrush_panes_are_drawn_by_their_demos_pictures(playfield, watched):
    page = watched()
    p = page.page
    p.goto(playfield.url + "/compare?kind=street-soccer")
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                        timeout=10_000)
    kits = p.evaluate("() => window.playfield.frames.newest.panes[0].kits")
    colours = page.canvas_colours(".compare-pane canvas")
    # The pitch's squares, a goal's, and the home side's shirts (not the frame's numbers as text).
    assert "#2e8540" in colours and "#d9d9d9" in colours and "#1f5f2c" in colours
    assert kits["home"]["shirt"].lower() in colours
    page.screenshot("compare-street-soccer")
    page.close()

    page = watched()
    p = page.page
    p.goto(playfield.url + "/compare?kind=paintbrush&variants=" + urllib.parse.quote('[{"width": 320}, {}]'))
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                        timeout=10_000)
    # An empty picture of the world's shape in the paintbrush's background: no text drawn on it.
    shapes = p.evaluate("() => [...document.querySelectorAll('.compare-pane canvas')].map((c) => c.width / c.height)")
    assert shapes[0] == pytest.approx(320 / 480, abs=0.02) and shapes[1] == pytest.approx(640 / 480, abs=0.02)
    assert set(page.canvas_colours(".compare-pane canvas")) == {"#000000"}
    page.screenshot("compare-paintbrush")


def test_loop_marks_loop_the_group_where_the_server_has_them(playfield, watched):
    page = open_compare(watched, playfield.url)
    p = page.page
    controls = p.locator(".compare-loop")
    if "loop" not in p.evaluate("() => window.playfield.hello"):
        # A server without loop marks (docs/protocol.md 6b before issue 34's loop): none offered.
        assert not controls.is_visible()
        return
    pause(page)
    slider = p.locator("#compare-seek")

    def seek_to(tick):
        slider.focus()
        p.keyboard.press("Home")
        p.evaluate(f"() => {{ const s = document.querySelector('#compare-seek'); s.value = '{tick}';"
                   " s.dispatchEvent(new Event('input', {bubbles: true})); }")
        p.wait_for_function(f"() => window.playfield.frames.newest.tick === {tick}")

    seek_to(100)
    p.locator('[data-action="loop-from"]').click()
    seek_to(130)
    p.locator('[data-action="loop-to"]').click()
    p.wait_for_function("() => window.playfield.loop && window.playfield.loop.to === 130")
    assert p.evaluate("() => window.playfield.loop") == {"from": 100, "to": 130}
    assert p.locator(".compare-loop-band").is_visible()
    assert p.locator(".compare-loop-text").inner_text() == "loops ticks 100 to 130"
    # Playing goes round the loop: the ticks seen stay in it and wrap from 130 back to 100.
    p.evaluate("""() => { window.seen = []; const ws = window.playfield;
      setInterval(() => ws.frames.newest && window.seen.push(ws.frames.newest.tick), 5); }""")
    p.locator('[data-action="play"]').click()
    p.wait_for_function("() => { const s = window.seen; return s.some((t, i) => i > 0 && t < s[i - 1]); }",
                        timeout=15_000)
    seen = [tick for tick in p.evaluate("() => window.seen") if tick is not None]
    # NB: from the first wrap on (a page may skip ticks on a busy machine: only the newest
    # frame is kept), every tick is inside the loop.
    wrap = next(i for i in range(1, len(seen)) if seen[i] < seen[i - 1])
    assert seen[wrap - 1] <= 130 and seen[wrap] >= 100, seen
    assert all(100 <= tick <= 130 for tick in seen[wrap:]), seen
    p.locator('[data-action="loop-clear"]').click()
    p.wait_for_function("() => window.playfield.loop === null")
    assert not p.locator(".compare-loop-band").is_visible()
    assert_accessible(page)


def test_the_ghost_of_a_high_score_holes_run_replays_that_run(playfield, watched):
    # A first player's run reaches the high scores (the scores keep its session).
    best = create_session(playfield, "holes")
    recorded = {}
    over = play_to_game_over(playfield, best, score_first=True, frames=recorded)
    entry = {"session": best["id"], "token": best["token"], "name": "Ada"}
    request = urllib.request.Request(playfield.url + "/api/highscores", json.dumps(entry).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        answer = json.load(response)
    assert answer["scores"][0]["session"] == best["id"]

    # A second player's page offers to race that run, and opens it as a ghost over its own.
    page = open_demo(watched, playfield.url + "/demos/holes?new")
    p = page.page
    mine = {"id": p.evaluate("() => window.playfield.client.id")}
    race = p.locator(".high-scores-ghost a")
    race.wait_for(state="visible", timeout=10_000)
    assert race.inner_text() == "Race the best run"
    assert f"Ada, level {over['level']}, score {over['score']}" in p.locator(".ghost-of").inner_text()
    page.screenshot("holes-race-the-best-run")
    assert_accessible(page)
    race.click()
    p.wait_for_url("**/compare?**")
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0",
                        timeout=15_000)
    assert p.evaluate("() => window.playfield.view") == "overlay"
    recordings = p.evaluate("() => window.playfield.hello.panes.map(pane => pane.recording?.session)")
    assert recordings == [mine["id"], best["id"]]

    # The ghost pane at a tick of the recorded run is that run's frame at that tick.
    pause(page)
    tick = max(t for t, frame in recorded.items() if frame["ball"] and t <= over["tick"])
    p.locator("#compare-seek").fill(str(tick))
    p.wait_for_function(f"() => window.playfield.frames.newest?.tick === {tick}", timeout=15_000)
    ghost = p.evaluate("() => window.playfield.frames.newest.panes[1]")
    frame = recorded[tick]
    assert ghost == {key: frame[key] for key in ghost}, "exactly the recorded run's frame"
    assert ghost["ball"] == frame["ball"] and ghost["score"] == frame["score"]
    page.screenshot("compare-ghost-holes")
    assert_accessible(page)

    # /compare starts the same race from this browser's last holes run.
    p.goto(playfield.url + "/compare")
    p.wait_for_function("() => window.playfield?.hello", timeout=15_000)
    p.locator(".compare-setup summary").click()
    p.locator('[data-action="race"]').click()
    p.wait_for_function("() => location.search.includes('recording')", timeout=10_000)
    p.wait_for_function("() => window.playfield?.hello?.panes?.[0]?.recording", timeout=15_000)
    recordings = p.evaluate("() => window.playfield.hello.panes.map(pane => pane.recording?.session)")
    assert recordings == [mine["id"], best["id"]]


def test_an_offset_field_shifts_its_pane_live_and_the_parting_is_found_again(playfield, watched):
    page = open_compare(watched, playfield.url, dict(SPEC, variants=json.dumps([{}, {}])))
    p = page.page
    pause(page)
    assert p.evaluate("() => window.playfield.diverged") is None, "identical panes never part"
    field = p.locator('input[name="offset-1"]')
    assert field.input_value() == "0"
    field.fill("3")
    field.press("Enter")
    p.wait_for_function("() => window.playfield.status.offsets?.[1] === 3", timeout=10_000)
    p.wait_for_function("() => { const f = window.playfield.frames.newest;"
                        " return f.ticks[1] === f.tick + 3; }", timeout=10_000)
    p.wait_for_function("() => window.playfield.diverged === 0", timeout=10_000)
    assert p.locator(".compare-mark").is_visible()
    assert "first tick" in p.locator(".compare-diverged").inner_text()
    page.screenshot("compare-offsets")
    assert_accessible(page)
    # Back to 0: the panes agree again, and the page forgets the parting.
    field.fill("0")
    field.press("Enter")
    p.wait_for_function("() => window.playfield.status.offsets?.[1] === 0", timeout=10_000)
    assert p.evaluate("() => window.playfield.diverged") is None
    assert p.locator(".compare-mark").is_hidden()


def test_the_ambient_pane_loops_on_its_own_pauses_and_respects_reduced_motion(playfield, watched):
    spec = dict(SPEC, ticks="40", ambient=json.dumps({"balls": 2}))
    page = open_compare(watched, playfield.url, spec)
    p = page.page
    box = p.locator(".compare-ambient")
    assert box.is_visible()
    pause(page)
    group_tick = p.evaluate("() => window.playfield.frames.newest.tick")
    # Paused, the group stands still while the ambient pane loops past its end (40 ticks).
    p.wait_for_function("() => window.playfield.ambient?.tick > 30", timeout=15_000)
    p.wait_for_function("() => window.playfield.ambient.tick < 10", timeout=15_000)
    assert p.evaluate("() => window.playfield.frames.newest.tick") == group_tick
    assert p.evaluate(DRAWN, ".compare-ambient canvas") == [True]
    page.screenshot("compare-ambient")
    assert_accessible(page)
    # PAUSE AMBIENT stops it for this page.
    button = p.locator('[data-action="ambient"]')
    button.click()
    assert button.inner_text() == "PLAY AMBIENT" and button.get_attribute("aria-pressed") == "false"
    p.wait_for_timeout(300)
    stopped = p.evaluate("() => window.playfield.ambient.tick")
    p.wait_for_timeout(500)
    assert p.evaluate("() => window.playfield.ambient.tick") == stopped

    # With reduced motion asked for, it starts paused: the server steps and sends none of it.
    calm = watched(reduced_motion="reduce")
    calm.page.goto(playfield.url + "/compare?" + urllib.parse.urlencode(spec))
    calm.page.wait_for_function("() => window.playfield?.hello?.ambient", timeout=15_000)
    calm.page.wait_for_timeout(500)
    assert calm.page.locator('[data-action="ambient"]').inner_text() == "PLAY AMBIENT"
    assert calm.page.evaluate("() => window.playfield.ambient.tick") is None
