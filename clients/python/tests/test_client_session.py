"""Session: every command and input over the real channel, typed messages, errors with the
server's text, spectators refused, reconnects, for the blocking and the asyncio API."""
import asyncio
import json
import time

import pytest
from deadline import Deadline

from playfield_client import (AsyncClient, AsyncSession, BallsFrame, Client, Disconnected,
                              Event, Hello, HolesFrame, MazeFrame, NotController, PlayfieldError,
                              ServerError, Session, SessionEnded, Status, TagCloudFrame)


@pytest.fixture
def maze(client):
    info = client.create_session("maze", seed=1)
    with client.connect(info) as session:
        session.stop()
        yield session
    client.delete_session(info)


def events(session, name):
    """The events called `name` among the messages already received. `step()` returns only
    once the events of its ticks are in (their `ack` comes after them), so nothing is waited
    for here: an event missing now would be the bug."""
    found = []
    while session.pending():
        message = session.receive(timeout=1)
        if isinstance(message, Event) and message.name == name:
            found.append(message)
    return found


def test_a_controller_gets_hello_and_steps_frame_by_frame(maze):
    assert isinstance(maze.hello, Hello)
    assert maze.role == "controller" and maze.kind == "maze" and maze.hello.is_controller
    assert maze.hello.rate == 60 and maze.hello.data["rows"] == 12
    assert maze.running is False
    start = maze.tick
    frame = maze.step()
    assert isinstance(frame, MazeFrame) and frame.tick == start + 1
    frame = maze.step(30)
    assert frame.tick == start + 31 and maze.tick == frame.tick
    assert frame.t == pytest.approx(frame.tick / 60, abs=1e-4)
    # Every stepped frame is delivered, in order, to iteration too.
    maze.clear()
    maze.step(3)
    seen = []
    while maze.pending():
        message = maze.receive()
        if isinstance(message, MazeFrame):
            seen.append(message.tick)
    assert seen == [frame.tick + 1, frame.tick + 2, frame.tick + 3]


def test_step_sends_its_inputs_first(maze):
    frame = maze.step(30, inputs=[{"type": "tilt", "x": 1, "y": 0}])
    assert frame.tilt == (1, 0) and frame.ball[0] > 180
    # A refused input is raised once the step (which still runs) has come back.
    with pytest.raises(ServerError) as refused:
        maze.step(5, inputs=[{"type": "tilt", "x": 0, "y": -3}, {"type": "toggle", "row": 0}])
    assert refused.value.field == "y"
    assert maze.tick == frame.tick + 5
    assert maze.step().tick == frame.tick + 6
    # The second refusal was not lost: it waits for the reader.
    with pytest.raises(ServerError) as second:
        deadline = Deadline(10, "the refusal")
        while True:
            maze.receive(timeout=deadline.left())
    assert second.value.field == "col"


def test_start_and_stop_switch_the_session(maze):
    maze.start()
    assert maze.running is True
    first = maze.receive(timeout=5)
    later = [maze.receive(timeout=5) for _ in range(10)]
    assert any(isinstance(m, MazeFrame) and m.tick > getattr(first, "tick", 0) for m in later)
    with pytest.raises(PlayfieldError, match="stopped session"):
        maze.step()
    maze.stop()
    assert maze.running is False and maze.status.running is False
    # A default maze is never over its share of the tick budget.
    assert maze.status.budget.throttled is False and maze.status.budget.every == 1
    assert maze.step().tick == maze.tick


def test_maze_inputs_change_the_maze_and_roll_the_ball(maze):
    maze.clear()
    maze.toggle(2, 3)
    frame = maze.step()
    assert frame.revision == 1
    [changed] = events(maze, "maze")
    assert changed["cells"][2][3] == "#" and changed["revision"] == 1
    maze.load(["#" * 12] + ["." * 12] * 11)
    maze.clear_maze()
    frame = maze.step()
    assert frame.revision == 3
    assert all(set(row) == {"."} for row in events(maze, "maze")[-1]["cells"])
    maze.tilt(1, 0)
    frame = maze.step(30)
    assert frame.tilt == (1, 0) and frame.ball[0] > 180
    maze.reset()
    frame = maze.step()
    assert frame.ball == (180, 180) and frame.tilt == (0, 0)


