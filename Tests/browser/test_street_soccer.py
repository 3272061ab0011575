"""Issue 26: Street Soccer in Chromium. Two browser contexts play a short match against each
other through the invite link; a person plays each computer character to full time; the kit
designer dresses a side (both pages show the same kits, the clash rule changes away's kit);
a turn is made with the keyboard alone; the pages pass axe. Matches are short (turnsPerSide
1 or 2) so that the tests stay quick."""
import pytest

from axe import assert_accessible
from deadline import Deadline

PLANNING = """() => {
  const g = window.playfield?.soccer;
  return Boolean(g && g.frame && g.plan && g.frame.phase === 'turn' && g.frame.toMove === g.side
    && g.renderedPlan === g.plan && !g.animation);
}"""
# The squares show the newest plan (they are drawn on the next animation frame).
SHOWN = "() => window.playfield.soccer.renderedPlan === window.playfield.soccer.plan"
PHASE = "() => window.playfield?.soccer?.frame?.phase ?? null"
OVER = "() => window.playfield?.soccer?.frame?.phase === 'over'"


def open_soccer(watched, url, **kwargs):
    page = watched(**kwargs)
    page.page.goto(url)
    page.page.wait_for_function("() => window.playfield?.soccer?.frame && document.querySelector('.pitch .square')")
    return page


def play_turn(page, moves=1):
    """Plays `moves` moves by clicking a piece that can move, then a lit square; confirms."""
    p = page.page
    p.wait_for_function(PLANNING, timeout=30_000)
    for _ in range(moves):
        if p.locator(".pitch .square.movable").count() == 0:
            break
        made = p.evaluate("() => window.playfield.soccer.moves.length")
        # A piece still picked after the last move shows its targets; else pick one.
        if p.locator(".pitch .square.target").count() == 0:
            p.locator(".pitch .square.movable").first.click()
        p.locator(".pitch .square.target").first.click()
        if p.locator(".move-choice").is_visible():
            p.locator(".move-choice button").first.click()
        p.wait_for_function(f"() => window.playfield.soccer.moves.length === {made + 1} && window.playfield.soccer.plan", timeout=30_000)
        p.wait_for_function(f"() => window.playfield.soccer.plan.results.length === {made + 1}", timeout=30_000)
        p.wait_for_function(SHOWN, timeout=30_000)
    if p.locator('[data-action="confirm"]').is_disabled():
        p.click('[data-action="undo-all"]')
        p.wait_for_function("() => window.playfield.soccer.plan?.canConfirm", timeout=30_000)
    played = p.evaluate("() => window.playfield.soccer.frame.turnsPlayed")
    p.click('[data-action="confirm"]')
    p.wait_for_function(f"() => window.playfield.soccer.frame.turnsPlayed > {played}", timeout=30_000)


