"""Issue 17: a session over its share of the per-tick CPU budget is stepped less often and
says so in `status`; a default-config session is stepped every tick and says that too."""
import asyncio
import json

from websockets.asyncio.client import connect

from deadline import receive_until_async
from helpers import create_session, request


async def statuses(server, session, wanted):
    """The first `wanted` status messages a spectator of `session` is sent."""
    found = []
    async with connect(f"{server.ws_url}/ws/sessions/{session['id']}") as socket:
        while len(found) < wanted:
            found.append(await receive_until_async(
                socket, lambda m: m["type"] == "status", what=f"status {len(found) + 1} of {wanted}"))
    return found


def test_a_default_session_says_it_is_stepped_every_tick(playfield):
    session = create_session(playfield, "bouncing-balls")
    [status] = asyncio.run(statuses(playfield, session, 1))
    budget = status["budget"]
    assert set(budget) == {"throttled", "every", "costMs", "shareMs"}
    assert budget["throttled"] is False and budget["every"] == 1
    assert isinstance(budget["costMs"], (int, float)) and isinstance(budget["shareMs"], (int, float))
    # The share is the budget (10 ms per core) over the live sessions, and a default session
    # costs far less than its share.
    assert budget["shareMs"] > 0
    assert 0 <= budget["costMs"] < budget["shareMs"]
    request(playfield.url + f"/api/sessions/{session['id']}", "DELETE",
            headers={"Authorization": f"Bearer {session['token']}"})

