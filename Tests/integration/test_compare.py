"""Issue 34: compare groups. `POST /api/compare` makes 2 to 4 panes of one model from one seed,
each with its own overrides; `/ws/compare/ID?token=T` steps them in lockstep and says where
their frames first differ. Bad input is refused with a clear error and starts nothing."""
import json

import pytest
from websockets.exceptions import ConnectionClosed
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


# Issue 34, the rest: exact errors, recordings as panes, offsets, loops, readouts.

@pytest.mark.parametrize("variants, extra, field, error", [
    ([{}], {}, "variants", "variants must hold 2 to 4 panes (1 given)"),
    ([{}] * 5, {}, "variants", "variants must hold 2 to 4 panes (5 given)"),
    ({}, {}, "variants", "variants must be an array of 2 to 4 panes"),
    ([{}, 3], {}, "variants[1]",
     "pane 2 (variants[1]) must be an object: config overrides, or a recording"),
    ([{}, {}, {"restitution": 2}], {}, "variants[2].restitution",
     "pane 3 (variants[2]): restitution: must be a number from 0 to 1"),
    ([{}, {"recording": 7}], {}, "variants[1].recording",
     "pane 2 (variants[1]): recording must be a session id"),
    ([{}, {"recording": "abc", "restitution": 1}], {}, "variants[1].restitution",
     "pane 2 (variants[1]): a recording takes no config overrides"),
    ([{}, {"offset": 121}], {"ticks": 120}, "variants[1].offset",
     "pane 2 (variants[1]): offset must be an integer from -120 to 120"),
    ([{}, {"offset": 1.5}], {"ticks": 120}, "variants[1].offset",
     "pane 2 (variants[1]): offset must be an integer from -120 to 120"),
    ([{}, {}], {"readouts": ["speed"]}, "readouts",
     "unknown readout speed; bouncing-balls has: energy, momentumX, momentumY, collisions, "
     "ball0X, ball0Y"),
    ([{}, {}], {"readouts": "energy"}, "readouts",
     "readouts must be a list of names of bouncing-balls's readouts: energy, momentumX, "
     "momentumY, collisions, ball0X, ball0Y"),
])
def test_bad_input_is_refused_naming_the_pane_and_field_exactly(playfield, variants, extra, field,
                                                                 error):
    status, _, body = create(playfield, variants, **extra)
    assert (status, body["field"], body["error"]) == (400, field, error), body


def test_an_unknown_override_names_its_pane_and_the_known_fields(playfield):
    status, _, body = create(playfield, [{}, {"wobble": 3}])
    assert status == 400 and body["field"] == "variants[1].wobble", body
    assert body["error"].startswith("pane 2 (variants[1]): wobble: unknown field; known fields: ")
    assert "restitution" in body["error"]


def recorded_holes_run(server, tilts):
    """An on-demand holes session stepped through `tilts` ([(x, y, ticks), ...]); it and its
    frames after each step, by tick."""
    status, _, session = request(server.url + "/api/sessions", "POST",
                                 {"kind": "holes", "clock": "on-demand", "seed": 5,
                                  "config": {"balls": 3}})
    assert status == 201, session
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    frames = {}
    with connect(url, max_size=None) as ws:
        for index, (x, y, ticks) in enumerate(tilts):
            ws.send(json.dumps({"type": "tilt", "x": x, "y": y}))
            ws.send(json.dumps({"type": "step", "count": ticks, "id": f"s{index}"}))
            frame = receive_until(ws, lambda m: m["type"] == "frame" and m.get("id") == f"s{index}",
                                  what="the step's frame")
            frames[frame["tick"]] = frame
    return session, frames