def test_two_browsers_play_a_short_match_through_the_invite_link(playfield, watched):
    home = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=human&turnsPerSide=2")
    p = home.page
    assert p.evaluate("() => window.playfield.soccer.side") == "home"
    invite = p.locator(".invite-link").get_attribute("href")
    assert "#token=" in invite
    away = open_soccer(watched, invite)
    assert away.page.evaluate("() => window.playfield.client.role") == "away"
    assert away.page.evaluate("() => window.playfield.soccer.side") == "away"
    assert away.page.locator(".soccer-invite").is_hidden()
    # Away cannot move while home plays: its buttons are off.
    assert away.page.locator('[data-action="confirm"]').is_disabled()

    # Home makes two moves, undoes one, and confirms; only the confirmed turn is sent.
    p.wait_for_function(PLANNING, timeout=30_000)
    p.locator(".pitch .square.movable").first.click()
    p.locator(".pitch .square.target").first.click()
    if p.locator(".move-choice").is_visible():
        p.locator(".move-choice button").first.click()
    p.wait_for_function("() => window.playfield.soccer.plan?.results.length === 1")
    left, die = p.evaluate("() => [window.playfield.soccer.plan.pointsLeft, window.playfield.soccer.frame.die]")
    assert die - left in (1, 2)
    assert away.page.evaluate("() => window.playfield.soccer.frame.turnsPlayed") == 0
    p.click('[data-action="undo"]')
    p.wait_for_function("() => window.playfield.soccer.plan?.results.length === 0")
    home.screenshot("street-soccer-home-planning")
    play_turn(home)
    for page in (away, home, away):
        play_turn(page)
    for page in (home, away):
        page.page.wait_for_function(OVER, timeout=30_000)
        assert page.page.locator(".soccer-after").is_visible()
        assert page.page.locator(".soccer-stats tbody tr").count() >= 5
    # Both see the same match, kits included.
    same = "() => JSON.stringify([window.playfield.soccer.frame.score, window.playfield.soccer.frame.kits, window.playfield.soccer.frame.stats])"
    assert home.page.evaluate(same) == away.page.evaluate(same)
    home.screenshot("street-soccer-full-time-home")
    away.screenshot("street-soccer-full-time-away")
    assert_accessible(home.page)
    assert_accessible(away.page)
    # Rematch: ends changed, the same kits.
    kits = home.page.evaluate("() => JSON.stringify(window.playfield.soccer.frame.kits)")
    away.page.click('[data-action="rematch"]')
    home.page.wait_for_function("() => window.playfield.soccer.frame.match === 2", timeout=30_000)
    assert home.page.evaluate("() => window.playfield.soccer.frame.homeAttacks") == "left"
    assert home.page.evaluate("() => JSON.stringify(window.playfield.soccer.frame.kits)") == kits


@pytest.mark.parametrize("character", ["novice", "defensive", "strong"])
def test_a_person_plays_each_computer_to_full_time(playfield, watched, character):
    page = open_soccer(watched, playfield.url + f"/demos/street-soccer?new&away={character}&turnsPerSide=2&computerDelay=0")
    deadline = Deadline(90, f"the match against {character}")
    while page.page.evaluate(PHASE) != "over":
        deadline.left()
        page.page.wait_for_function(f"() => ({PLANNING})() || ({OVER})()", timeout=deadline.left() * 1000)
        if page.page.evaluate(PHASE) != "over":
            play_turn(page, moves=2)
    assert page.page.evaluate("() => window.playfield.soccer.frame.turnsPlayed") == 4
    assert page.page.locator(".soccer-after").is_visible()
    assert "Full time" in page.page.locator('[data-readout="state"]').inner_text()
    if character == "strong":
        page.screenshot("street-soccer-vs-strong")
        assert_accessible(page.page)


