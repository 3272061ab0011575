"""Issue 17, finding 7 (replay states): a replay state starts from the nearest snapshot, agrees
with a replay from tick 0, and asking again is answered from what was kept."""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from deadline import receive_until_async
from helpers import create_session, request


@pytest.mark.slow
def test_replay_state_starts_from_a_snapshot(start_playfield):
    server = start_playfield()
    session = create_session(server, "bouncing-balls", {"balls": 100})

    async def run():
        url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "stop"}))
            await ws.send(json.dumps({"type": "step", "count": 600, "id": "600"}))
            # The step's ack comes once its last tick ran (slower on a busy machine).
            answer = await receive_until_async(ws, lambda m: m.get("id") == "600", 60, "the 600 ticks stepped")
            assert answer["type"] == "ack", answer
    asyncio.run(run())
    live = request(f"{server.url}/api/sessions/{session['id']}/state")[2]
    tick = live["tick"] - 5
    assert tick > 300
    url = f"{server.url}/api/sessions/{session['id']}/replay?tick={tick}"
    status, _, snapshot = request(url)
    assert status == 200, snapshot
    assert 300 <= snapshot["from"] <= tick
    status, _, start = request(url + "&from=start")
    assert status == 200 and start["from"] == 0
    assert snapshot["stateHash"] == start["stateHash"]
    assert request(url)[2] == snapshot
    assert request(url + "&from=middle")[0] == 400
