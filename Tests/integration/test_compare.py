"""Issue 34: compare groups. `POST /api/compare` makes 2 to 4 panes of one model from one seed,
each with its own overrides; `/ws/compare/ID?token=T` steps them in lockstep and says where
their frames first differ. Bad input is refused with a clear error and starts nothing."""
import json

import pytest
from websockets.sync.client import connect

from deadline import receive_until
from helpers import request

BALLS = {"balls": 6, "width": 300, "height": 200, "radiusMin": 10, "radiusMax": 20,
         "speedMin": 200, "speedMax": 400}


def create(server, variants, kind="bouncing-balls", config=None, seed=42, **extra):
    body = {"kind": kind, "seed": seed, "config": BALLS if config is None else config,
            "variants": variants, **extra}
    return request(server.url + "/api/compare", "POST", body)


def socket(server, group):
    return connect(f"{server.ws_url}/ws/compare/{group['id']}?token={group['token']}", max_size=None)


def frames_at(ws, tick, seen=None):
    return receive_until(ws, lambda m: m["type"] == "frames" and m["tick"] == tick,
                         what=f"the frames of tick {tick}", seen=seen)


def test_three_panes_play_in_lockstep_on_one_socket(playfield):
    status, _, group = create(playfield, [{}, {"restitution": 0.9}, {"restitution": 0.5}])
    assert status == 201, group
    assert {"id", "token", "panes"} <= group.keys()
    assert [pane["config"]["restitution"] for pane in group["panes"]] == [1, 0.9, 0.5]
    assert all(pane["config"]["balls"] == 6 for pane in group["panes"])
    with socket(playfield, group) as ws:
        hello = receive_until(ws, lambda m: m["type"] == "hello")
        assert hello["kind"] == "bouncing-balls" and len(hello["panes"]) == 3
        ws.send(json.dumps({"type": "play"}))
        seen = []
        receive_until(ws, lambda m: m["type"] == "frames" and m["tick"] >= 30, seen=seen)
        frames = [m for m in seen if m["type"] == "frames"]
        ticks = [m["tick"] for m in frames]
        assert ticks == sorted(set(ticks)), "strictly rising ticks"
        assert all(len(m["panes"]) == 3 and len(m["panes"][2]["positions"]) == 12 for m in frames)


def test_identical_panes_never_differ(playfield):
    status, _, group = create(playfield, [{"restitution": 0.7}, {"restitution": 0.7}], ticks=900)
    assert status == 201, group
    with socket(playfield, group) as ws:
        ws.send(json.dumps({"type": "step", "count": 900}))
        seen = []
        frames_at(ws, 900, seen)
        assert not [m for m in seen if m["type"] == "diverged"]
        assert all(m["panes"][0] == m["panes"][1] for m in seen if m["type"] == "frames")


def test_a_changed_parameter_is_reported_at_the_first_differing_tick(playfield):
    status, _, group = create(playfield, [{}, {"restitution": 0.5}])
    assert status == 201, group
    with socket(playfield, group) as ws:
        ws.send(json.dumps({"type": "step", "count": 600}))
        seen = []
        diverged = receive_until(ws, lambda m: m["type"] == "diverged", seen=seen)
        tick = diverged["tick"]
        assert 0 < tick < 600
        # Told before (or with) the frames of its tick: none of that tick or later came first.
        assert all(m["tick"] < tick for m in seen if m["type"] == "frames")
        frames_at(ws, 600)
        # Re-simulated from the seed: the tick before agrees, the tick itself differs.
        ws.send(json.dumps({"type": "seek", "tick": tick - 1}))
        before = frames_at(ws, tick - 1)
        assert before["panes"][0] == before["panes"][1]
        ws.send(json.dumps({"type": "seek", "tick": tick}))
        at = frames_at(ws, tick)
        assert at["panes"][0] != at["panes"][1]
        # Once only.
        ws.send(json.dumps({"type": "step", "count": 5}))
        seen = []
        frames_at(ws, tick + 5, seen)
        assert not [m for m in seen if m["type"] == "diverged"]


@pytest.mark.parametrize("variants, field", [
    ([{}], "variants"),
    ([{}, {}, {}, {}, {}], "variants"),
    ([{}, {"wobble": 3}], "variants[1].wobble"),
    ([{}, {"restitution": 2}], "variants[1].restitution"),
    ([{}, 3], "variants[1]"),
])
def test_bad_variants_are_refused_naming_the_field(playfield, variants, field):
    status, _, body = create(playfield, variants)
    assert status == 400 and body["field"] == field, body
    assert body["error"]


def test_bad_kind_and_fields_are_refused(playfield):
    status, _, body = create(playfield, [{}, {}], kind="no-such-kind")
    assert status == 400 and body["field"] == "kind" and "bouncing-balls" in body["error"]
    status, _, body = create(playfield, [{}, {}], ticks=0)
    assert status == 400 and body["field"] == "ticks"
    status, _, body = create(playfield, [{}, {}], colour="red")
    assert status == 400 and body["field"] == "colour"
    status, _, body = create(playfield, [{}, {}], config={"balls": 0})
    assert status == 400 and body["field"] == "config.balls"


def test_refused_requests_start_nothing_and_groups_are_counted_per_client(start_playfield):
    server = start_playfield("--compares-per-client", "1")
    for variants in ([{}], [{}, {"nope": 1}]):
        assert create(server, variants)[0] == 400
    status, _, group = create(server, [{}, {}])
    assert status == 201, group
    status, _, body = create(server, [{}, {}])
    assert status == 429 and "--compares-per-client" in body["error"]


def test_the_socket_needs_the_token_and_refuses_a_seek_past_the_end(playfield):
    status, _, group = create(playfield, [{}, {"restitution": 0.5}], ticks=120)
    assert status == 201
    assert request(f"{playfield.url}/ws/compare/{group['id']}")[0] == 401
    assert request(f"{playfield.url}/ws/compare/{group['id']}?token=wrong")[0] == 403
    assert request(f"{playfield.url}/ws/compare/nope?token=x")[0] == 404
    with socket(playfield, group) as ws:
        ws.send(json.dumps({"type": "step", "count": 10}))
        frames_at(ws, 10)
        ws.send(json.dumps({"type": "seek", "tick": 121}))
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["field"] == "tick" and "end" in error["message"]
        for bad in ({"type": "speed", "value": 100}, {"type": "step", "count": 0}, {"type": "fly"}):
            ws.send(json.dumps(bad))
            assert receive_until(ws, lambda m: m["type"] == "error")["error"] in ("bad-field", "unknown-type")
        # Still at tick 10: the refused seek did nothing; play runs to the end and stops there.
        ws.send(json.dumps({"type": "speed", "value": 8}))
        ws.send(json.dumps({"type": "play"}))
        frames_at(ws, 120)
        status_message = receive_until(ws, lambda m: m["type"] == "status" and not m["playing"])
        assert status_message["tick"] == 120