def test_the_kit_designer_dresses_the_side_and_the_clash_rule_holds(playfield, watched):
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=human&turnsPerSide=1")
    p = page.page
    invite = p.locator(".invite-link").get_attribute("href")
    p.click(".kit-designer summary")
    p.evaluate("""() => {
      const set = (cls, v) => { const e = document.querySelector(cls); e.value = v; e.dispatchEvent(new Event('input')); };
      set('.kit-shirt', '#ffd700'); set('.kit-shorts', '#000000'); set('.kit-pattern-color', '#000000');
      const pattern = document.querySelector('.kit-pattern'); pattern.value = 'hoops'; pattern.dispatchEvent(new Event('change'));
    }""")
    assert p.locator(".kit-preview svg").count() == 2
    p.click('[data-action="kit"]')
    p.wait_for_function("() => window.playfield.soccer.frame.kits.home.shirt === '#ffd700'", timeout=30_000)
    kits = p.evaluate("() => window.playfield.soccer.frame.kits")
    assert kits["home"]["pattern"] == "hoops" and kits["home"]["shorts"] == "#000000"
    assert kits["home"]["keeper"] != "#ffd700"  # the goalkeeper's shirt is brighter
    # The designer's preview shows the goalkeeper's shirt as the server made it.
    preview = p.evaluate("() => document.querySelectorAll('.kit-preview svg')[1].querySelectorAll(':scope > path')[1].getAttribute('fill')")
    assert preview == kits["home"]["keeper"]
    # The scoreboard wears the team colours.
    assert p.locator(".team-home").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 215, 0)"
    page.screenshot("street-soccer-kit")

    # The away player wants nearly the same yellow: the server gives away a contrasting kit,
    # and both pages show the same thing.
    guest = watched()
    guest.page.goto(invite)
    guest.page.wait_for_function("() => window.playfield?.soccer?.frame")
    guest.page.evaluate("""() => window.playfield.client.send({type: 'kit', side: 'away', shirt: '#ffdc00', shorts: '#000000', pattern: 'plain', patternColor: '#000000'})""")
    for q in (p, guest.page):
        q.wait_for_function("() => window.playfield.soccer.frame.kits.clash === true", timeout=30_000)
        assert q.locator(".kit-clash").is_visible()
        assert "look too alike" in q.locator(".kit-clash").inner_text()
        assert "away wears its change kit" in q.locator(".kit-clash").inner_text()
    same = "() => JSON.stringify(window.playfield.soccer.frame.kits)"
    assert p.evaluate(same) == guest.page.evaluate(same)
    assert p.evaluate("() => window.playfield.soccer.frame.kits.away.shirt") != "#ffdc00"
    fills = "() => Array.from(document.querySelectorAll('.pitch .shirt path:nth-of-type(2)')).map(e => e.getAttribute('fill')).sort().join()"
    assert p.evaluate(fills) == guest.page.evaluate(fills)
    page.screenshot("street-soccer-clash-home")
    guest.screenshot("street-soccer-clash-away")

    # The kit travels with the player: a new match in the same browser wears it from the start.
    again = p.context.new_page()
    again.goto(playfield.url + "/demos/street-soccer?new&away=novice")
    again.wait_for_function("() => window.playfield?.soccer?.frame?.kits.home.shirt === '#ffd700'", timeout=30_000)
    assert again.evaluate("() => window.playfield.soccer.frame.kits.home.pattern") == "hoops"
    again.close()


def test_a_turn_by_keyboard_alone(playfield, watched):
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice&turnsPerSide=1&computerDelay=0")
    p = page.page
    p.wait_for_function(PLANNING, timeout=30_000)
    # The pitch is one tab stop; arrows move over it; its labels say what is where.
    p.locator(".pitch .square[tabindex='0']").focus()
    start = p.evaluate("() => window.playfield.soccer.focus.join()")
    p.keyboard.press("ArrowLeft")
    assert p.evaluate("() => window.playfield.soccer.focus.join()") != start
    # Walk to a movable piece, pick it with Enter, walk to a lit square, Enter.
    goal = p.evaluate("() => { const c = document.querySelector('.pitch .square.movable'); return [Number(c.dataset.x), Number(c.dataset.y)]; }")
    walk(p, goal)
    assert "can move" in p.evaluate("() => document.activeElement.getAttribute('aria-label')")
    p.keyboard.press("Enter")
    p.wait_for_function("() => document.querySelector('.pitch .square.target')")
    # Escape lets go of the piece; Enter picks it again.
    p.keyboard.press("Escape")
    p.wait_for_function("() => !document.querySelector('.pitch .square.target')")
    p.keyboard.press("Enter")
    p.wait_for_function("() => document.querySelector('.pitch .square.target')")
    target = p.evaluate("() => { const c = document.querySelector('.pitch .square.target'); return [Number(c.dataset.x), Number(c.dataset.y)]; }")
    walk(p, target)
    assert "here" in p.evaluate("() => document.activeElement.getAttribute('aria-label')")
    p.keyboard.press("Enter")
    if p.locator(".move-choice").is_visible():
        p.keyboard.press("Enter")
    p.wait_for_function("() => window.playfield.soccer.plan?.results.length === 1")
    assert p.locator(".soccer-announce").inner_text() != ""
    # Backspace undoes it; then confirm with the keyboard.
    p.locator(".pitch .square[tabindex='0']").focus()
    p.keyboard.press("Backspace")
    p.wait_for_function("() => window.playfield.soccer.plan?.results.length === 0")
    p.locator('[data-action="confirm"]').focus()
    p.keyboard.press("Enter")
    p.wait_for_function("() => window.playfield.soccer.frame.turnsPlayed >= 1", timeout=30_000)
    page.screenshot("street-soccer-keyboard")


