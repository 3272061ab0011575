"""Spectators joining a running, watched session: each gets its hello first, then the frames
from the hello's tick on, in order, while those already watching go on as before.

A hello is encoded off the game loop; whatever the loop sends a joiner meanwhile waits for it,
while the same broadcast goes at once to everyone already greeted."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from deadline import Deadline, receive_one
from helpers import create_session

JOINERS = 24
FRAMES_EACH = 30


async def frames_after_hello(url, deadline):
    """The hello and the next FRAMES_EACH frames of a new spectator, and the types it saw."""
    async with connect(url, max_size=None) as ws:
        first = await receive_one(ws, deadline.left())
        ticks, types = [], [first["type"]]
        while len(ticks) < FRAMES_EACH:
            message = json.loads(await asyncio.wait_for(ws.recv(), deadline.left()))
            types.append(message["type"])
            if message["type"] == "frame":
                ticks.append(message["tick"])
        return first, ticks, types


@pytest.mark.slow
def test_joiners_get_hello_first_then_frames_in_order_beside_watchers(playfield):
    # 600 balls: a hello of tens of KB, so hellos are being encoded while ticks go out.
    session = create_session(playfield, "bouncing-balls", {"balls": 600, "width": 1200, "height": 1200})
    base = f"{playfield.ws_url}/ws/sessions/{session['id']}"

    async def run():
        deadline = Deadline(60, "spectators joining a running session")
        async with connect(f"{base}?token={session['token']}", max_size=None) as owner, \
                connect(base, max_size=None) as watcher:
            assert (await receive_one(owner, deadline.left()))["type"] == "hello"
            assert (await receive_one(watcher, deadline.left()))["type"] == "hello"
            await owner.send(json.dumps({"type": "start"}))
            results = await asyncio.gather(*(frames_after_hello(base, deadline) for _ in range(JOINERS)))
            watched = []
            while len(watched) < FRAMES_EACH:
                message = json.loads(await asyncio.wait_for(watcher.recv(), deadline.left()))
                if message["type"] == "frame":
                    watched.append(message["tick"])
        return results, watched

    results, watched = asyncio.run(run())
    for hello, ticks, types in results:
        assert hello["type"] == "hello" and hello["role"] == "spectator", types[:5]
        assert types.count("hello") == 1, types[:5]
        assert ticks[0] >= hello["tick"], (hello["tick"], ticks[:5])
        assert all(b > a for a, b in zip(ticks, ticks[1:])), ticks
    assert all(b > a for a, b in zip(watched, watched[1:])), watched