def test_holes_inputs(client):
    info = client.create_session("holes")
    with client.connect(info) as holes:
        holes.stop()
        holes.tilt(-1, 1)
        frame = holes.step(20)
        assert isinstance(frame, HolesFrame)
        assert frame.ball[0] < 305 and frame.ball[1] < 465
        assert len(frame.holes) == 5 and frame.balls_left == 3 and frame.phase == "playing"
        holes.restart()
        holes.step()
        [reset] = events(holes, "reset")
        assert reset["hello"]["balls"] == 3
    client.delete_session(info)


def test_bouncing_balls_inputs(client):
    info = client.create_session("bouncing-balls", {"balls": 2, "radiusMin": 5, "radiusMax": 20})
    with client.connect(info) as balls:
        balls.stop()
        balls.add_ball(100, 100, vx=50, vy=-20, radius=12, mass=3)
        frame = balls.step()
        assert isinstance(frame, BallsFrame) and frame.count == 3
        [added] = events(balls, "ball-added")
        assert added["index"] == 2 and added["radius"] == 12
        balls.throw(0, 0, 0)
        balls.throw(1, 0, 0)
        balls.throw(2, 0, 0)
        before = balls.step().positions
        assert balls.step(5).positions == before
        balls.throw(7, 10, 10)
        balls.step()
        [rejected] = events(balls, "input-rejected")
        assert "7" in rejected["reason"] or "ball" in rejected["reason"]
        balls.reset()
        assert balls.step().count == 2
    client.delete_session(info)


def test_tag_cloud_inputs(client):
    info = client.create_session("tag-cloud", {"tags": ["a", "b", "c"]})
    with client.connect(info) as cloud:
        cloud.stop()
        cloud.drag(40, -10)
        frame = cloud.step()
        assert isinstance(frame, TagCloudFrame) and frame.dragging and len(frame.points) == 3
        cloud.release()
        assert cloud.step().dragging is False
        cloud.set_tags(["x", {"text": "y", "weight": 2, "url": "/demos/maze"}])
        frame = cloud.step()
        assert len(frame.order) == 2
        [tags] = events(cloud, "tags")
        assert [t["text"] for t in tags["tags"]] == ["x", "y"]
    client.delete_session(info)


@pytest.mark.parametrize("call, code, field, words", [
    (lambda s: s.tilt(5, 0), "bad-field", "x", "x: must be a number from -2 to 2"),
    (lambda s: s.toggle(99, 0), "bad-field", "row", "row"),
    (lambda s: s.send({"type": "step", "count": 601}), "bad-field", "count",
     "count must be an integer from 1 to 600"),
    (lambda s: s.add_ball(1, 1), "unknown-type", "type", 'unknown message type "add-ball" for maze'),
    (lambda s: s.send({"type": "tilt", "x": 0, "y": 0, "z": 1}), "bad-field", "z", "z"),
    (lambda s: s.send({"type": "load", "cells": 5}), "bad-field", "cells", "cells"),
])
def test_refused_inputs_raise_the_servers_error(maze, call, code, field, words):
    with pytest.raises(ServerError) as refused:
        call(maze)
    assert refused.value.code == code
    if field:
        assert refused.value.field == field
    assert words in refused.value.message and words in str(refused.value)
    # The stream goes on.
    assert maze.step().tick == maze.tick


def test_bad_python_values_are_refused_before_sending(maze):
    with pytest.raises(ValueError):
        maze.tilt("left", 0)
    with pytest.raises(TypeError):
        maze.send({"kind": "tilt"})
    with pytest.raises(TypeError):
        maze.step(1.5)
    for count in (0, 601):
        with pytest.raises(ValueError, match="count must be an integer from 1 to 600"):
            maze.step(count)
    with pytest.raises(ValueError):
        maze.send({"type": "tilt", "x": float("nan"), "y": 0})
    with pytest.raises(ValueError):
        Session.connect("http://127.0.0.1:1/api/sessions/x")


def test_an_unconfirmed_error_is_raised_by_iteration(maze):
    maze.tilt(9, 9, confirm=False)
    with pytest.raises(ServerError) as refused:
        for _ in range(50):
            maze.receive(timeout=5)
    assert refused.value.field == "x"


