"""What a new user hit on the first tour of the four simulations, each fixed and kept fixed."""
import re
import time

from deadline import wait_until
from demo_pages import create_session, open_demo, wait_for_tick_after


SHOWN_TICKS = """() => new Promise(resolve => requestAnimationFrame(() => setTimeout(() => resolve([
  document.querySelector('.status [data-field="tick"]').textContent,
  document.querySelector('.seek-time').textContent,
]), 0)))"""


def test_replay_status_and_seek_bar_show_the_same_tick(playfield, watched):
    session = create_session(playfield, "bouncing-balls")
    live = open_demo(watched, playfield.url + session["urls"]["control"])
    wait_for_tick_after(live, 240)
    live.page.context.close()
    page = open_demo(watched, playfield.url + session["urls"]["replay"])
    disagreements = []
    for _ in range(20):
        status, bar = page.page.evaluate(SHOWN_TICKS)
        status_tick = int(re.search(r"tick (\d+)", status).group(1))
        bar_tick = int(re.search(r"tick (\d+) /", bar).group(1))
        if status_tick != bar_tick:
            disagreements.append((status_tick, bar_tick))
        time.sleep(0.05)
    assert not disagreements, f"status and seek bar disagree (status, bar): {disagreements}"


def test_tag_cloud_reset_rebuilds_the_labels(playfield, watched):
    session = create_session(playfield, "tag-cloud", {"tags": ["alpha", "beta", "gamma", "delta"]})
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    assert p.locator(".cloud a").count() == 4
    p.evaluate("""() => {
      window.seenEvents = [];
      const handlers = window.playfield.client.handlers;
      const original = handlers.event;
      handlers.event = (message) => { window.seenEvents.push(message.name); original(message); };
    }""")
    p.locator('[data-action="reset"]').first.click()
    p.wait_for_function("() => window.seenEvents.includes('reset')")
    wait_until(lambda: sorted(p.locator(".cloud a").all_inner_texts()) == ["alpha", "beta", "delta", "gamma"],
               10, "the four labels rebuilt")
    # The watched fixture fails the test on the TypeError the old page threw here.


def test_bouncing_balls_readouts_have_units_a_readable_scale_and_a_plot(playfield, watched):
    session = create_session(playfield, "bouncing-balls", {"balls": 100, "width": 800, "height": 600, "radiusMin": 4, "radiusMax": 8})
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    wait_for_tick_after(page, 30)
    energy = p.locator('[data-readout="energy"]').inner_text()
    assert re.fullmatch(r"\d{1,3}(\.\d{1,2})?( [kMGTPE])?", energy), f"energy reads {energy!r}"
    assert p.locator('[data-readout="energy"]').evaluate(
        "e => e.previousElementSibling.querySelector('.unit').textContent") == "m·px²/s²"
    momentum = p.locator('[data-readout="momentum"]').inner_text()
    assert re.fullmatch(r"\((−?\d{1,3}(\.\d{1,2})?( [kMGTPE])?), (−?\d{1,3}(\.\d{1,2})?( [kMGTPE])?)\)", momentum), momentum
    # The plot draws both lines over the last seconds, and moves on as ticks come.
    p.wait_for_function("() => document.querySelector('canvas.plot').width > 0")
    def yellowish(c):
        r, g, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
        return r > 150 and g > 110 and b < 90

    def bluish(c):
        r, g, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
        return b > 150 and g > 110 and r < 150

    # Both lines once drawn (a few frames on; longer on a busy machine).
    def drawn():
        colours = page.canvas_colours("canvas.plot")
        return colours if any(yellowish(c) for c in colours) and any(bluish(c) for c in colours) else None
    try:
        colours = wait_until(drawn, 10, "both lines of the plot")
    except TimeoutError:
        colours = page.canvas_colours("canvas.plot")
    assert any(yellowish(c) for c in colours), f"an energy line (yellow): {list(colours)[:8]}"
    assert any(bluish(c) for c in colours), f"a momentum line (blue): {list(colours)[:8]}"
    assert len(colours) > 3, colours
    before = p.locator("canvas.plot").evaluate("c => c.toDataURL()")
    # The plot rolls: a later frame draws it anew.
    wait_until(lambda: p.locator("canvas.plot").evaluate("c => c.toDataURL()") != before, 10, "the plot to roll")
    page.screenshot("tour-bouncing-balls-plot")


def test_compact_numbers(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/demos/mandelbrot")
    cases = page.page.evaluate("""async () => {
      const { formatCompact } = await import('/js/lib/dom.js');
      return [10049538, 1234, 999.4, 999.6, 12.5, -0.004, -45678, 0, NaN].map(formatCompact);
    }""")
    assert cases == ["10.0 M", "1.23 k", "999", "1.00 k", "12.5", "0.00", "−45.7 k", "0.00", "–"]


def test_sessions_page_groups_mine_watched_and_idle_newest_first(playfield, watched):
    # This browser makes a maze session; three more come from elsewhere, one of them watched.
    page = open_demo(watched, playfield.url + "/demos/maze?new")
    p = page.page
    mine = p.evaluate("() => window.playfield.client.id")
    others = []
    for _ in range(3):
        others.append(create_session(playfield, "tag-cloud")["id"])
        time.sleep(1.1)  # createdAt is in whole seconds
    watcher = open_demo(watched, playfield.url + f"/demos/tag-cloud?session={others[0]}&watch")
    p.goto(playfield.url + "/sessions")
    p.wait_for_function(
        f"() => document.querySelector('.group-active tr[data-id=\"{others[0]}\"]')")

    mine_row = p.locator(f'.group-mine tr[data-id="{mine}"]')
    assert mine_row.locator(".mine-badge").inner_text() == "you control this"
    idle_ids = p.locator(".group-idle tr[data-id]").evaluate_all("rs => rs.map(r => r.dataset.id)")
    assert others[1] in idle_ids and others[2] in idle_ids
    assert idle_ids.index(others[2]) < idle_ids.index(others[1]), "newest first"
    # Groups come in order: mine, watched, idle; idle rows are folded until asked for.
    order = p.locator("#sessions tbody").evaluate_all("bs => bs.map(b => b.className)")
    assert order == ["group group-mine", "group group-active", "group group-idle"]
    assert p.locator(f'tr[data-id="{others[1]}"]').is_hidden()
    fold = p.locator(".group-idle .fold")
    assert fold.get_attribute("aria-expanded") == "false"
    assert "idle" in fold.inner_text().lower()
    fold.click()
    assert p.locator(f'tr[data-id="{others[1]}"]').is_visible()
    assert fold.get_attribute("aria-expanded") == "true"
    page.screenshot("tour-sessions-groups")
    watcher.page.context.close()
