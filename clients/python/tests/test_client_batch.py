"""Many on-demand sessions over one connection (`/ws/batch`): the binary reply, and every kind of
bad batch message refused with an error that names it while no session is harmed."""
import json
import struct

import numpy as np
import pytest

from playfield_client import Client, ServerError
from playfield_client.batch import DELETED, STEPPED, Batch


def _holes(client, count, clock="on-demand"):
    return [client.create_session("holes", seed=10 + i, clock=clock) for i in range(count)]


def _delete(client, infos):
    for info in infos:
        client.delete_session(info)


def _error(batch, message):
    """Sends a raw text message; returns the error the server answered it with."""
    text = message if isinstance(message, str) else json.dumps(message)
    batch._socket.send(text)
    with pytest.raises(ServerError) as caught:
        batch._answer(json.loads(text).get("id"))
    return caught.value


def test_one_reply_carries_every_session_and_matches_their_frames(client):
    infos = _holes(client, 3)
    try:
        with Batch(client) as batch:
            assert [batch.attach(info) for info in infos] == [0, 1, 2]
            assert batch.action == {"type": "tilt", "fields": ["x", "y"]}
            assert batch.fields[:8] == ["ballX", "ballY", "ballPresent", "holeRadius", "score",
                                        "ballsLeft", "level", "gameOver"]
            first = batch.step(actions=[[0, 0], [1, 0], [-1, 0.5]])
            assert first.values.shape == (3, len(batch.fields))
            assert first.status.tolist() == [STEPPED] * 3
            ticks = first.ticks.tolist()
            # Per-slot counts, a subset of the slots, in the order asked.
            second = batch.step(actions=[[0.5, 0.5], None], count=[4, 2], slots=[2, 0])
            assert second.ticks.tolist() == [ticks[2] + 4, ticks[0] + 2]
            # The values are the frame's numbers: compare with a controller's own step.
            session = client.connect(infos[1], reconnect=False)
            try:
                # (The ball starts in the bottom-right corner: tilt it up and left.)
                frame = session.step(1, inputs=({"type": "tilt", "x": -1, "y": 1},))
            finally:
                session.close()
            third = batch.step(slots=[1], count=1)
            row = dict(zip(batch.fields, third.values[0]))
            # The socket's step came first; the batch's step is one tick later.
            assert third.ticks[0] == frame.tick + 1
            assert row["ballPresent"] == 1 and row["ballsLeft"] == frame.balls_left
            moved = np.hypot(row["ballX"] - frame.ball[0], row["ballY"] - frame.ball[1])
            assert 0 < moved < 20, "one tick further than the socket's frame"
    finally:
        _delete(client, infos)


