#!/usr/bin/env python3
"""Memory of many replays of one long session (issue 17, finding 3): writes a maze session
with N logged inputs straight into a fresh database, starts the server on it, opens R replay
WebSockets at 8x, and samples the server's RSS while they play and after they close.

    .venv/bin/python Benchmarks/replays/replay_memory.py BINARY [--inputs 100000] \
        [--replays 32] [--seconds 20]

BINARY is a release `playfield` (e.g. one built from main for "before"). Prints one line of
figures in MiB.
"""
import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402


def start(binary, database):
    """The server on `database` (Tests/launcher.py), as (process, url)."""
    server = Playfield(database=database, binary=binary)
    return server.process, server.url


def rss(pid):
    """The process's resident set in MiB (VmRSS)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def make_session(binary, database, inputs):
    """A paused maze session whose log holds `inputs` tilts, four per tick."""
    process, url = start(binary, database)
    body = json.dumps({"kind": "maze"}).encode()
    request = urllib.request.Request(url + "/api/sessions", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        session = json.loads(response.read())["id"]
    process.terminate()
    process.wait(30)
    rng = random.Random(1)
    rows = [(session, 1 + i // 4, i % 4,
             json.dumps({"type": "tilt", "x": round(rng.uniform(-1, 1), 3),
                         "y": round(rng.uniform(-1, 1), 3)}))
            for i in range(inputs)]
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM inputs WHERE session_id = ?", (session,))
        db.executemany("INSERT INTO inputs (session_id, tick, seq, input) VALUES (?, ?, ?, ?)", rows)
        db.execute("UPDATE sessions SET status = 'paused', tick = ? WHERE id = ?", (rows[-1][1], session))
    return session


async def watch(ws_url, session, stop):
    """One replay at 8x (asked once its hello came), its messages read and dropped until `stop`
    is set; returns the first error it got (if any) and the last tick it showed."""
    error = None
    tick = 0
    async with connect(f"{ws_url}/ws/replays/{session}", max_queue=None, close_timeout=1) as ws:
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            if message["type"] == "hello":
                await ws.send(json.dumps({"type": "speed", "value": 8}))
            if message["type"] == "error" and error is None:
                error = message.get("message", str(message))
            if message["type"] == "frame":
                tick = message["tick"]
    return error, tick


async def measure(pid, ws_url, session, replays, seconds):
    stop = asyncio.Event()
    tasks = [asyncio.create_task(watch(ws_url, session, stop)) for _ in range(replays)]
    peak = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        peak = max(peak, rss(pid))
        await asyncio.sleep(0.25)
    playing = rss(pid)
    stop.set()
    results = await asyncio.gather(*tasks)
    errors = [error for error, _ in results if error]
    ticks = sorted(tick for _, tick in results)
    return peak, playing, errors, ticks


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--replays", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    database = os.path.join(tempfile.mkdtemp(prefix="replay-memory-"), "playfield.db")
    session = make_session(args.binary, database, args.inputs)
    process, url = start(args.binary, database)
    try:
        time.sleep(2)
        idle = rss(process.pid)
        ws_url = "ws://" + url[len("http://"):]
        peak, playing, errors, ticks = asyncio.run(
            measure(process.pid, ws_url, session, args.replays, args.seconds))
        time.sleep(3)
        after = rss(process.pid)
    finally:
        process.terminate()
        process.wait(30)
    print(f"inputs {args.inputs} replays {args.replays} seconds {args.seconds}: "
          f"RSS idle {idle:.1f} MiB, peak {peak:.1f}, playing {playing:.1f}, "
          f"after closing {after:.1f}; replays reached ticks {ticks[0]} to {ticks[-1]}; "
          f"errors {len(errors)} {errors[:1]}")


if __name__ == "__main__":
    main()
