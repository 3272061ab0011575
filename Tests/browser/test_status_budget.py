"""The status line says when the game loop's budget slows a session (`status.budget`), and
nothing while it does not."""
from axe import assert_accessible
from demo_pages import open_demo


def budget_field(page):
    return page.page.locator(".status [data-field=budget]")


def test_default_session_is_not_slowed_and_a_slowed_one_says_so(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/bouncing-balls")
    # The server's own status (sent on join) carries the budget: a default session is not slowed.
    page.page.wait_for_function("() => window.playfield.status.values.budget !== null")
    budget = page.page.evaluate("() => window.playfield.status.values.budget")
    assert budget["throttled"] is False and budget["every"] == 1, budget
    assert budget_field(page).inner_text() == "" and not budget_field(page).is_visible()

    # A status as the server sends it for a session over its share (docs/protocol.md).
    page.page.evaluate("""() => window.playfield.status.update({budget:
        {throttled: true, every: 6, costMs: 29.8, shareMs: 5}})""")
    text = budget_field(page).inner_text()
    assert text == "heavy: stepped every 6 ticks (29.8 ms a step, its share 5 ms)"
    assert budget_field(page).is_visible()
    assert_accessible(page.page)
    page.screenshot("status-budget-slowed")

    page.page.evaluate("""() => window.playfield.status.update({budget:
        {throttled: false, every: 1, costMs: 0.2, shareMs: 20}})""")
    assert budget_field(page).inner_text() == "" and not budget_field(page).is_visible()