def test_bad_batch_messages_are_refused_by_name_and_harm_no_session(client):
    infos = _holes(client, 2)
    realtime = client.create_session("holes", clock="realtime")
    balls = client.create_session("bouncing-balls", clock="on-demand")
    try:
        with Batch(client) as batch:
            for info in infos:
                batch.attach(info)
            before = batch.step(actions=[[0.25, 0], [0, 0.25]])
            cases = [
                # (message, code, words in the message)
                ({"type": "attach", "id": 1, "session": infos[0].id, "token": "x" * 32},
                 "not-controller", "does not control"),
                ({"type": "attach", "id": 2, "session": "nosuchsession", "token": "t"},
                 "unknown-session", "no session"),
                ({"type": "attach", "id": 3, "session": realtime.id, "token": realtime.token},
                 "realtime", "on-demand"),
                ({"type": "attach", "id": 4, "session": balls.id, "token": balls.token},
                 "no-batch", "bouncing-balls"),
                ({"type": "attach", "id": 5, "session": infos[0].id, "token": infos[0].token},
                 "already-attached", infos[0].id),
                ({"type": "step", "id": 6, "slots": [0, 7]}, "unknown-slot", "slots[1]"),
                ({"type": "step", "id": 7, "slots": [1, 1]}, "bad-field", "twice"),
                ({"type": "step", "id": 8, "actions": [[0.1]]}, "bad-field", "one action per slot"),
                ({"type": "step", "id": 9, "actions": [[0.1], [0, 0]]}, "bad-field", "actions[0]"),
                ({"type": "step", "id": 10, "actions": [[0, 0], [3, 0]]}, "bad-field", "actions[1]"),
                ({"type": "step", "id": 11, "actions": [[0, 0], ["a", 0]]}, "bad-field", "numbers"),
                ({"type": "step", "id": 12, "count": 0}, "bad-field", "count"),
                ({"type": "step", "id": 13, "count": [1]}, "bad-field", "count"),
                ({"type": "step", "id": 14, "inputs": [[0, {"type": "fly"}]]}, "unknown-type", "fly"),
                ({"type": "step", "id": 15, "inputs": [[0, {"type": "tilt", "x": 9, "y": 0}]]},
                 "bad-field", "inputs[0]"),
                ({"type": "step", "id": 16, "slots": [0], "inputs": [[1, {"type": "reset"}]]},
                 "unknown-slot", "not stepped"),
                ({"type": "step", "id": 17, "action": [[0, 0], [0, 0]]}, "bad-field", "unknown field"),
                ({"type": "step", "id": -1}, "bad-field", "id"),
                ({"type": "jump", "id": 18}, "unknown-type", "jump"),
            ]
            for message, code, words in cases:
                error = _error(batch, message)
                assert (error.code, message) == (code, message), error.message
                assert words in error.message, (message, error.message)
            # NaN and infinity are not JSON numbers: the message is unreadable as a whole.
            for text in ('{"type": "step", "id": 19, "actions": [[NaN, 0], [0, 0]]}',
                         '{"type": "step", "id": 20, "actions": [[1e999, 0], [0, 0]]}'):
                batch._socket.send(text)
                with pytest.raises(ServerError) as caught:
                    batch._answer(None)
                assert caught.value.code == "bad-json", caught.value.message
            # Nothing was stepped or logged: the next step is the first after `before`.
            after = batch.step(actions=[[0, 0], [0, 0]])
            assert after.ticks.tolist() == (before.ticks + 1).tolist()
            assert after.status.tolist() == [STEPPED, STEPPED]
        for info in infos:
            logged = client.inputs(info)
            tilts = [entry for entry in logged["inputs"] if entry["input"]["type"] == "tilt"]
            assert len(tilts) == 2, logged
    finally:
        _delete(client, [*infos, realtime, balls])


def test_a_binary_step_is_the_text_step_bit_for_bit(client):
    binary_infos, text_infos = _holes(client, 3), _holes(client, 3)
    generator = np.random.default_rng(5)
    try:
        with Batch(client) as binary, Batch(client) as text:
            for info in binary_infos:
                binary.attach(info)
            for info in text_infos:
                text.attach(info)
            sent = []
            for _ in range(30):
                actions = generator.uniform(-2, 2, (3, 2)).astype(np.float32)
                count = int(generator.integers(1, 4))
                # Every slot, an action each, one count: binary. Slots listed: text.
                one = binary.step(actions=actions, count=count)
                other = text.step(actions=actions, count=count, slots=[0, 1, 2])
                assert one.ticks.tolist() == other.ticks.tolist()
                assert one.values.tobytes() == other.values.tobytes()
                sent.append(one.request)
            assert len(set(sent)) == 30, "each binary reply carries its own request's id"
        for one, other in zip(binary_infos, text_infos):
            assert client.inputs(one)["inputs"] == client.inputs(other)["inputs"]
    finally:
        _delete(client, [*binary_infos, *text_infos])


