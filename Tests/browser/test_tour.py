"""What a new user hit on the first tour of the four simulations, each fixed and kept fixed."""
import re
import time

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
    time.sleep(0.2)
    texts = p.locator(".cloud a").all_inner_texts()
    assert sorted(texts) == ["alpha", "beta", "delta", "gamma"]
    # The watched fixture fails the test on the TypeError the old page threw here.