def walk(p, square):
    """Moves the pitch's focus to `square` with the arrow keys."""
    for _ in range(40):
        x, y = p.evaluate("() => window.playfield.soccer.focus")
        if [x, y] == list(square):
            return
        if x != square[0]:
            p.keyboard.press("ArrowRight" if square[0] > x else "ArrowLeft")
        else:
            p.keyboard.press("ArrowDown" if square[1] > y else "ArrowUp")
    raise AssertionError(f"could not walk to {square}")


def test_a_spectator_watches_the_match_without_playing(playfield, watched):
    player = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=human&turnsPerSide=1")
    session = player.page.evaluate("() => window.playfield.session.id")
    watcher = open_soccer(watched, playfield.url + f"/demos/street-soccer?session={session}&watch")
    w = watcher.page
    assert w.evaluate("() => [window.playfield.client.role, window.playfield.soccer.side]") == ["spectator", None]
    assert w.locator(".demo-role").inner_text() == "You are watching."
    for action in ("confirm", "undo", "undo-all", "kit"):
        assert w.locator(f'[data-action="{action}"]').is_disabled(), action
    assert w.locator(".pitch .square.movable").count() == 0
    assert w.locator(".soccer-invite").is_hidden()
    # The player's confirmed turn reaches the watcher, animated and announced.
    play_turn(player)
    w.wait_for_function("() => window.playfield.soccer.frame.turnsPlayed === 1", timeout=30_000)
    w.wait_for_function("() => document.querySelector('.soccer-announce').textContent.startsWith('home rolled')", timeout=30_000)


def test_the_phone_layout_fits(playfield, watched):
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice", viewport=(390, 844), is_mobile=True, has_touch=True)
    p = page.page
    width = p.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    box = p.locator(".pitch").bounding_box()
    assert box["width"] <= 390 and box["width"] > 300
    page.screenshot("street-soccer-phone")
    assert_accessible(p)


# Once this side's plan is drawn: while the other side's turn is still animated, what is lit,
# and what a click on the pitch does then (in one evaluation: the animation ends by itself);
# `missed` when the animation was over first.
CLICK_DURING_ANIMATION = """() => {
  const g = window.playfield.soccer;
  if (!(g.plan && g.renderedPlan === g.plan && g.frame.phase === 'turn' && g.frame.toMove === g.side)) return null;
  if (!g.animation) return {missed: true};
  const lit = document.querySelectorAll('.pitch .square.movable, .pitch .square.target').length;
  document.querySelector('.pitch .square').click();
  return {lit, animating: g.animation !== null, selected: g.selected,
          movable: document.querySelectorAll('.pitch .square.movable').length};
}"""


def test_nothing_is_lit_while_the_other_sides_turn_is_animated_and_a_click_skips_it(playfield, watched):
    # Its board is not the one to plan on (after a goal, the kick-off's is): a piece picked
    # there would be another, or none.
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice&turnsPerSide=4&computerDelay=0")
    p = page.page
    deadline = Deadline(90, "a computer's turn animated while it is our turn")
    seen = None
    while seen is None or seen.get("missed"):
        assert p.evaluate(PHASE) != "over", "every computer's turn had ended its animation first"
        play_turn(page)
        seen = p.wait_for_function(CLICK_DURING_ANIMATION, timeout=deadline.left() * 1000).json_value()
    assert seen["lit"] == 0, f"squares lit on the animated board: {seen}"
    assert not seen["animating"] and seen["selected"] is None, f"the click skips, picks nothing: {seen}"
    assert seen["movable"] > 0, "then this side's pieces are lit to move"


