"""Issue 33: shopping-list changes are charged to the client (--shopping-changes-per-minute):
past its share a change is refused with an error naming the option, and nothing is applied."""
import json

from deadline import receive_until
from helpers import request
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
