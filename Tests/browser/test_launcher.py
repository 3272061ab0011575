"""The gallery as a launcher: every demo the server knows, grouped; a filter by name or seed;
arrow keys between cards and Enter to open; previews that run only on screen in a visible tab;
one sideways-scrolling row per shelf on a phone."""
import json
import urllib.request

import pytest

from axe import assert_accessible

GROUPS = ["simulations", "explorers", "sensors-and-drawing", "small-classics"]


def server_demos(playfield):
    """The server's own list of demos (`Demo.all`), as `GET /api/demos` gives it."""
    with urllib.request.urlopen(playfield.url + "/api/demos") as response:
        return json.load(response)


def open_gallery(watched, playfield, **kwargs):
    page = watched(**kwargs)
    page.page.goto(playfield.url + "/")
    # Every preview on screen has joined its session (so no load is cut short when a test ends).
    page.page.wait_for_function("""() => [...document.querySelectorAll('.card[data-preview="playing"] iframe')]
      .every(f => f.contentWindow.playfield?.client?.state === 'connected')""", timeout=15_000)
    return page


def card_names(page, visible_only=False):
    selector = ".card:not([hidden])" if visible_only else ".card"
    return page.page.locator(selector).evaluate_all("els => els.map(e => e.dataset.name)")


def focused_card(page):
    return page.page.evaluate("() => document.activeElement.closest('.card')?.dataset.name ?? null")


def test_gallery_lists_every_demo_the_server_knows_grouped(playfield, watched):
    page = open_gallery(watched, playfield)
    known = server_demos(playfield)
    names = [demo["name"] for demo in known["demos"]]
    assert "stick-man" in names and "temperature" in names
    assert sorted(card_names(page)) == sorted(names)
    order = [group["name"] for group in known["groups"]]
    assert order == GROUPS
    shelves = page.page.locator(".shelf").evaluate_all("els => els.map(e => e.dataset.group)")
    assert shelves == [g for g in order if any(d["group"] == g for d in known["demos"])]
    for demo in known["demos"]:
        name, group = demo["name"], demo["group"]
        card = page.page.locator(f'.card[data-name="{name}"]')
        assert card.get_attribute("data-group") == group
        assert page.page.locator(f'.shelf[data-group="{group}"] .card[data-name="{name}"]').count() == 1
        # Sessions show a live preview; pages an icon.
        assert card.locator("iframe").count() == (1 if demo["session"] else 0), name
        assert card.locator(".card-icon").count() == (0 if demo["session"] else 1), name
    assert page.page.locator('.card[data-name="stick-man"] .card-icon svg').count() == 1
    assert page.page.locator('.card[data-name="maze"] iframe').count() == 1
    assert_accessible(page)
    page.screenshot("launcher")


@pytest.mark.parametrize("typed, expected", [
    ("maze", ["maze"]),
    ("SPACEBALLS", ["bouncing-balls"]),  # by seed, any case
    ("celcius", ["temperature"]),  # the seed's own spelling
    ("stick", ["stick-man"]),
    ("ios mandel", ["mandelbrot"]),  # every word must match
])
def test_filter_narrows_by_name_or_seed(playfield, watched, typed, expected):
    page = open_gallery(watched, playfield)
    box = page.page.locator("#launcher-filter")
    box.press_sequentially(typed)
    assert card_names(page, visible_only=True) == expected
    total = len(card_names(page))
    assert page.page.locator("#launcher-count").inner_text() == f"{len(expected)} of {total} demos"
    visible_shelves = page.page.locator(".shelf:not([hidden])").count()
    assert visible_shelves == 1
    box.fill("")
    assert len(card_names(page, visible_only=True)) == total
    assert page.page.locator("#launcher-count").inner_text() == ""


def test_filter_with_no_match_says_so_and_enter_opens_the_first_match(playfield, watched):
    page = open_gallery(watched, playfield)
    box = page.page.locator("#launcher-filter")
    box.fill("zzz")
    assert card_names(page, visible_only=True) == []
    assert page.page.locator(".launcher-none").is_visible()
    box.fill("temp")
    box.press("Enter")
    page.page.wait_for_url("**/demos/temperature")