def test_rewatch_replays_the_match_with_animated_turns_and_ends_where_it_ended(playfield, watched):
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice&turnsPerSide=2&computerDelay=0")
    p = page.page
    deadline = Deadline(90, "the match")
    while p.evaluate(PHASE) != "over":
        deadline.left()
        p.wait_for_function(f"() => ({PLANNING})() || ({OVER})()", timeout=deadline.left() * 1000)
        if p.evaluate(PHASE) != "over":
            play_turn(page, moves=2)
    final = "() => JSON.stringify(['board', 'score', 'stats', 'last', 'kits'].map(k => window.playfield.soccer.frame[k]))"
    live = p.evaluate(final)
    href = p.locator(".rewatch").get_attribute("href")
    assert href.endswith("/replay")

    replay = watched()
    q = replay.page
    q.goto(playfield.url + href)
    q.wait_for_function("() => window.playfield?.soccer?.frame && window.playfield.replay")
    assert q.locator(".pitch .square").count() > 70
    # Played from the start at 8x, the turns are animated move by move.
    q.click('[data-speed="8"]')
    q.wait_for_function("() => window.playfield.soccer.animation !== null", timeout=30_000)
    replay.screenshot("street-soccer-rewatch")
    # At its end the replay shows exactly the match that was played.
    end = q.evaluate("() => window.playfield.hello.end")
    q.locator(".seek-bar").fill(str(end))
    q.wait_for_function(
        f"() => window.playfield.frames.newest?.tick === {end} && !window.playfield.replay.state.seeking", timeout=30_000)
    q.wait_for_function(f"() => ({final})() === {live!r}", timeout=30_000)
    assert_accessible(q)


def test_the_page_says_which_goal_you_attack_and_the_ends_change_at_a_rematch(playfield, watched):
    # Issue 36, item 2: the ends, the rules, CONFIRM's reason, the after-match buttons.
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice&turnsPerSide=1&computerDelay=0")
    p = page.page
    p.wait_for_function(PLANNING, timeout=30_000)
    assert p.locator(".soccer-ends").inner_text() == "You play home and attack the right-hand goal →."
    home, away = p.locator(".team-home").bounding_box(), p.locator(".team-away").bounding_box()
    assert home["x"] < away["x"]  # home defends the left-hand goal
    # The rules are on the page, with the numbers the server plays by.
    rules = p.evaluate("() => window.playfield.soccer.hello.rules")
    p.click(".soccer-rules summary")
    text = p.locator(".soccer-rules").inner_text()
    assert f"up to {rules['passRange']} squares" in text and "goalkeeper" in text and "kick-off" in text
    assert f"Each side plays {rules['turnsPerSide']} turns" in text and rules["turnsPerSide"] == 1
    page.screenshot("street-soccer-rules")
    assert_accessible(p)
    play_turn(page)
    p.wait_for_function(OVER, timeout=30_000)
    # REMATCH looks like the page's other buttons (CONFIRM), WEAR THIS KIT like UNDO.
    look = "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.minHeight, s.borderRadius, s.fontWeight]; }"
    assert p.locator('[data-action="rematch"]').evaluate(look) == p.locator('[data-action="confirm"]').evaluate(look)
    p.click(".kit-designer summary")
    assert p.locator('[data-action="kit"]').evaluate(look) == p.locator('[data-action="undo"]').evaluate(look)
    page.screenshot("street-soccer-full-time")
    p.click('[data-action="rematch"]')
    p.wait_for_function("() => window.playfield.soccer.frame.match === 2", timeout=30_000)
    assert p.evaluate("() => window.playfield.soccer.frame.homeAttacks") == "left"
    p.wait_for_function("() => document.querySelector('.soccer-ends').textContent.includes('left-hand goal ←')")
    home, away = p.locator(".team-home").bounding_box(), p.locator(".team-away").bounding_box()
    assert away["x"] < home["x"]  # now away defends the left-hand goal, and the scoreboard says so
    assert "changed ends" in p.locator(".soccer-announce").inner_text()
    page.screenshot("street-soccer-rematch")


