"""Issue 17, findings 6 and 12: only default-config games enter the high scores, and a game
that ended before a restart can still be entered after it."""
import signal
import time

from helpers import create_session, request
from test_durability import steer_into_holes

# One big hole under a single ball: the game is over almost at once.
CUSTOM = {"width": 100, "height": 100, "balls": 1, "holes": [[0.5, 0.5]], "holeRadius": 200,
          "maxHoleRadius": 200, "pullStrength": 10, "captureFraction": 0.9, "pauseTicks": 0}


def wait_for_game_over(server, session):
    """The game ends by itself within a few ticks; the session shows it as lastGame."""
    for _ in range(200):
        shown = request(server.url + f"/api/sessions/{session['id']}")[2]
        if shown.get("lastGame"):
            return shown["lastGame"]
        time.sleep(0.05)
    raise AssertionError("no game over")


def test_a_custom_config_game_does_not_enter_the_table(start_playfield):
    server = start_playfield()
    session = create_session(server, "holes", CUSTOM)
    wait_for_game_over(server, session)
    entry = {"session": session["id"], "token": session["token"], "name": "Mallory"}
    status, _, answer = request(server.url + "/api/highscores", "POST", entry)
    assert status == 409, answer
    assert "default settings" in answer["error"]
    assert request(server.url + "/api/highscores")[2]["scores"] == []


def test_a_game_over_survives_a_restart(start_playfield):
    server = start_playfield()
    session = create_session(server, "holes")
    over = steer_into_holes(server, session)
    server.stop(signal.SIGTERM)

    again = start_playfield(database=server.database)
    entry = {"session": session["id"], "token": session["token"], "name": "Ada"}
    status, _, answer = request(again.url + "/api/highscores", "POST", entry)
    assert status == 201, answer
    assert (answer["score"], answer["level"]) == (over["score"], over["level"])
    assert request(again.url + "/api/highscores", "POST", entry)[0] == 409