def test_arrow_keys_move_between_cards_and_enter_opens(playfield, watched):
    page = open_gallery(watched, playfield)
    names = card_names(page)
    page.page.locator("#launcher-filter").press("ArrowDown")
    assert focused_card(page) == names[0]
    page.page.keyboard.press("ArrowRight")
    assert focused_card(page) == names[1]
    page.page.keyboard.press("ArrowLeft")
    assert focused_card(page) == names[0]
    page.page.keyboard.press("End")
    assert focused_card(page) == names[-1]
    page.page.keyboard.press("Home")
    assert focused_card(page) == names[0]
    # Down goes to the next row: a card lower on the page, nearest in x.
    top = page.page.evaluate("() => document.activeElement.closest('.card').getBoundingClientRect().top")
    page.page.keyboard.press("ArrowDown")
    below = focused_card(page)
    assert below not in (None, names[0])
    assert page.page.evaluate("() => document.activeElement.closest('.card').getBoundingClientRect().top") > top
    page.page.keyboard.press("ArrowUp")
    assert focused_card(page) == names[0]
    page.page.keyboard.press("ArrowUp")
    assert page.page.evaluate("() => document.activeElement.id") == "launcher-filter"
    # Filtered-out cards are skipped.
    page.page.locator("#launcher-filter").fill("man")
    page.page.locator("#launcher-filter").press("ArrowDown")
    shown = card_names(page, visible_only=True)
    assert focused_card(page) == shown[0]
    page.page.keyboard.press("ArrowRight")
    assert focused_card(page) == shown[1]
    page.page.keyboard.press("Enter")
    page.page.wait_for_url(f"**/demos/{shown[1]}")


def test_previews_run_only_on_screen_and_in_a_visible_tab(playfield, watched):
    page = open_gallery(watched, playfield, viewport=(1280, 500))
    p = page.page
    state = "name => document.querySelector(`.card[data-name=\"${name}\"]`).dataset.preview"
    assert p.evaluate(state, "bouncing-balls") == "playing"
    assert p.evaluate(state, "stick-man") == "paused", "off screen: not started"
    assert p.locator('.card[data-name="stick-man"]').evaluate("c => c.classList.contains('playing')") is False
    frame = p.locator('.card[data-name="bouncing-balls"] iframe').element_handle().content_frame()
    frame.wait_for_function("() => window.playfield?.client?.state === 'connected'")
    # Hidden tab: every preview pauses and its channel closes.
    p.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert p.evaluate(state, "bouncing-balls") == "paused"
    frame.wait_for_function("() => window.playfield.client.state === 'ended'")
    p.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    frame.wait_for_function("() => window.playfield.client.state === 'connected'")
    ticks = frame.evaluate("() => window.playfield.frames.received")
    frame.wait_for_function(f"() => window.playfield.frames.received > {ticks + 5}")
    # Scrolled away: the first card pauses, the last one plays.
    p.locator('.card[data-name="stick-man"]').scroll_into_view_if_needed()
    p.wait_for_function(f"() => ({state})('stick-man') === 'playing'")
    p.wait_for_function(f"() => ({state})('bouncing-balls') === 'paused'")
    frame.wait_for_function("() => window.playfield.client.state === 'ended'")
    assert p.locator('.card[data-name="stick-man"]').evaluate("c => c.classList.contains('playing')")


def test_phone_shows_one_row_per_shelf_that_scrolls_sideways(playfield, watched):
    page = open_gallery(watched, playfield, viewport=(390, 844), is_mobile=True, has_touch=True)
    rows = page.page.locator(".gallery").evaluate_all("""els => els.map(list => {
      const tops = [...list.children].map(c => Math.round(c.getBoundingClientRect().top));
      return { tops: new Set(tops).size, scrolls: list.scrollWidth > list.clientWidth, cards: tops.length };
    })""")
    for row in rows:
        assert row["tops"] == 1, f"one row of cards: {row}"
        if row["cards"] > 1:
            assert row["scrolls"], f"a row of several cards scrolls sideways: {row}"
    width = page.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, "the page itself does not scroll sideways"
    assert_accessible(page)
    page.screenshot("launcher-phone")
