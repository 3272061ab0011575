"""The command line: `watch` prints ticks and events, `record` writes frames as JSON lines."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from deadline import read_line
from launcher import demo_names
from playfield_client.__main__ import socket_url

SOURCE = str(pathlib.Path(__file__).resolve().parents[1] / "src")


def cli(*args):
    env = {**os.environ, "PYTHONPATH": SOURCE + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "playfield_client", *args], capture_output=True,
                          text=True, timeout=60, env=env)


def test_watch_prints_ticks_and_events(client, server):
    info = client.create_session("maze")
    with client.connect(info) as session:
        session.stop()
        session.toggle(0, 0, confirm=False)
        session.step(1)
        result = cli("watch", server.url + info.urls["control"], "--frames", "1")
        assert result.returncode == 0, result.stderr
        assert f"session {info.id} (maze) as controller" in result.stdout
        assert "stopped" in result.stdout
        session.start()
        result = cli("watch", server.url + info.urls["watch"], "--frames", "12", "--every", "3")
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stderr
    assert "as spectator" in lines[0]
    ticks = [int(line.split()[1]) for line in lines if line.startswith("tick ")]
    assert len(ticks) == 4 and ticks == sorted(ticks)
    assert all("ball (" in line for line in lines if line.startswith("tick "))
    client.delete_session(info)


def test_watch_prints_events(client, server):
    info = client.create_session("maze")
    env = {**os.environ, "PYTHONPATH": SOURCE + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with client.connect(info) as session:
        session.stop()
        watcher = subprocess.Popen(
            [sys.executable, "-m", "playfield_client", "watch", server.url + info.urls["watch"],
             "--frames", "3"], stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert "as spectator" in read_line(watcher.stdout, 30, "the watcher's first line")
            session.toggle(4, 5)
            session.step(2)
            out, _ = watcher.communicate(timeout=30)
        finally:
            watcher.kill()
    assert watcher.returncode == 0
    assert '"cells":' in out and "event maze at tick" in out
    assert '"revision":1' in out
    client.delete_session(info)


@pytest.mark.parametrize("kind", demo_names(session=True))
def test_watch_reads_every_kind(client, server, kind):
    # A paintbrush frame's `points` is a count, a tag cloud's a list: each by its own type.
    info = client.create_session(kind)
    # NB: street soccer sends a frame only when a move changes the board: one, as it joins.
    frames = 1 if kind == "street-soccer" else 3
    result = cli("watch", server.url + info.urls["watch"], "--frames", str(frames))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("tick ")]
    assert len(lines) == frames, result.stdout
    if kind == "paintbrush":
        assert all("picture v0: 0 strokes, 0 points" in line for line in lines)
    client.delete_session(info)


def test_record_writes_frames_as_json_lines(client, server, tmp_path):
    info = client.create_session("bouncing-balls", {"balls": 4})
    out = tmp_path / "frames.jsonl"
    result = cli("record", client.socket_url(info.id), "--out", str(out), "--frames", "20")
    assert result.returncode == 0, result.stderr
    assert "recorded 20 messages" in result.stderr
    frames = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(frames) == 20 and all(f["type"] == "frame" and f["count"] == 4 for f in frames)
    ticks = [f["tick"] for f in frames]
    assert ticks == sorted(set(ticks))
    client.delete_session(info)


def test_bad_addresses_and_sessions_are_reported():
    result = cli("watch", "not a url")
    assert result.returncode == 2 and "not a session address" in result.stderr
    result = cli("watch", "http://127.0.0.1:9/demos/maze")
    assert result.returncode == 2 and "no session id" in result.stderr
    result = cli("record", "http://127.0.0.1:9/api/sessions/x", "--frames", "0")
    assert result.returncode == 2 and "--frames must be 1 or more" in result.stderr
    result = cli("watch", "http://127.0.0.1:9/api/sessions/x")
    assert result.returncode == 1 and "cannot connect" in result.stderr


def test_unknown_sessions_are_reported(server):
    result = cli("watch", f"{server.url}/demos/maze?session={'A' * 22}")
    assert result.returncode == 1 and "no such session" in result.stderr


@pytest.mark.parametrize("address, expected", [
    ("http://h:1/demos/maze?session=S&token=T", "ws://h:1/ws/sessions/S?token=T"),
    ("https://h/embed/holes?session=S", "wss://h/ws/sessions/S"),
    ("http://h/api/sessions/S", "ws://h/ws/sessions/S"),
    ("ws://h/ws/sessions/S?token=T", "ws://h/ws/sessions/S?token=T"),
    ("http://h/demos/paintbrush?session=S#token=D", "ws://h/ws/sessions/S?token=D"),
])
def test_any_session_address_names_its_channel(address, expected):
    assert socket_url(address) == expected