def test_a_recording_pane_replays_a_stored_run_and_one_of_another_kind_is_refused(start_playfield):
    playfield = start_playfield("--compares-per-client", "16")
    session, live = recorded_holes_run(playfield, [(0.6, 0, 30), (0, -0.5, 30)])
    assert sorted(live) == [30, 60]
    ghost = {"recording": session["id"]}
    status, _, group = create(playfield, [ghost, {}], kind="holes", config={"balls": 3},
                              seed=5)
    assert status == 201, group
    # Its length is the stored run's: the last logged input (tick 31) or the stored tick.
    end = group["end"]
    assert 31 <= end <= 60
    assert group["panes"][0]["recording"] == {"session": session["id"], "first": 0, "last": end}
    assert group["panes"][1]["recording"] is None
    assert group["readouts"] == ["ballX", "ballY", "score", "ballsLeft", "level"]
    with socket(playfield, group) as ws:
        ws.send(json.dumps({"type": "step", "count": 30}))
        frames = frames_at(ws, 30)
    assert frames["ticks"] == [30, 30]
    recorded, live_frame = frames["panes"][0], live[30]
    assert recorded == {key: live_frame[key] for key in recorded}, "exactly the live frame"
    assert frames["readouts"][0][:2] == live_frame["ball"]

    # The same run twice never parts.
    status, _, twice = create(playfield, [ghost, ghost], kind="holes", config={})
    assert status == 201, twice
    with socket(playfield, twice) as ws:
        ws.send(json.dumps({"type": "step", "count": 30}))
        seen = []
        frames_at(ws, 30, seen=seen)
    assert not [m for m in seen if m["type"] == "diverged"]

    maze = request(playfield.url + "/api/sessions", "POST", {"kind": "maze", "config": {}})[2]
    for variants, error in (
        ([{}, {"recording": maze["id"]}],
         f"pane 2 (variants[1]): session {maze['id']} is a maze run, not holes"),
        ([{}, {"recording": "nosuchsession"}],
         "pane 2 (variants[1]): no stored session nosuchsession"),
    ):
        status, _, body = create(playfield, variants, kind="holes", config={})
        assert (status, body["field"], body["error"]) == (400, "variants[1].recording", error)


def test_offsets_loops_and_readouts_on_the_socket(start_playfield):
    playfield = start_playfield("--compares-per-client", "16")
    status, _, group = create(playfield, [{}, {"offset": 5}], ticks=100,
                              readouts=["energy", "collisions"])
    assert status == 201, group
    assert [pane["offset"] for pane in group["panes"]] == [0, 5]
    with socket(playfield, group) as ws:
        hello = receive_until(ws, lambda m: m["type"] == "hello")
        assert hello["readouts"] == ["energy", "collisions"] and hello["loop"] is None
        ws.send(json.dumps({"type": "step", "count": 10}))
        frames = frames_at(ws, 10)
        assert frames["ticks"] == [10, 15]
        assert [values[0] for values in frames["readouts"]] == [
            pane["energy"] for pane in frames["panes"]]
        for bad, field in (({"from": 5, "to": 5}, "to"), ({"from": -1, "to": 5}, "from"),
                           ({"from": 5, "to": 101}, "to"), ({"to": 5}, "from")):
            ws.send(json.dumps({"type": "loop", **bad}))
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert (error["field"], error["message"]) == (
                field, "loop from must be below to, both 0 to 100"), error
        ws.send(json.dumps({"type": "loop", "from": 20, "to": 24}))
        ws.send(json.dumps({"type": "play"}))
        seen = []
        frames_at(ws, 24, seen=seen)
        frames_at(ws, 20, seen=seen)
        status_message = [m for m in seen if m["type"] == "status"][-1]
        assert status_message["loop"] == {"from": 20, "to": 24}


def test_a_live_offset_shifts_its_pane_at_the_next_tick(start_playfield):
    playfield = start_playfield("--compares-per-client", "16")
    status, _, group = create(playfield, [{}, {}], ticks=100)
    assert status == 201, group
    with socket(playfield, group) as ws:
        ws.send(json.dumps({"type": "step", "count": 10}))
        before = frames_at(ws, 10)
        assert before["ticks"] == [10, 10] and before["panes"][0] == before["panes"][1]
        for bad, field, message in (
                ({"pane": 2, "value": 1}, "pane", "pane must be a pane's index from 0 to 1"),
                ({"value": 1}, "pane", "pane must be a pane's index from 0 to 1"),
                ({"pane": 1, "value": 101}, "value", "pane 2: offset must be an integer from -100 to 100"),
                ({"pane": 1, "value": 1.5}, "value", "pane 2: offset must be an integer from -100 to 100")):
            ws.send(json.dumps({"type": "offset", **bad}))
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert (error["error"], error["field"], error["message"]) == ("bad-field", field, message)
        ws.send(json.dumps({"type": "offset", "pane": 1, "value": 4}))
        seen = []
        shifted = receive_until(ws, lambda m: m["type"] == "frames" and m["ticks"] == [10, 14],
                                what="the shifted frames", seen=seen)
        assert shifted["tick"] == 10, "applied at the group's tick"
        assert [m for m in seen if m["type"] == "diverged"] == [{"type": "diverged", "tick": 0}]
        told = receive_until(ws, lambda m: m["type"] == "status", what="the status", seen=seen)
        assert told["offsets"] == [0, 4] and told["tick"] == 10
        ws.send(json.dumps({"type": "step", "count": 4}))
        ahead = frames_at(ws, 14)
        assert ahead["panes"][0] == shifted["panes"][1], "pane 2 shows pane 1's future"


