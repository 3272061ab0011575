"""Replays (`/ws/replays/ID`) have 32 places; one address holds at most `--replays-per-address`
of them, so a few addresses opening replays cannot take every place from the rest."""
import asyncio
import json

from websockets.asyncio.client import connect

from deadline import receive_until_async
from helpers import create_session


async def open_replays(server, session_id, address, count):
    """Opens `count` replays from `address`, one after another; returns the open sockets and
    the first `hello` or `error` of each."""
    sockets, firsts = [], []
    for _ in range(count):
        ws = await connect(f"{server.ws_url}/ws/replays/{session_id}", local_addr=(address, 0),
                           max_size=None)
        sockets.append(ws)
        firsts.append(await receive_until_async(ws, lambda m: m["type"] in ("hello", "error"), 20,
                                                f"the replay's hello or error ({address})"))
    return sockets, firsts


async def flood_then_bystander(server, session_id):
    flood, flood_firsts = await open_replays(server, session_id, "127.0.0.2", 4)
    mine, my_firsts = await open_replays(server, session_id, "127.0.0.3", 1)
    for ws in flood + mine:
        await ws.close()
    return flood_firsts, my_firsts


def test_one_address_holds_at_most_its_share_of_the_replay_places(start_playfield):
    server = start_playfield("--replays-per-address", "3")
    session = create_session(server, "maze")
    flood, mine = asyncio.run(flood_then_bystander(server, session["id"]))
    assert [m["type"] for m in flood] == ["hello", "hello", "hello", "error"], flood
    assert flood[3]["error"] == "replay-unavailable", flood[3]
    assert "--replays-per-address" in flood[3]["message"], flood[3]
    assert [m["type"] for m in mine] == ["hello"], mine
