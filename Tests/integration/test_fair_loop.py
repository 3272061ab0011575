"""Issue 22, the game loop's CPU and big messages: work a client causes is charged to it, runs
off the realtime tick, and stops when the client goes away (counts and order, never timings)."""
import json
import socket
import time

import pytest
from websockets.sync.client import connect

from deadline import Deadline
from helpers import create_session, request, send_commands


def step_jobs(server):
    status, _, body = request(server.url + "/healthz")
    assert status == 200, body
    return body["stepJobs"]


def quiet_jobs(server, seconds=60):
    """The scheduler's counts once no job waits or runs."""
    deadline = Deadline(seconds, "the step jobs to finish")
    while True:
        jobs = step_jobs(server)
        if jobs["waiting"] == 0:
            return jobs
        time.sleep(min(0.05, deadline.left()))


def replay_state_jobs(jobs):
    return jobs["submitted"].get("replay-state", 0)


def balls(count):
    """A bouncing-balls config of `count` small balls in a world that holds them."""
    return {"balls": count, "maxBalls": count, "radiusMin": 3, "radiusMax": 3,
            "width": 800, "height": 800}


def stepped_session(server, ticks, config):
    """A stopped bouncing-balls session stepped to at least `ticks` (asked-for steps)."""
    session = create_session(server, "bouncing-balls", config)
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "stop"}))
        for start in range(0, ticks, 600):
            ws.send(json.dumps({"type": "step", "count": min(600, ticks - start)}))
        # NB: 1,200 ticks of 5,000 balls took longer than 120 s with both cores busy (load 25-30).
        deadline = Deadline(300, f"session {session['id']} to reach tick {ticks}")
        while request(f"{server.url}/api/sessions/{session['id']}/state")[2]["tick"] < ticks:
            time.sleep(min(0.1, deadline.left()))
    quiet_jobs(server)
    return session


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_replay_state_stops_when_its_asker_leaves(start_playfield):
    server = start_playfield()
    session = stepped_session(server, 1200, balls(5000))
    before = quiet_jobs(server)
    path = f"/api/sessions/{session['id']}/replay?tick=1200&from=start"
    with socket.create_connection((server.host, server.port), timeout=10) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())
        # Leaves once the job runs (the store is read first).
        deadline = Deadline(60, "the replay-state job to be submitted")
        while step_jobs(server)["submitted"].get("replay-state", 0) == 0:
            time.sleep(min(0.01, deadline.left()))
    after = quiet_jobs(server)
    # A replay state is stepped by one job per chunk of its log read: every job before the
    # asker left finished its chunk (how many depends on how fast it ran), the one under way
    # was cancelled (none, if the asker left while the next chunk was read), and no step went
    # past the asker's leaving: the chain stopped short of the tick.
    jobs = replay_state_jobs(after) - replay_state_jobs(before)
    cancelled = after["cancelled"] - before["cancelled"]
    assert jobs >= 1 and cancelled <= 1, (before, after)
    assert after["finished"] - before["finished"] == jobs - cancelled, (before, after)
    assert after["steps"] - before["steps"] < 1200, (before, after)
    # Asked again and read, the same replay state is worked out in full: every job finished.
    status, _, state = request(server.url + path, timeout=300)
    assert status == 200 and state["tick"] == 1200, state
    done = quiet_jobs(server)
    jobs = replay_state_jobs(done) - replay_state_jobs(after)
    assert jobs >= 1 and done["finished"] - after["finished"] == jobs, (after, done)
    assert done["cancelled"] == after["cancelled"], (after, done)
    assert done["steps"] - after["steps"] >= 1200


def tilts(server, session, count):
    """Sends `count` maze tilts with their index as id; returns (acked ids, log-full errors)."""
    return send_commands(server, session,
                         [{"type": "tilt", "x": (index % 10) / 10, "y": 0} for index in range(count)])


def test_a_clients_sessions_share_one_input_log_byte_total(start_playfield):
    # Each session may log 1,000 bytes, but one client's sessions only 1,500 together.
    server = start_playfield("--input-log-bytes", "1000", "--input-log-bytes-per-client", "1500")
    first, second = create_session(server, "maze"), create_session(server, "maze")
    acked, full = tilts(server, first, 60)
    assert acked and full and "this session has logged" in full[0]["message"]
    acked, full = tilts(server, second, 60)
    assert 0 < len(acked) < 30, "the second session gets what the first left of the total"
    assert "owner made" in full[0]["message"] and "1500 bytes" in full[0]["message"]
    assert max(acked) < min(f["id"] for f in full)
    # Deleting the first session gives its bytes back: the second takes input again.
    status, _, _ = request(f"{server.url}/api/sessions/{first['id']}", "DELETE",
                           headers={"Authorization": f"Bearer {first['token']}"})
    assert status in (200, 204)
    acked, full = tilts(server, second, 10)
    assert acked == list(range(10)) and not full


@pytest.mark.slow
def test_a_restored_session_greets_its_joiner_once_it_is_where_it_was(start_playfield):
    import signal
    first = start_playfield()
    session = stepped_session(first, 450, balls(300))
    live = request(f"{first.url}/api/sessions/{session['id']}/state")[2]
    # The replay state flushes the store first: the stored tick is the live one.
    status, _, replayed = request(
        f"{first.url}/api/sessions/{session['id']}/replay?tick={live['tick']}", timeout=60)
    assert status == 200 and replayed["stateHash"] == live["stateHash"], replayed
    first.stop(signal.SIGKILL)  # a crash: no snapshot at the end
    server = start_playfield(database=first.database)
    with connect(f"{server.ws_url}/ws/sessions/{session['id']}") as ws:
        hello = json.loads(ws.recv(timeout=60))
    assert hello["type"] == "hello" and hello["tick"] == live["tick"], hello
    state = request(f"{server.url}/api/sessions/{session['id']}/state")[2]
    assert state["stateHash"] == live["stateHash"]
    jobs = quiet_jobs(server)
    # Rebuilt from the snapshot at tick 300 by one job of the scheduler, not at start.
    assert jobs["submitted"].get("restore") == 1, (jobs, server.read_log())
    assert jobs["steps"] >= live["tick"] - 300, jobs
