"""A client that stops reading gets the newest frame, not a backlog, and nothing breaks."""
import asyncio
import json
import time

from websockets.asyncio.client import connect

from deadline import receive_one
from helpers import create_session


def test_a_stalled_compressing_reader_skips_frames_and_decodes_cleanly(playfield):
    # 4,000 balls make frames of about 40 KB: a stalled reader fills the socket in moments.
    session = create_session(playfield, "bouncing-balls", {"balls": 4000, "width": 1400, "height": 1400, "radiusMin": 4, "radiusMax": 4})

    async def run():
        url = f"{playfield.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url, compression="deflate", max_size=None, max_queue=1, close_timeout=0.5) as ws:
            assert (await receive_one(ws))["type"] == "hello"
            await ws.send(json.dumps({"type": "start"}))
            # Stop reading for two seconds (120 ticks) while asking for replies.
            for n in range(20):
                await ws.send(json.dumps({"type": "ping", "id": n}))
            await asyncio.sleep(2)
            ticks, pongs = [], []
            end = time.monotonic() + 2
            while time.monotonic() < end:
                message = json.loads(await asyncio.wait_for(ws.recv(), 2))
                if message["type"] == "frame":
                    ticks.append(message["tick"])
                elif message["type"] == "pong":
                    pongs.append(message["id"])
            assert pongs == list(range(20)), "every reply arrives, in order, and inflates cleanly"
            assert all(b > a for a, b in zip(ticks, ticks[1:]))
            gaps = [b - a for a, b in zip(ticks, ticks[1:])]
            assert max(gaps) > 10, "the stalled reader skipped frames instead of queueing them"
    asyncio.run(run())


def test_a_slow_spectator_does_not_slow_the_others(playfield):
    session = create_session(playfield, "bouncing-balls", {"balls": 1000, "width": 800, "height": 800, "radiusMin": 4, "radiusMax": 4})

    async def run():
        url = f"{playfield.ws_url}/ws/sessions/{session['id']}"
        control = f"{url}?token={session['token']}"
        async with connect(control, close_timeout=0.5) as ctrl, connect(url, max_queue=1, close_timeout=0.5) as stalled, connect(url) as fast:
            await ctrl.send(json.dumps({"type": "start"}))
            await asyncio.sleep(0.3)
            ticks = []
            end = time.monotonic() + 3
            while time.monotonic() < end:
                message = json.loads(await asyncio.wait_for(fast.recv(), 2))
                if message["type"] == "frame":
                    ticks.append(message["tick"])
            # NB: counted against the session's own ticks, so a busy machine does not fail it;
            # the stalled spectator must not cost the fast one its frames.
            span = ticks[-1] - ticks[0] + 1
            assert len(ticks) > 30 and len(ticks) >= 0.8 * span, \
                f"the fast spectator got {len(ticks)} frames for {span} ticks"
            assert stalled.state.name == "OPEN"
    asyncio.run(run())