def test_confirms_refusal_is_text_and_focus_returns_to_the_square_after_which_move(playfield, watched):
    page = open_soccer(watched, playfield.url + "/demos/street-soccer?new&away=novice&turnsPerSide=1&computerDelay=0",
                       viewport=(390, 844), is_mobile=True, has_touch=True)
    p = page.page
    p.wait_for_function(PLANNING, timeout=30_000)
    # The server's plans, made to offer two moves to one square and to refuse confirmation (a
    # goalkeeper's clearance is hard to set up on a fresh pitch; the page is what is tested).
    piece, square = p.evaluate("""() => {
      const g = window.playfield.soccer;
      const move = g.plan.legal[0];
      const real = window.playfield.client.request.bind(window.playfield.client);
      window.playfield.client.request = async (message, ms) => {
        const answer = await real(message, ms);
        answer.plan.canConfirm = false;
        answer.plan.problem = 'turn: the goalkeeper held the ball when the turn began: it must leave the goal area';
        return answer;
      };
      g.plan = {...g.plan, legal: [move, {...move, move: 'kick'}], canConfirm: true};
      return [move.piece, move.to];
    }""")
    cell = f'.pitch .square[data-x="{square[0]}"][data-y="{square[1]}"]'
    p.locator(".pitch .square.movable").first.wait_for()
    p.evaluate(f"() => window.playfield.soccer.selected = {piece}")
    p.evaluate("() => window.playfield.redraw()")
    p.wait_for_function(f"() => document.querySelector('{cell}').classList.contains('target')")
    p.locator(cell).click()
    choice = p.locator(".move-choice")
    assert choice.is_visible() and choice.inner_text().startswith("Which move?")
    p.keyboard.press("Enter")
    # The keyboard is back on the pitch, on the square the move went to, not on the body.
    assert p.evaluate("() => [document.activeElement.dataset.x, document.activeElement.dataset.y]") == [
        str(square[0]), str(square[1])]
    problem = p.locator(".confirm-problem")
    problem.wait_for(state="visible", timeout=30_000)
    assert problem.inner_text() == ("Cannot confirm yet: the goalkeeper held the ball when the turn began: "
                                    "it must leave the goal area.")
    assert p.locator('[data-action="confirm"]').is_disabled()
    page.screenshot("street-soccer-cannot-confirm-phone")
    assert_accessible(p)


def test_a_lost_connection_says_so(server_module, watched):
    server = server_module.Playfield()
    try:
        page = open_soccer(watched, server.url + "/demos/street-soccer?new&away=novice&turnsPerSide=2")
        p = page.page
        p.wait_for_function(PLANNING, timeout=30_000)
        server.stop()
        p.wait_for_function("() => document.querySelector('.soccer-state').textContent.startsWith('Connection lost')",
                            timeout=15_000)
        assert p.locator('[data-action="confirm"]').is_disabled()
        assert p.locator(".pitch .square.movable").count() == 0
        page.screenshot("street-soccer-connection-lost")
        # NB: closed first: the page keeps trying to reconnect, and a refusal logged between
        # forgetting the problems and closing would count.
        page.close()
        page.allow(lambda problem: True)  # the refused reconnects
    finally:
        server.stop()


def test_a_dead_link_says_so(playfield, watched):
    # A link to a session that does not exist (deleted, or mistyped): not "Waiting..." forever.
    page = watched(viewport=(390, 844))
    page.page.goto(f"{playfield.url}/demos/street-soccer?session=nosuchsession0000000000")
    page.page.wait_for_function(
        "() => document.querySelector('.soccer-state').textContent.startsWith('This match cannot be played')",
        timeout=15_000)
    assert "no longer exists" in page.page.locator(".soccer-state").inner_text()
    page.allow(lambda problem: "404" in problem)
    page.screenshot("street-soccer-dead-link-phone")
