"""Issue 17, findings 6 and 12: only default-config games enter the high scores, and a game
that ended before a restart can still be entered after it."""
import asyncio
import json
import signal

from websockets.asyncio.client import connect

from helpers import create_session, request
from test_durability import steer_into_holes

# One big hole under a single ball: the game is over almost at once.
CUSTOM = {"width": 100, "height": 100, "balls": 1, "holes": [[0.5, 0.5]], "holeRadius": 200,
          "maxHoleRadius": 200, "pullStrength": 10, "captureFraction": 0.9, "pauseTicks": 0}


def wait_for_game_over(server, session):
    async def run():
        url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "stop"}))
            for _ in range(100):
                await ws.send(json.dumps({"type": "step", "count": 30}))
                try:
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                        if message["type"] == "event" and message["name"] == "game-over":
                            return message
                except asyncio.TimeoutError:
                    pass
            raise AssertionError("no game over")
    return asyncio.run(run())


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
