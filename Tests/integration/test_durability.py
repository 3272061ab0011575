"""Sessions in SQLite: kill -9, SIGTERM, exact replays, high scores, saved mazes, faults."""
import asyncio
import json
import os
import random
import signal
import sqlite3
import time

import pytest
from websockets.asyncio.client import connect

from deadline import receive_one, receive_until_async, wait_until
from helpers import create_session, drain, request

def session_kinds(server):
    """Every session demo's kind, as the server lists them (`/api/demos`)."""
    demos = request(server.url + "/api/demos")[2]["demos"]
    return [demo["name"] for demo in demos if demo["session"]]


def inputs_for(kind, rng):
    """A few valid inputs for a kind (a kind this test does not know gets `reset`, which every
    model takes)."""
    if kind == "bouncing-balls":
        return [{"type": "add-ball", "x": rng.uniform(50, 250), "y": rng.uniform(50, 250),
                 "vx": rng.uniform(-3, 3), "vy": rng.uniform(-3, 3)}]
    if kind == "maze":
        return [{"type": "toggle", "row": rng.randrange(12), "col": rng.randrange(12)},
                {"type": "tilt", "x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1)}]
    if kind == "holes":
        return [{"type": "tilt", "x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1)}]
    if kind == "tag-cloud":
        return [{"type": "drag", "dx": rng.uniform(-30, 30), "dy": rng.uniform(-30, 30)}, {"type": "release"}]
    if kind == "paintbrush":
        points = [round(rng.uniform(0, 600), 1) for _ in range(6)]
        return [{"type": "stroke", "author": "durability", "stroke": rng.randrange(1 << 20),
                 "color": "#ff0000", "radius": 4, "points": points}]
    return [{"type": "reset"}]


async def drive(server, sessions, seconds, rng, flush=False):
    """Sends inputs to every session for a while; returns how many each got. With `flush`, it
    waits (bounded) until the server says every one of them is durably stored (`flush`, whose
    `stored` answer covers them: docs/protocol.md), as a crash test must before its kill: the
    write-behind's quarter second is longer on a busy machine."""
    sent = {s["id"]: 0 for s in sessions}
    sockets = [await connect(f"{server.ws_url}/ws/sessions/{s['id']}?token={s['token']}", max_queue=None)
               for s in sessions]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for session, ws in zip(sessions, sockets):
            for message in inputs_for(session["kind"], rng):
                await ws.send(json.dumps(message))
                sent[session["id"]] += 1
        await asyncio.sleep(0.1)
    if flush:
        for ws in sockets:
            await ws.send(json.dumps({"type": "flush", "id": "driven"}))
    for session, ws in zip(sessions, sockets):
        if flush:
            seen = []
            stored = await receive_until_async(ws, lambda m: m.get("id") == "driven", 30,
                                               f"the {session['kind']} session's inputs stored", seen)
            errors = [m for m in seen if m["type"] == "error"]
            assert stored["type"] == "stored" and stored["inputs"] == sent[session["id"]], (stored, errors)
        else:
            errors = [m for m in await drain(ws, 0.05) if m["type"] == "error"]
        assert not errors, errors
        await ws.close()
    return sent


async def exact_state(server, session):
    """Stops the session and returns (tick, live hash, hash of a replay from tick 0)."""
    async with connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}") as ws:
        # A joiner gets `status` at once; a stop takes effect at the next tick, and the
        # `status` saying so follows (an on-demand session is stopped already).
        joined = await receive_until_async(ws, lambda m: m["type"] == "status", 10, "the joiner's status")
        await ws.send(json.dumps({"type": "stop"}))
        if joined["running"]:
            await receive_until_async(ws, lambda m: m["type"] == "status" and m["running"] is False,
                                      10, "the status of the stopped session")
    status, _, live = request(f"{server.url}/api/sessions/{session['id']}/state")
    assert status == 200 and live["running"] is False
    status, _, replayed = request(f"{server.url}/api/sessions/{session['id']}/replay?tick={live['tick']}")
    assert status == 200, replayed
    assert replayed["tick"] == live["tick"]
    return live["tick"], live["stateHash"], replayed["stateHash"]


@pytest.mark.slow
def test_fifty_sessions_survive_kill_9(start_playfield):
    rng = random.Random(5)
    # NB: one client drives all fifty at once, so it may hold them all live.
    places = ("--sessions-per-client", "64")
    server = start_playfield(*places)
    kinds = session_kinds(server)
    sessions = [create_session(server, kinds[i % len(kinds)]) for i in range(50)]
    sent = asyncio.run(drive(server, sessions, 2.0, rng, flush=True))
    time.sleep(1.2)  # more than the one second of progress a crash may lose
    before = {s["id"]: s["tick"] for s in request(server.url + "/api/sessions")[2]["sessions"]}
    server.stop(signal.SIGKILL)

    again = start_playfield(*places, database=server.database)
    listed = {s["id"]: s for s in request(again.url + "/api/sessions")[2]["sessions"]}
    assert set(before) <= set(listed), "every session is listed after the restart"
    for session in sessions:
        resumed = listed[session["id"]]
        assert resumed["tick"] >= before[session["id"]] - 60, (session["kind"], resumed["tick"], before[session["id"]])
        logged = request(f"{again.url}/api/sessions/{session['id']}/inputs", headers={"Authorization": "Bearer " + session["token"]})[2]["inputs"]
        assert len(logged) == sent[session["id"]], "every input the server said was stored is kept"

    async def check_all():
        for session in sessions:
            tick, live, replayed = await exact_state(again, session)
            assert live == replayed, f"{session['kind']} at tick {tick}: resumed {live} != uninterrupted {replayed}"
    asyncio.run(check_all())


def test_sigterm_flushes_everything(start_playfield):
    rng = random.Random(8)
    server = start_playfield()
    sessions = [create_session(server, kind) for kind in session_kinds(server)]
    sent = asyncio.run(drive(server, sessions, 0.5, rng))
    assert server.stop(signal.SIGTERM) == 0
    again = start_playfield(database=server.database)
    for session in sessions:
        logged = request(f"{again.url}/api/sessions/{session['id']}/inputs", headers={"Authorization": "Bearer " + session["token"]})[2]["inputs"]
        assert len(logged) == sent[session["id"]]


@pytest.mark.slow
def test_replay_is_bit_exact_while_live(playfield):
    rng = random.Random(3)
    for kind in session_kinds(playfield):
        session = create_session(playfield, kind)
        asyncio.run(drive(playfield, [session], 1.0, rng))
        tick, live, replayed = asyncio.run(exact_state(playfield, session))
        assert tick > 30
        assert live == replayed, kind


def test_replay_channel_plays_seeks_and_reports(playfield):
    session = create_session(playfield, "maze")
    asyncio.run(drive(playfield, [session], 1.0, random.Random(4)))
    tick, live, _ = asyncio.run(exact_state(playfield, session))

    async def run():
        async with connect(f"{playfield.ws_url}/ws/replays/{session['id']}") as ws:
            hello = await receive_one(ws)
            assert hello["type"] == "hello" and hello["mode"] == "replay" and hello["end"] >= tick
            await ws.send(json.dumps({"type": "speed", "value": 8}))
            await ws.send(json.dumps({"type": "speed", "value": 9}))
            await ws.send(json.dumps({"type": "seek", "tick": 10}))
            # Answered in order: the refused speed at once, then it plays on from tick 10.
            messages = []
            await receive_until_async(ws, lambda m: m["type"] == "frame" and m["tick"] > 10, 20,
                                      "a frame past the seek", messages)
            errors = [m for m in messages if m["type"] == "error"]
            assert [e["field"] for e in errors] == ["value"]
            statuses = [m for m in messages if m["type"] == "status"]
            assert statuses[-1]["speed"] == 8
            await ws.send(json.dumps({"type": "pause"}))
            await ws.send(json.dumps({"type": "seek", "tick": 5}))
            await receive_until_async(ws, lambda m: m["type"] == "frame" and m["tick"] == 5, 20, "the frame of tick 5")
            # Paused, it stays there.
            paused = [m for m in await drain(ws, 0.5) if m["type"] == "frame"]
            assert all(m["tick"] == 5 for m in paused), paused
    asyncio.run(run())


def steer_into_holes(server, session):
    """Plays holes fast (stopped, stepping) by tilting at the nearest hole until game over."""
    async def run():
        async with connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}") as ws:
            await ws.send(json.dumps({"type": "stop"}))
            frame = None
            for n in range(400):
                # Each step's ack comes after its ticks' frames and events: steered from its last frame.
                seen = []
                if n:
                    answer = await receive_until_async(
                        ws, lambda m: m["type"] in ("ack", "error") and m.get("id") == n - 1, 30, "the step's ack", seen)
                    assert answer["type"] == "ack", answer
                for m in seen:
                    if m["type"] == "frame":
                        frame = m
                    if m["type"] == "event" and m["name"] == "game-over":
                        return m
                if frame and frame["ball"]:
                    bx, by = frame["ball"]
                    holes = list(zip(frame["holes"][::2], frame["holes"][1::2]))
                    hx, hy = min(holes, key=lambda h: (h[0] - bx) ** 2 + (h[1] - by) ** 2)
                    tilt = {"type": "tilt", "x": max(-1, min(1, (hx - bx) / 20)), "y": max(-1, min(1, (by - hy) / 20))}
                    await ws.send(json.dumps(tilt))
                await ws.send(json.dumps({"type": "step", "count": 20, "id": n}))
            raise AssertionError("no game over")
    return asyncio.run(run())


def test_high_scores_and_mazes_survive_a_restart(start_playfield):
    server = start_playfield()
    session = create_session(server, "holes")
    over = steer_into_holes(server, session)
    entry = {"session": session["id"], "token": session["token"], "name": "Ada <b>&"}
    status, _, answer = request(server.url + "/api/highscores", "POST", entry)
    assert status == 201, answer
    assert answer["score"] == over["score"] and answer["level"] == over["level"]
    assert request(server.url + "/api/highscores", "POST", entry)[0] == 409, "a game counts once"
    bad = dict(entry, token="wrong")
    assert request(server.url + "/api/highscores", "POST", bad)[0] == 403
    assert request(server.url + "/api/highscores", "POST", dict(entry, name=""))[0] in (400, 409)

    cells = ["#..........#"] + ["............"] * 10 + ["#..........#"]
    assert request(server.url + "/api/mazes/corners", "PUT", {"cells": cells})[0] == 200
    assert request(server.url + "/api/mazes/bad", "PUT", {"cells": ["#?"]})[0] == 400
    assert request(server.url + "/api/mazes/%00", "PUT", {"cells": cells})[0] == 400
    server.stop(signal.SIGKILL)

    again = start_playfield(database=server.database)
    scores = request(again.url + "/api/highscores")[2]["scores"]
    assert [s["name"] for s in scores] == ["Ada <b>&"]
    assert scores[0]["session"] == session["id"], "each score keeps its run (a compare ghost)"
    status, _, maze = request(again.url + "/api/mazes/corners")
    assert status == 200 and maze["cells"] == cells
    assert [m["name"] for m in request(again.url + "/api/mazes")[2]["mazes"]] == ["corners"]


def test_a_corrupt_database_is_reported_and_survived(start_playfield, tmp_path):
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not a database" * 100)
    server = start_playfield(database=str(path))
    status, _, health = request(server.url + "/healthz")
    assert status == 200 and health["storage"] == "off"
    session = create_session(server, "maze")
    assert session["durable"] is False and "restart" in session["warning"]
    status, _, answer = request(server.url + "/api/highscores")
    assert status == 503 and "database" in answer["error"]
    assert "cannot open the database" in server.read_log()


def degraded(server):
    """The health answer when it says the store cannot write, else None."""
    health = request(server.url + "/healthz")[2]
    return health if health["status"] == "degraded" and "cannot write" in health["storage"] else None


@pytest.mark.slow
def test_a_locked_database_is_retried(start_playfield, tmp_path):
    server = start_playfield()
    session = create_session(server, "tag-cloud")
    lock = sqlite3.connect(server.database, timeout=0)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        sent = asyncio.run(drive(server, [session], 0.5, random.Random(1)))
        # The writer's next flush (every 250 ms, busy-waiting up to 2 s) fails; however slow
        # the machine, /healthz says so until the lock goes.
        health = wait_until(lambda: degraded(server), 30, "/healthz to say it cannot write")
        assert "cannot write" in health["storage"], health
        blocked = create_session(server, "maze")
        assert blocked["durable"] is False
    finally:
        lock.rollback()
        lock.close()
    # A session that could not be stored runs in memory only: /healthz says so until it goes.
    health = request(server.url + "/healthz")[2]
    assert health["memoryOnlySessions"] == 1 and health["status"] == "degraded", health
    status, _, _ = request(f"{server.url}/api/sessions/{blocked['id']}?token={blocked['token']}", "DELETE")
    assert status == 204
    # The writer backs off for up to 5 s between tries; then its retry commits the backlog.
    health = wait_until(
        lambda: (h := request(server.url + "/healthz")[2])["status"] == "ok" and h, 30,
        "/healthz to be ok again once the lock is gone")
    assert health["status"] == "ok", health
    logged = request(f"{server.url}/api/sessions/{session['id']}/inputs", headers={"Authorization": "Bearer " + session["token"]})[2]["inputs"]
    assert len(logged) == sent[session["id"]], "inputs that could not be written were retried, not dropped"
