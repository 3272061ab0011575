"""What the database gives the pages: the sessions page (list, live refresh, control and
delete), the Holes high-score table with its name prompt, and saved mazes."""
import json
import time
import urllib.error
import urllib.request

from websockets.sync.client import connect

from deadline import receive_until
from demo_pages import create_session, open_demo, open_game_over, wait_for_pixel


def get(server, path):
    """GETs `path`; returns (status, JSON or None)."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, None


def row(page, session_id):
    return page.page.locator(f'#sessions tr[data-id="{session_id}"]')


def test_sessions_page_lists_refreshes_and_deletes(playfield, watched):
    # This browser makes a maze session (and keeps its token); another comes from elsewhere.
    page = open_demo(watched, playfield.url + "/demos/maze?new")
    p = page.page
    mine = p.evaluate("() => window.playfield.client.id")
    other = create_session(playfield, "holes")
    p.locator(".demo-share a", has_text="all sessions").click()
    p.wait_for_url("**/sessions")

    owned, foreign = row(page, mine), row(page, other["id"])
    assert owned.locator(".title").inner_text() == "Maze ball"
    assert foreign.locator(".title").inner_text() == "Holes"
    owned_links = owned.locator(".links a").all_inner_texts()
    assert owned_links == ["control", "watch", "replay", "embed"]
    assert foreign.locator(".links a").all_inner_texts() == ["watch", "replay", "embed"]
    assert foreign.locator(".delete").count() == 0, "no delete without the token"
    # No token in the link: this browser holds it, and a copied link only watches.
    assert owned.locator('a:text("control")').get_attribute("href") == f"/demos/maze?session={mine}"
    assert owned.locator('a:text("replay")').get_attribute("href") == f"/sessions/{mine}/replay"

    # The list is live: ticks move, and a session made after the page loaded appears.
    tick = int(owned.locator(".tick").inner_text())
    later = create_session(playfield, "tag-cloud")
    row(page, later["id"]).wait_for(state="attached", timeout=5_000)
    assert row(page, later["id"]).locator(".title").inner_text() == "Tag cloud"
    p.wait_for_function(
        f"() => +document.querySelector('#sessions tr[data-id=\"{mine}\"] .tick').textContent > {tick}")
    page.screenshot("sessions")

    # Delete asks once more, then the session is gone from the page and from the server.
    delete = owned.locator(".delete")
    delete.click()
    assert delete.inner_text() == "delete: sure?"
    delete.click()
    owned.wait_for(state="detached")
    assert f"Deleted {mine}" in p.locator("#sessions-status").inner_text()
    assert get(playfield, f"/api/sessions/{mine}")[0] == 404


def test_sessions_page_on_a_phone_shows_cards(playfield, watched):
    session = create_session(playfield, "bouncing-balls")
    page = watched(viewport=(390, 844), has_touch=True, is_mobile=True, device_scale_factor=2)
    p = page.page
    p.goto(playfield.url + "/sessions")
    card = row(page, session["id"])
    # Nobody watches it: it is in the idle group, folded until asked for.
    p.wait_for_function(f"() => document.querySelector('.group-idle tr[data-id=\"{session['id']}\"]')")
    p.locator(".group-idle .fold").click()
    assert p.locator("#sessions thead").is_hidden()
    assert p.evaluate("() => document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    links = card.locator(".links a").all()
    assert [link.inner_text() for link in links] == ["watch", "replay", "embed"]
    for link in links:
        assert link.bounding_box()["height"] >= 20, "links are big enough to tap"
    label = card.locator(".tick").evaluate("e => getComputedStyle(e, '::before').content")
    assert label == '"Tick"', "each value in a card is labelled"
    page.screenshot("phone-sessions")


# Holes with one ball and one hole at the top right, away from the diagonal to the flag.
def play_to_game_over(server, session, score_first=False, frames=None):
    """Plays holes fast as a second controller (stopped, stepping), tilting at the nearest
    hole until the game is over, then lets it run again; returns the `game-over` event.
    With `score_first`, it first rolls the ball to the flag (top left) to score a point.
    `frames`, a dict, gets every frame seen, by tick."""
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "stop"}))
        frame = None
        for n in range(400):
            # Each step's ack comes after its ticks' frames and events: steered from its last frame.
            ws.send(json.dumps({"type": "step", "count": 20, "id": n}))
            seen = []
            answer = receive_until(ws, lambda m: m["type"] in ("ack", "error") and m.get("id") == n, 30,
                                   "the step's ack", seen)
            assert answer["type"] == "ack", answer
            for message in seen:
                if message["type"] == "event" and message["name"] == "game-over":
                    ws.send(json.dumps({"type": "start"}))
                    return message
                if message["type"] == "frame":
                    frame = message
                    if frames is not None:
                        frames[message["tick"]] = message
            if frame and frame["ball"]:
                bx, by = frame["ball"]
                holes = list(zip(frame["holes"][::2], frame["holes"][1::2]))
                hx, hy = min(holes, key=lambda h: (h[0] - bx) ** 2 + (h[1] - by) ** 2)
                if score_first and frame["score"] == 0:
                    # Up the right edge, then left along the top: around the default holes.
                    hx, hy = (1000, 0) if by > 30 else (0, 0)
                tilt = {"type": "tilt", "x": max(-1, min(1, (hx - bx) / 20)),
                        "y": max(-1, min(1, (by - hy) / 20))}
                ws.send(json.dumps(tilt))
    raise AssertionError("no game over")


def test_holes_asks_for_a_name_on_game_over_and_shows_it_escaped(playfield, watched):
    # Only default-config games enter the high scores (issue 17, finding 6).
    session = create_session(playfield, "holes")
    page = open_demo(watched, playfield.url + session["urls"]["control"])
    p = page.page
    table = p.locator(".high-scores")
    assert table.is_visible()
    form = p.locator(".score-entry")
    assert form.is_hidden()

    over = play_to_game_over(playfield, session, score_first=True)
    assert over["score"] == 1
    form.wait_for(state="visible")
    assert p.locator(".overlay .game-over").is_visible()
    assert p.locator(".entry-result").inner_text() == f"Score {over['score']} at level {over['level']}."
    page.screenshot("holes-name-prompt")

    # The server refuses a name with a control character and says why, next to the field.
    name = form.locator('input[name="name"]')
    name.fill("tab\there")
    form.locator('button[type="submit"]').click()
    message = form.locator(".entry-message")
    message.wait_for(state="visible")
    assert "control" in message.inner_text()
    assert name.get_attribute("aria-invalid") is not None
    page.allow(lambda problem: "400" in problem)

    name.fill("Ada <b>&")
    name.press("Enter")
    form.wait_for(state="hidden")
    mine = table.locator("tr.mine")
    mine.wait_for()
    assert mine.locator(".name").inner_text() == "Ada <b>&"
    assert table.locator("b").count() == 0, "a name is text, never markup"
    assert "&lt;b&gt;&amp;" in mine.locator(".name").inner_html()
    assert mine.locator(".score").inner_text() == str(over["score"])
    assert mine.locator(".level").inner_text() == str(over["level"])
    assert "number" in p.locator(".demo-notice").inner_text()
    status, scores = get(playfield, "/api/highscores")
    assert status == 200 and any(s["name"] == "Ada <b>&" for s in scores["scores"])
    page.screenshot("holes-high-scores")

    # RESTART starts a new game; its game over may be entered again.
    p.locator('.overlay [data-action="restart"]').click()
    p.wait_for_function("() => window.playfield.frames.newest?.gameOver === false")
    assert form.is_hidden()


def test_holes_does_not_ask_for_a_name_when_the_game_scored_nothing(playfield, watched):
    page = open_game_over(watched, playfield, "control")
    p = page.page
    assert p.locator('[data-readout="score"]').inner_text() == "0"
    assert p.locator(".overlay .game-over").is_visible()
    time.sleep(0.3)
    assert p.locator(".score-entry").is_hidden(), "a score of 0 is not asked for a name"


def test_holes_spectators_see_the_table_but_no_prompt(playfield, watched):
    page = open_game_over(watched, playfield, "watch")
    p = page.page
    assert p.locator(".overlay .game-over").is_visible()
    assert p.locator(".score-entry").is_hidden(), "only the controller enters a name"
    assert p.locator(".high-scores").is_visible()


def click_cell(page, row, col):
    box = page.page.locator("canvas.view").bounding_box()
    cell = box["width"] / 12
    x, y = (col + 0.5) * cell, (row + 0.5) * cell
    page.page.mouse.click(box["x"] + x, box["y"] + y)
    return x, y


def test_maze_saves_and_loads_by_name(playfield, watched):
    page = open_demo(watched, playfield.url + "/demos/maze?new")
    p = page.page
    cells = [(0, 0), (2, 9), (10, 3)]
    points = []
    for revision, (r, c) in enumerate(cells, start=1):
        points.append(click_cell(page, r, c))
        p.wait_for_function(f"() => window.playfield.frames.newest?.revision === {revision}")
    for x, y in points:
        wait_for_pixel(page, "canvas.view", x, y, "#d3d3d3")

    library = p.locator(".maze-library")
    library.locator('input[name="name"]').fill("test maze")
    library.locator(".save-maze button").click()
    message = library.locator(".library-message")
    p.wait_for_function("() => document.querySelector('.library-message').textContent.startsWith('Saved')")
    assert message.inner_text() == "Saved “test maze”."
    status, saved = get(playfield, "/api/mazes/test%20maze")
    assert status == 200
    assert [(r, c) for r, line in enumerate(saved["cells"]) for c, ch in enumerate(line) if ch == "#"] == cells

    p.locator('[data-action="clear"]').click()
    p.wait_for_function("() => window.playfield.frames.newest?.revision === 4")
    for x, y in points:
        wait_for_pixel(page, "canvas.view", x, y, "#000000")

    select = library.locator('select[name="maze"]')
    assert "test maze" in select.locator("option").all_inner_texts()
    select.select_option("test maze")
    library.locator(".load-maze button").click()
    p.wait_for_function("() => window.playfield.frames.newest?.revision === 5")
    for x, y in points:
        wait_for_pixel(page, "canvas.view", x, y, "#d3d3d3")
    assert message.inner_text() == "Loaded “test maze”."
    page.screenshot("maze-saved-and-loaded")


def test_without_a_database_the_pages_say_what_is_missing(start_playfield, watched):
    server = start_playfield(database="/nonexistent/folder/playfield.db")
    page = open_demo(watched, server.url + "/demos/holes")
    p = page.page
    empty = p.locator(".high-scores-empty")
    empty.wait_for()
    p.wait_for_function("() => document.querySelector('.high-scores-empty').textContent.includes('database')")
    session = p.evaluate("() => window.playfield.client.id")

    p.goto(server.url + "/demos/maze")
    message = p.locator(".library-message")
    p.wait_for_function("() => document.querySelector('.library-message').textContent.includes('database')")
    assert message.get_attribute("data-kind") == "error"
    assert p.locator(".save-maze button").is_disabled() and p.locator(".load-maze button").is_disabled()

    p.goto(f"{server.url}/sessions/{session}/replay")
    assert "Replays need the database" in p.locator(".demo").inner_text()
    assert p.locator(".seek-bar").count() == 0
    page.screenshot("replay-without-database")
    page.allow(lambda problem: "503" in problem)
