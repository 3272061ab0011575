"""Issue 17, finding 3: a replay reads its session's input log a chunk at a time. With a chunk
of 16 inputs, a log of several hundred plays to the end (and seeks back and forth) to exactly
the live session's final state."""
import asyncio
import json
import random

from websockets.asyncio.client import connect

from deadline import receive_one, receive_until_async
from helpers import create_session, request


async def play_live(server, session, rng):
    """Tilts the maze ~300 times over ~1.5 s, stops it, and returns its last frame."""
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    async with connect(url, max_queue=None) as ws:
        for _ in range(60):
            for _ in range(5):
                await ws.send(json.dumps({"type": "tilt", "x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1)}))
            await asyncio.sleep(0.025)
        # Every tilt applied and stored before the stop: a stop that reaches the session in the
        # same tick as the last tilts takes effect first, and they then wait for a step (with
        # both cores busy, 5 of the 300 did).
        await ws.send(json.dumps({"type": "flush", "id": "all"}))
        seen = []
        stored = await receive_until_async(ws, lambda m: m.get("id") == "all", 30, "the 300 tilts stored", seen)
        assert stored["type"] == "stored" and stored["inputs"] == 300, stored
        await ws.send(json.dumps({"type": "stop"}))
        # The stop takes effect at the next tick; the `status` saying so follows it.
        await receive_until_async(ws, lambda m: m["type"] == "status" and m["running"] is False,
                                  20, "the status of the stopped maze", seen)
        errors = [m for m in seen if m["type"] == "error"]
        assert not errors, errors
    # A joiner of a stopped session gets its current frame at once.
    async with connect(f"{server.ws_url}/ws/sessions/{session['id']}") as ws:
        return await receive_until_async(ws, lambda m: m["type"] == "frame", 10, "the joiner's frame")


async def frame_at(ws, tick):
    """The frame of `tick` that a seek shows (an error first fails the test)."""
    frame = await receive_until_async(ws, lambda m: m["type"] == "error" or (m["type"] == "frame" and m["tick"] == tick),
                                      20, f"the frame of tick {tick}")
    assert frame["type"] == "frame", frame
    return frame


def last_frame(messages):
    return [m for m in messages if m["type"] == "frame"][-1]


def test_a_replay_of_a_log_many_chunks_long_ends_in_the_live_state(start_playfield):
    server = start_playfield("--replay-chunk-inputs", "16")
    session = create_session(server, "maze")
    live = asyncio.run(play_live(server, session, random.Random(17)))
    logged = request(f"{server.url}/api/sessions/{session['id']}/inputs", headers={"Authorization": "Bearer " + session["token"]})[2]["inputs"]
    assert len(logged) == 300, "about nineteen chunks of 16"
    status, _, state = request(f"{server.url}/api/sessions/{session['id']}/state")
    assert status == 200 and state["tick"] == live["tick"]

    async def replay():
        async with connect(f"{server.ws_url}/ws/replays/{session['id']}", max_queue=None) as ws:
            hello = await receive_one(ws)
            assert hello["type"] == "hello" and hello["end"] == live["tick"]
            await ws.send(json.dumps({"type": "speed", "value": 8}))
            # Played to the end (at 8x, slower on a busy machine): its last frame, and the
            # status that says it stopped there.
            played = []

            def at_the_end(_):
                return (any(m["type"] == "frame" and m["tick"] == live["tick"] for m in played)
                        and any(m["type"] == "status" and m["tick"] == live["tick"] and not m["playing"]
                                for m in played))
            await receive_until_async(ws, at_the_end, 60, "the replay's end", played)
            assert not [m for m in played if m["type"] == "error"]
            end = last_frame(played)
            # Back to the middle, on to the end again: the same final state.
            await ws.send(json.dumps({"type": "seek", "tick": live["tick"] // 3}))
            middle = await frame_at(ws, live["tick"] // 3)
            await ws.send(json.dumps({"type": "seek", "tick": live["tick"]}))
            again = await frame_at(ws, live["tick"])
            return end, middle, again

    end, middle, again = asyncio.run(replay())
    assert end == live
    assert middle["tick"] == live["tick"] // 3
    assert again == live
    # The state at the end, rebuilt from tick 0 through every chunk (each read off the
    # scheduler's thread between two step jobs): the live session's hash.
    status, _, rebuilt = request(f"{server.url}/api/sessions/{session['id']}/replay?tick={live['tick']}&from=start")
    assert status == 200, rebuilt
    assert rebuilt["stateHash"] == state["stateHash"] and rebuilt["from"] == 0, (rebuilt, state)
