#!/usr/bin/env python3
"""What an idle server costs: CPU of the server process (user + system, /proc/PID/stat) over
a window with nothing running.

Three states, each measured over `--seconds` (10 by default) after a short settle:
  empty            no session at all;
  stopped 10k      one stopped, unwatched 10,000-ball session (and nothing else);
  after restart    the same database served again (the stored session restored).

Usage: python3 Benchmarks/abuse/idle_cpu.py [--binary .build/release/playfield] [--seconds 10]
"""
import argparse
import asyncio
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, candidates, create  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402


def cpu_over(server, seconds, settle=2.0):
    """Percent of one core the server used over `seconds`, after `settle` seconds."""
    time.sleep(settle)
    before, started = server.cpu_seconds(), time.monotonic()
    time.sleep(seconds)
    return 100 * (server.cpu_seconds() - before) / (time.monotonic() - started)


async def stop(server, session):
    """Stops a session through its control channel and waits for the status saying so."""
    url = f"{server.ws_base}/ws/sessions/{session['id']}?token={session['token']}"
    async with connect(url, max_size=None) as socket:
        await socket.send(json.dumps({"type": "stop", "id": "stop"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(socket.recv(), 60))
            if message["type"] == "status" and not message["running"]:
                return
        raise RuntimeError("the session did not stop")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=".build/release/playfield")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    server = Server(args.binary).start()
    rows = []
    try:
        rows.append(("empty", cpu_over(server, args.seconds)))
        heavy = create(server.base, "bouncing-balls", candidates()["10k balls r=3"])
        asyncio.run(stop(server, heavy))
        rows.append(("stopped 10k", cpu_over(server, args.seconds)))
        server.stop()
        server.start()
        rows.append(("after restart", cpu_over(server, args.seconds)))
    finally:
        server.stop()
        server.remove()
    print("| State | CPU (% of a core) |")
    print("|---|---:|")
    for name, percent in rows:
        print(f"| {name} | {percent:.1f} |")


if __name__ == "__main__":
    main()