def test_a_confirmed_command_waits_for_its_own_ack_and_leaves_other_errors(maze):
    """A confirmed command carries a request id and waits for that id's `ack` (no `ping`):
    the refusal of an input sent before it unconfirmed is not taken for its own (issue 36,
    item 12; the old client confirmed with a ping and raised the earlier input's error here)."""
    sent = []
    inner = maze._inner
    original = inner._send_text

    async def spy(socket, text):
        sent.append(json.loads(text))
        await original(socket, text)

    inner._send_text = spy
    maze.tilt(9, 9, confirm=False)       # refused by the server, no id
    maze.tilt(0.5, 0)                    # accepted: returns once its ack is in
    assert [m["type"] for m in sent] == ["tilt", "tilt"]
    assert "id" not in sent[0] and isinstance(sent[1]["id"], str)
    with pytest.raises(ServerError) as own:
        maze.tilt(0, 5)
    assert own.value.field == "y" and own.value.id == sent[2]["id"]
    # The first tilt's refusal waits for the reader; no ack is left for it.
    later = []
    with pytest.raises(ServerError) as earlier:
        deadline = Deadline(10, "the earlier refusal")
        while True:
            later.append(maze.receive(timeout=deadline.left()))
    assert earlier.value.field == "x" and earlier.value.id is None
    assert not [m for m in later if isinstance(m, dict) and m.get("type") == "ack"]
    assert maze.step().tilt == (0.5, 0)


def test_a_confirmed_step_or_query_is_confirmed_by_its_own_answer(client):
    """Commands with no `ack`: an on-demand `step` is answered by its frame (which carries the
    id, and stays for iteration), a query by its `answer`."""
    info = client.create_session("maze", seed=2, clock="on-demand")
    try:
        with client.connect(info, timeout=5) as session:
            session.send({"type": "step", "count": 2})
            assert session.tick == 2
            frames = []
            while session.pending():
                message = session.receive(timeout=1)
                if isinstance(message, MazeFrame):
                    frames.append(message.tick)
            assert frames[-1] == 2
    finally:
        client.delete_session(info)
    info = client.create_session("street-soccer", {"away": "human"}, seed=2, clock="on-demand")
    try:
        with client.connect(info, timeout=5) as session:
            session.send({"type": "plan", "side": "home", "moves": []})
            assert session.ask({"type": "plan", "side": "home", "moves": []})["legal"]
    finally:
        client.delete_session(info)


def test_a_spectator_is_refused_control(client):
    info = client.create_session("maze")
    with client.connect(info.id) as spectator:
        assert spectator.role == "spectator" and not spectator.hello.is_controller
        for call in (lambda: spectator.tilt(0.5, 0), spectator.stop, spectator.start,
                     lambda: spectator.send({"type": "step"}), spectator.reset):
            with pytest.raises(NotController) as refused:
                call()
            assert refused.value.code == "not-controller"
            assert "spectators cannot send" in refused.value.message
        # A malformed input gets the error about the input, not about the role.
        with pytest.raises(ServerError) as malformed:
            spectator.tilt(7, 0)
        assert malformed.value.code == "bad-field"
        assert spectator.ping() > 0
        frames = [m for m in (spectator.receive(timeout=5) for _ in range(5)) if isinstance(m, MazeFrame)]
        assert frames, "a spectator still watches"
    client.delete_session(info)


def test_unknown_sessions_and_wrong_tokens_are_refused(client):
    with pytest.raises(SessionEnded):
        client.connect("A" * 22)
    info = client.create_session("maze")
    with pytest.raises(PlayfieldError) as wrong:
        client.connect(info.id, token="B" * 22)
    assert "403" in str(wrong.value)
    client.delete_session(info)
    with pytest.raises(Disconnected):
        Session.connect("ws://127.0.0.1:9/ws/sessions/x", timeout=2)


def test_deleting_the_session_ends_iteration_for_good(client):
    info = client.create_session("maze")
    session = client.connect(info)
    client.delete_session(info)
    with pytest.raises(SessionEnded, match="deleted"):
        deadline = Deadline(30, "the end of the session")
        while True:
            session.receive(timeout=deadline.left())
    with pytest.raises(SessionEnded):
        session.tilt(0, 0)
    session.close()