def test_an_ambient_pane_loops_on_its_own_and_bad_ones_are_refused(start_playfield):
    playfield = start_playfield("--compares-per-client", "16")
    for ambient, field, error in (
            ({"wobble": 1}, "ambient.wobble", "the ambient pane: wobble: unknown field; known fields: "),
            ({"offset": 3}, "ambient.offset", "the ambient pane takes no offset: it loops on its own"),
            (7, "ambient", "the ambient pane must be an object: config overrides, or a recording"),
            ({"recording": "nosuchsession"}, "ambient.recording",
             "the ambient pane: no stored session nosuchsession")):
        status, _, body = create(playfield, [{}, {}], ambient=ambient)
        assert (status, body["field"]) == (400, field), body
        assert body["error"].startswith(error), body
    status, _, group = create(playfield, [{}, {"restitution": 0.5}], ticks=30,
                              ambient={"balls": 2})
    assert status == 201, group
    assert group["ambient"]["config"]["balls"] == 2 and group["ambient"]["end"] == 30
    with socket(playfield, group) as ws:
        hello = receive_until(ws, lambda m: m["type"] == "hello")
        assert hello["ambient"]["config"]["balls"] == 2 and hello["ambient"]["end"] == 30
        ws.send(json.dumps({"type": "ambient", "playing": True}))
        # The group stands still at tick 0; the ambient pane runs to its end and starts again.
        seen = []
        receive_until(ws, lambda m: m["type"] == "frames" and m.get("ambient", {}).get("tick") == 0
                      and any(s.get("ambient", {}).get("tick", 0) > 20 for s in seen),
                      what="the ambient pane's loop", seen=seen)
        frames = [m for m in seen if m["type"] == "frames"]
        assert all(m["tick"] == 0 for m in frames), "the group does not move"
        ticks = [m["ambient"]["tick"] for m in frames if "ambient" in m]
        assert max(ticks) <= 30 and ticks == sorted(ticks[:-1]) + [0]
        ws.send(json.dumps({"type": "ambient", "playing": "no"}))
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert (error["error"], error["field"]) == ("bad-field", "playing")
        ws.send(json.dumps({"type": "ambient", "playing": False}))
        ws.send(json.dumps({"type": "step", "count": 5}))
        stepped = frames_at(ws, 5)
        assert "ambient" not in stepped, "a viewer that paused it gets the group alone"


def test_a_message_over_the_session_bound_closes_the_socket_unread(start_playfield):
    """A viewer's command is parsed whole on the event loop: past `--session-message-bytes`
    (64 KiB), as on a session socket, its frame's header closes the socket with 1009. Before,
    1 MiB was read and parsed."""
    server = start_playfield()
    status, _, group = create(server, [{}, {"restitution": 0.5}], ticks=120)
    assert status == 201, group
    with socket(server, group) as ws:
        # Within the bound (a real command is under 100 bytes): played.
        ws.send(json.dumps({"type": "step", "count": 5, "pad": "x" * (60 << 10)}))
        frames_at(ws, 5)
        ws.send(json.dumps({"type": "step", "count": 5, "pad": "x" * (70 << 10)}))
        seen = []
        with pytest.raises(ConnectionClosed):
            # The old server played it: the frames of tick 10 came.
            receive_until(ws, lambda m: m["type"] == "frames" and m["tick"] == 10, 20,
                          "the close", seen)
        assert ws.close_code == 1009, (ws.close_code, ws.close_reason)
        assert not [m for m in seen if m["type"] == "frames" and m["tick"] > 5], seen
