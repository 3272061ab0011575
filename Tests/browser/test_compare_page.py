"""The compare page (/compare): it makes the group the address describes, draws every pane,
plays, steps, seeks, marks the tick where the panes part, fits a phone, and passes axe."""
import json
import urllib.parse

import pytest

from axe import assert_accessible
from test_demos import host_page  # noqa: F401 (the fixture: a page of another origin)

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


@pytest.mark.parametrize("kind", ["maze", "holes", "tag-cloud"])
def test_a_demo_pages_compare_link_opens_a_comparison_of_it(playfield, watched, kind):
    page = watched()
    page.page.goto(f"{playfield.url}/demos/{kind}")
    page.page.get_by_role("link", name="Compare with…").click()
    page.page.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 2",
                                timeout=10_000)
    assert page.page.evaluate("() => window.playfield.hello.kind") == kind
    assert page.page.locator(".compare-pane canvas").count() == 2
    if kind == "maze":
        page.screenshot("compare-maze")


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
