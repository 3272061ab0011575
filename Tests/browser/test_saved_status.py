"""Issue 32: every session page says, quietly, whether what the user did is stored (the
`stored` watermark, lib/stored.js): "Saved" after inputs, "Not saved" while the database cannot
be written, and once that a session without database keeps nothing."""
import resource

import pytest

from axe import assert_accessible
from demo_pages import create_session, open_demo
from test_paintbrush import open_paint, paint

SIZES = {"desktop": {}, "phone": {"viewport": (390, 844), "has_touch": True, "is_mobile": True}}


def status(page):
    return page.page.locator(".demo-stored")


def wait_for_state(page, state, timeout=15_000):
    page.page.wait_for_function(
        f"() => document.querySelector('.demo-stored')?.dataset.state === '{state}'", timeout=timeout)
    return status(page).inner_text()


def click_cell(page, row, col):
    """Toggles one cell of the 12 x 12 maze (an input)."""
    box = page.page.locator("canvas.view").bounding_box()
    cell = box["width"] / 12
    page.page.mouse.click(box["x"] + (col + 0.5) * cell, box["y"] + (row + 0.5) * cell)


def toggle(page, cells, revision):
    """Toggles `cells` in turn; returns the maze's revision after them."""
    for row, col in cells:
        click_cell(page, row, col)
        revision += 1
        page.page.wait_for_function(f"() => window.playfield.frames.newest?.revision === {revision}")
    return revision


@pytest.mark.parametrize("size", SIZES)
def test_the_status_says_saved_once_the_inputs_are_stored(playfield, watched, size):
    page = open_demo(watched, playfield.url + "/demos/maze?new", **SIZES[size])
    line = status(page)
    assert line.get_attribute("aria-live") == "polite" and line.get_attribute("role") == "status"
    # Nothing done yet: nothing said, but its line is there, so nothing moves when it speaks.
    assert line.get_attribute("data-state") == "none" and line.inner_text() == ""
    stage = page.page.locator(".stage").bounding_box()
    below = page.page.locator(".status").bounding_box()
    assert line.bounding_box()["height"] > 0

    toggle(page, [(0, 0), (3, 4)], 0)
    assert wait_for_state(page, "saved") == "Saved"
    # The flushes' answers cover both inputs (the second may have needed a flush of its own).
    page.page.wait_for_function(
        "() => { const t = window.playfield.stored.tracker; return t.sent === 2 && t.covered === 2; }",
        timeout=10_000)
    assert line.inner_text() == "Saved"
    assert page.page.locator(".stage").bounding_box() == stage
    assert page.page.locator(".status").bounding_box() == below, "the line below did not move"
    assert_accessible(page)
    status(page).scroll_into_view_if_needed()
    page.screenshot(f"saved-status-{size}")


def test_spectators_are_told_nothing(playfield, watched):
    owner = open_demo(watched, playfield.url + "/demos/maze?new")
    session = owner.page.evaluate("() => window.playfield.client.id")
    page = open_demo(watched, f"{playfield.url}/demos/maze?session={session}&watch")
    toggle(owner, [(5, 5)], 0)
    wait_for_state(owner, "saved")
    assert status(page).get_attribute("data-state") == "none" and status(page).inner_text() == ""


def test_a_stopped_session_stores_an_input_when_it_steps(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/maze?new")
    p = page.page
    p.evaluate("() => window.playfield.send({ type: 'stop' })")
    p.wait_for_function("() => window.playfield.running === false")
    p.evaluate("() => window.playfield.send({ type: 'toggle', row: 1, col: 1 })")
    # The input waits for a step, and so does its storing: no alarm meanwhile.
    text = wait_for_state(page, "waiting")
    assert text == "Not saved yet: the session is stopped (saved once it steps)"
    p.wait_for_timeout(4500)  # past the wait after which a running session says "Not saved"
    assert status(page).get_attribute("data-state") == "waiting"
    p.evaluate("() => window.playfield.send({ type: 'step', count: 1 })")
    assert wait_for_state(page, "saved") == "Saved"
    assert p.evaluate("() => window.playfield.frames.newest.revision") == 1


def test_a_drawing_guest_is_told_too(playfield, watched):
    session = create_session(playfield, "paintbrush")
    guest = open_paint(watched, playfield.url + session["urls"]["draw"])
    assert guest.page.evaluate("() => window.playfield.client.role") == "drawer"
    paint(guest, [(100, 100), (300, 200)], colour="#00ff00")
    assert wait_for_state(guest, "saved") == "Saved"


def test_the_status_says_not_saved_while_the_database_cannot_be_written(start_playfield, watched):
    server = start_playfield()
    page = open_demo(watched, server.url + "/demos/maze?new")
    revision = toggle(page, [(1, 1)], 0)
    assert wait_for_state(page, "saved") == "Saved"

    # Every write to a file fails from now on, as on a full disk (EFBIG; SIGXFSZ is ignored).
    pid = server.process.pid
    unlimited = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (1, unlimited[1]))
    try:
        revision = toggle(page, [(2, 2), (4, 7)], revision)
        text = wait_for_state(page, "unsaved")
        assert text == "Not saved: the database cannot be written"
        assert_accessible(page)
        status(page).scroll_into_view_if_needed()
        page.screenshot("saved-status-not-saved")
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, unlimited)
    # The writer tries again: once its flush passes, what waited is stored, and the page says so.
    assert wait_for_state(page, "saved", timeout=30_000) == "Saved"
    assert server.alive()


def test_a_session_without_database_says_so_once(start_playfield, watched):
    server = start_playfield(database="/nonexistent/folder/playfield.db")
    page = open_demo(watched, server.url + "/demos/maze?new")
    text = wait_for_state(page, "memory")
    assert text == "Not saved: this session has no database (memory only)"
    # It says so once: inputs change nothing, and no flush goes out for them.
    page.page.evaluate("""() => {
      const line = document.querySelector('.demo-stored');
      window.storedChanges = 0;
      new MutationObserver((list) => { window.storedChanges += list.length; })
        .observe(line, { childList: true, characterData: true, subtree: true });
    }""")
    toggle(page, [(0, 3), (6, 6)], 0)
    page.page.wait_for_timeout(600)
    assert page.page.evaluate("() => window.storedChanges") == 0
    assert status(page).inner_text() == text
    assert page.page.evaluate("() => window.playfield.stored.tracker.flushing") is None
    assert_accessible(page)
    status(page).scroll_into_view_if_needed()
    page.screenshot("saved-status-memory-only")
    page.allow(lambda problem: "503" in problem)  # the maze library needs the database


def test_the_smallest_embed_keeps_the_status_in_its_menu(playfield, watched):
    page = watched(viewport=(240, 180))
    p = page.page
    p.goto(playfield.url + "/embed/maze?new")
    p.wait_for_function("() => window.playfield?.hello && window.playfield.frames.received > 0")
    line = status(page)
    assert p.locator(".embed-menu .demo-stored").count() == 1, "it lives in the frame's menu"
    assert line.is_hidden(), "nothing over the picture at rest"
    p.evaluate("() => window.playfield.send({ type: 'toggle', row: 2, col: 3 })")
    wait_for_state(page, "saved")
    assert line.is_hidden()
    # NB: in so small a frame the toolbar shows on focus (or hover, or a tap).
    p.locator(".embed-menu-button").focus()
    p.keyboard.press("Enter")
    assert line.is_visible() and line.inner_text() == "Saved"
    box = line.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 240, "it fits the frame"
    assert_accessible(page)
    page.screenshot("saved-status-embed-240x180")