def test_bad_binary_steps_are_refused_by_name_and_harm_no_session(client):
    infos = _holes(client, 2)
    try:
        with Batch(client) as batch:
            for info in infos:
                batch.attach(info)
            before = batch.step(actions=np.array([[0.25, 0], [0, 0.25]]))

            def step(request, n, count, rows, magic=b"PFS1"):
                return struct.pack("<4sIII", magic, request, n, count) + np.asarray(
                    rows, "<f8").tobytes()

            good = [[0.5, 0], [0, 0.5]]
            cases = [
                # (message, its id or None, code, words in the message)
                (b"PFS1", None, "bad-message", "16 bytes"),
                (step(1, 2, 1, good, magic=b"PFX1"), None, "bad-message", "PFS1"),
                (step(2, 3, 1, good), 2, "bad-field", "every attached session (2)"),
                (step(3, 2, 0, good), 3, "bad-field", "count"),
                (step(4, 2, 601, good), 4, "bad-field", "count"),
                (step(5, 2, 1, good)[:-8], 5, "bad-message", "48 bytes"),
                (step(6, 2, 1, [[0, 0], [3, 0]]), 6, "bad-field", "actions[1]"),
                (step(7, 2, 1, [[float("nan"), 0], [0, 0]]), 7, "bad-field", "actions[0]"),
                (step(8, 2, 1, [[0, float("-inf")], [0, 0]]), 8, "bad-field", "actions[0]"),
            ]
            for message, request, code, words in cases:
                batch._socket.send_binary(message)
                with pytest.raises(ServerError) as caught:
                    batch._answer(request)
                assert (caught.value.code, request) == (code, request), caught.value.message
                assert words in caught.value.message, (request, caught.value.message)
            after = batch.step(actions=np.array([[-0.25, 0], [0, -0.25]]))
            assert after.ticks.tolist() == (before.ticks + 1).tolist(), "nothing stepped"
        for n, info in enumerate(infos):
            tilts = [(e["input"]["x"], e["input"]["y"]) for e in client.inputs(info)["inputs"]
                     if e["input"]["type"] == "tilt"]
            assert tilts == ([(0.25, 0), (-0.25, 0)] if n == 0 else [(0, 0.25), (0, -0.25)])
    finally:
        _delete(client, infos)


def test_a_deleted_session_is_reported_and_the_others_step(client):
    infos = _holes(client, 2)
    try:
        with Batch(client) as batch:
            for info in infos:
                batch.attach(info)
            before = batch.step()
            client.delete_session(infos[0])
            reply = batch.step()
            assert reply.status.tolist() == [DELETED, STEPPED]
            assert reply.ticks[1] == before.ticks[1] + 1
    finally:
        _delete(client, infos[1:])


def test_the_limits_of_a_connection_and_a_message(start_server):
    server = start_server(args=("--batch-sessions-per-connection", "3",
                                "--batch-sessions-per-message", "2"))
    client = Client(server.url)
    infos = _holes(client, 4)
    with Batch(client) as batch:
        for info in infos[:3]:
            batch.attach(info)
        error = _error(batch, {"type": "attach", "id": 1, "session": infos[3].id,
                               "token": infos[3].token})
        assert error.code == "too-many" and "--batch-sessions-per-connection" in error.message
        error = _error(batch, {"type": "step", "id": 2})
        assert error.code == "too-many" and "--batch-sessions-per-message" in error.message
        error = _error(batch, {"type": "step", "id": 3, "slots": [0, 1, 2]})
        assert error.code == "too-many" and "not 3" in error.message
        reply = batch.step(slots=[2, 0])
        assert reply.status.tolist() == [STEPPED, STEPPED]


def test_a_reply_says_up_to_which_tick_each_sessions_inputs_are_stored(client):
    import time
    infos = _holes(client, 2)
    try:
        with Batch(client) as batch:
            for info in infos:
                batch.attach(info)
            acted = batch.step(actions=[[0.5, 0], None])
            assert (acted.stored <= acted.ticks).all()
            # Steps without actions log nothing: once the writer has committed the first step's
            # input (every 250 ms), each session's watermark is its tick.
            deadline = time.monotonic() + 10
            while True:
                reply = batch.step()
                if (reply.stored == reply.ticks).all():
                    break
                assert time.monotonic() < deadline, (reply.ticks, reply.stored)
                time.sleep(0.05)
            assert reply.stored[0] >= acted.ticks[0]
            # The tilt is in the log the database holds.
            logged = [row["input"] for row in client.inputs(infos[0])["inputs"]]
            assert {"type": "tilt", "x": 0.5, "y": 0} in logged, logged
    finally:
        _delete(client, infos)
