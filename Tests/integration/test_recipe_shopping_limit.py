"""Issue 33: shopping-list changes are charged to the client (--shopping-changes-per-minute):
past its share a change is refused with an error naming the option, and nothing is applied."""
import json

import pytest
from deadline import receive_until
from helpers import request
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

SOUP = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
        "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}


def test_changes_past_the_clients_share_are_refused(start_playfield):
    server = start_playfield("--shopping-changes-per-minute", "3")
    status, _, saved = request(server.url + "/api/recipes/import?save=1", "POST",
                               json.dumps(SOUP).encode(), {"Content-Type": "application/ld+json"})
    assert status == 201, saved
    token = saved["book"]["token"]
    with connect(f"{server.ws_url}/ws/recipes/shopping?token={token}") as ws:
        seen = []
        receive_until(ws, lambda m: m["type"] == "list", 10, "the list", seen)
        for number in range(4):
            ws.send(json.dumps({"type": "add", "items": [
                {"name": f"thing {number}", "amount": 1, "unit": "", "aisle": "other"}]}))
        seen = []
        receive_until(ws, lambda m: m["type"] == "error", 10, "the refusal", seen)
        assert "--shopping-changes-per-minute" in seen[-1]["message"], seen
        lists = [m for m in seen if m["type"] == "list"]
        assert [len(m["items"]) for m in lists] == [1, 2, 3], seen
    # A second device of the same client is charged from the same share.
    with connect(f"{server.ws_url}/ws/recipes/shopping?token={token}") as ws:
        seen = []
        receive_until(ws, lambda m: m["type"] == "list", 10, "the list", seen)
        assert sorted(item["name"] for item in seen[-1]["items"]) == ["thing 0", "thing 1", "thing 2"]
        ws.send(json.dumps({"type": "clear"}))
        seen = []
        receive_until(ws, lambda m: m["type"] == "error", 10, "the refusal", seen)
        assert "--shopping-changes-per-minute" in seen[-1]["message"], seen


def test_a_message_over_its_bound_closes_the_socket_unread_and_the_largest_change_fits(
        start_playfield):
    """A change is parsed whole on the event loop: past `--shopping-message-bytes` (256 KiB)
    its frame's header closes the socket with 1009, unread. Before, any message up to 1 MiB was
    read, and one over 256 KiB got an error message. The largest change the list takes, an add
    of 500 lines of 200-character names with the longest unit and aisle, fits."""
    server = start_playfield()
    status, _, saved = request(server.url + "/api/recipes/import?save=1", "POST",
                               json.dumps(SOUP).encode(), {"Content-Type": "application/ld+json"})
    assert status == 201, saved
    token = saved["book"]["token"]
    largest = json.dumps({"type": "add", "items": [
        {"name": f"{n:03} " + "x" * 196, "amount": 123456789.125, "unit": "u" * 20,
         "aisle": "a" * 40} for n in range(500)]})
    assert 150_000 < len(largest) < 256 << 10, len(largest)
    with connect(f"{server.ws_url}/ws/recipes/shopping?token={token}", max_size=None) as ws:
        receive_until(ws, lambda m: m["type"] == "list", 10, "the list")
        ws.send(largest)
        seen = []
        receive_until(ws, lambda m: m["type"] in ("list", "error"), 10, "the list", seen)
        assert len(seen[-1].get("items", [])) == 500, seen[-1]
        over = json.dumps({"type": "clear", "all": True, "pad": "x" * (256 << 10)})
        ws.send(over)
        seen = []
        with pytest.raises(ConnectionClosed):
            # The old server answered with an error message and kept the socket.
            receive_until(ws, lambda m: m["type"] in ("list", "error"), 20, "the close", seen)
        assert ws.close_code == 1009, (ws.close_code, ws.close_reason, seen)
        assert seen == [], seen
    # Unread: the list was not cleared.
    with connect(f"{server.ws_url}/ws/recipes/shopping?token={token}", max_size=None) as ws:
        listed = receive_until(ws, lambda m: m["type"] == "list", 10, "the list")
        assert len(listed["items"]) == 500