def test_reconnects_and_resumes_after_the_server_restarts(start_server):
    first = start_server()
    client = Client(first.url)
    info = client.create_session("maze", seed=5)
    session = client.connect(info, retry_for=30)
    session.stop()
    session.toggle(0, 0)
    frame = session.step(10)
    first.stop()
    # The connection drops; the server comes back on the same port with the same database.
    again = start_server(port=first.port, database=first.database)
    seen, deadline = [], Deadline(60, "hello after the restart")
    while not any(isinstance(m, Hello) for m in seen):
        seen.append(session.receive(timeout=deadline.left()))
    hello = next(m for m in seen if isinstance(m, Hello))
    assert hello.session == info.id and hello.role == "controller"
    assert hello.data["cells"][0][0] == "#"
    assert session.tick == hello.tick and hello.tick <= frame.tick
    # Control resumed: commands work on the new connection.
    session.stop()
    assert session.step(2).tick == session.tick
    session.close()
    Client(again.url).delete_session(info)


def test_reconnect_by_hand_starts_afresh_with_hello(maze):
    maze.step(3)
    maze.clear()
    hello = maze.reconnect()
    assert isinstance(hello, Hello) and hello.tick == maze.tick and maze.connected
    assert maze.receive(timeout=5) == hello
    assert maze.step().tick == hello.tick + 1


def test_a_command_reconnects_first_when_the_connection_dropped(start_server):
    first = start_server()
    client = Client(first.url)
    info = client.create_session("holes")
    session = client.connect(info, retry_for=30)
    first.stop()
    start_server(port=first.port, database=first.database)
    session.stop()
    assert session.running is False and session.connected
    session.close()


def test_without_reconnecting_a_drop_is_raised(start_server):
    first = start_server()
    client = Client(first.url)
    info = client.create_session("maze")
    session = client.connect(info, reconnect=False)
    first.stop()
    with pytest.raises(Disconnected):
        deadline = Deadline(30, "the end of the session")
        while True:
            session.receive(timeout=deadline.left())
    with pytest.raises(Disconnected):
        session.stop()
    session.close()


def test_the_asyncio_api_is_the_same(server):
    async def run():
        client = AsyncClient(server.url)
        info = await client.create_session("maze", seed=9)
        assert info.id in {s.id for s in await client.sessions()}
        async with await client.connect(info) as session:
            assert isinstance(session, AsyncSession)
            await session.stop()
            await session.tilt(0, 1)
            frame = await session.step(20)
            assert frame.ball[1] < 180
            with pytest.raises(ServerError) as refused:
                await session.tilt(0, 3)
            assert refused.value.field == "y"
            kinds = set()
            async for message in session:
                kinds.add(type(message))
                if not session.pending():
                    break
            assert MazeFrame in kinds and Status in kinds
        assert (await client.state(info.id))["tick"] == frame.tick
        await client.delete_session(info)
    asyncio.run(run())


def test_messages_keep_the_whole_json(maze):
    frame = maze.step()
    assert frame.data["type"] == "frame" and frame.data["tick"] == frame.tick
    assert json.loads(json.dumps(frame.data))["ball"] == list(frame.ball)


def test_session_and_async_session_are_one_api():
    """`Session`'s methods are written out (typed, no `setattr`); each has its `AsyncSession`
    twin's parameters, and neither class has a public method the other lacks."""
    import inspect

    def public(cls):
        return {name: member for name, member in vars(cls).items()
                if not name.startswith("_") and callable(member)}

    blocking, asynchronous = public(Session), public(AsyncSession)
    assert set(blocking) == set(asynchronous)
    for name, method in blocking.items():
        if name == "connect":
            continue
        assert inspect.signature(method) == inspect.signature(asynchronous[name]), name


def test_flush_waits_until_every_input_sent_is_in_the_stored_log(client):
    info = client.create_session("maze", seed=1)
    try:
        with client.connect(info) as session:
            session.stop()
            assert session.flush(timeout=5) == 0  # nothing sent: answered at once
            for x in (0.25, 0.5, 0.75):
                session.tilt(x, 0)
            session.step()  # a stopped session applies its inputs at the step
            assert session.flush(timeout=5) == 3
            assert session.stored == 3
            # The log read from the database (not from memory) has every one of them.
            logged = [row["input"] for row in client.inputs(info)["inputs"]]
            assert [row.get("x") for row in logged if row["type"] == "tilt"] == [0.25, 0.5, 0.75]
            # A tilt waiting for a step is not stored: flush says so within its bound.
            session.tilt(1, 0)
            with pytest.raises(TimeoutError):
                session.flush(timeout=0.5)
            session.step()
            assert session.flush(timeout=5) == 4
    finally:
        client.delete_session(info)

