"""Issue 33: a book's links stop working when the owner replaces or revokes them, for the
shopping-list devices already connected with one too: they are closed (1008, saying why) and
their changes are refused, while the owner's devices carry on."""
import json

import pytest
from deadline import receive_until
from helpers import request
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

SOUP = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
        "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}


def add(ws, name):
    ws.send(json.dumps({"type": "add", "items": [
        {"name": name, "amount": 1, "unit": "", "aisle": "other"}]}))


def closed_with(ws, seconds=10):
    """The close frame's code and reason, once every message before it is read."""
    with pytest.raises(ConnectionClosed) as closed:
        receive_until(ws, lambda m: False, seconds, "the close")
    return closed.value.rcvd.code, closed.value.rcvd.reason


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_devices_of_a_replaced_or_revoked_link_are_closed(start_playfield, method):
    server = start_playfield()
    status, _, saved = request(server.url + "/api/recipes/import?save=1", "POST",
                               json.dumps(SOUP).encode(), {"Content-Type": "application/ld+json"})
    assert status == 201, saved
    owner = saved["book"]["token"]
    status, _, links = request(f"{server.url}/api/recipes/links?token={owner}", "POST", b"")
    assert status == 200, links
    shop = f"{server.ws_url}/ws/recipes/shopping?token="
    with connect(shop + owner) as mine, connect(shop + links["write"]) as shared, \
            connect(shop + links["read"]) as watching:
        for ws in (mine, shared, watching):
            receive_until(ws, lambda m: m["type"] == "list", 10, "the list")
        add(shared, "bread")
        receive_until(mine, lambda m: m["type"] == "list" and len(m["items"]) == 1, 10,
                      "the shared link's change")

        status, _, _ = request(f"{server.url}/api/recipes/links?token={owner}", method, b"")
        assert status == (200 if method == "POST" else 204)
        reason = "replaced" if method == "POST" else "revoked"
        for ws in (shared, watching):
            code, said = closed_with(ws)
            assert code == 1008 and reason in said, (code, said)

        add(mine, "milk")
        last = receive_until(mine, lambda m: m["type"] == "list" and len(m["items"]) == 2, 10,
                             "the owner's change")
        assert sorted(item["name"] for item in last["items"]) == ["bread", "milk"]
    with pytest.raises(InvalidStatus) as refused:
        connect(shop + links["write"], open_timeout=10)
    assert refused.value.response.status_code == 403
