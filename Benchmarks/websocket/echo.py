#!/usr/bin/env python3
"""WebSocket echo round trips per second: Playfield's /ws/echo beside the Python `websockets`
echo server (the reference the WebSocket issue names), same client, same run.

    python3 Benchmarks/websocket/echo.py [--playfield .build/release/playfield]
        [--connections 16] [--seconds 5] [--size 64] [--rounds 3] [--compression]

Each connection sends a text message and waits for its echo, over and over; the figure is
completed round trips per second over all connections. The client is one Python process, so
the absolute rates are bounded by it; both servers face the same client. The fairer figure is
each server's own CPU time per round trip (user + system, from /proc), printed beside the rates.
"""
import argparse
import asyncio
import os
import subprocess
import sys
import time

from websockets.asyncio.client import connect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

REFERENCE = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, max_size=1 << 20) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


async def load(url, connections, seconds, size, compression):
    message = "x" * size
    done = 0
    stop = time.monotonic() + seconds

    async def one():
        nonlocal done
        async with connect(url, compression=compression, max_size=None) as ws:
            while time.monotonic() < stop:
                await ws.send(message)
                await ws.recv()
                done += 1

    started = time.monotonic()
    await asyncio.gather(*(one() for _ in range(connections)))
    return done / (time.monotonic() - started)


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(process, url, args, compression):
    """(round trips per second, server CPU microseconds per round trip)."""
    before = cpu_seconds(process.pid)
    started = time.monotonic()
    rate = asyncio.run(load(url, args.connections, args.seconds, args.size, compression))
    trips = rate * (time.monotonic() - started)
    return rate, (cpu_seconds(process.pid) - before) / trips * 1e6


def start(command):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline().strip()
    return process, line


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playfield", default=".build/release/playfield")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compression", action="store_true")
    args = parser.parse_args()
    compression = "deflate" if args.compression else None

    playfield = Playfield(binary=args.playfield)  # Tests/launcher.py
    ours, ours_url = playfield.process, playfield.ws_url + "/ws/echo"
    reference, port = start([sys.executable, "-c", REFERENCE])
    reference_url = f"ws://127.0.0.1:{port}/"
    try:
        print(f"# {args.connections} connections, {args.size}-byte text, "
              f"compression {'on' if compression else 'off'}, {args.seconds:g} s per round")
        print(f"{'round':<7}{'websockets rt/s':>16}{'µs CPU/rt':>11}{'playfield rt/s':>16}{'µs CPU/rt':>11}")
        totals = [0.0] * 4
        for round_number in range(1, args.rounds + 1):
            a, a_cpu = measured(reference, reference_url, args, compression)
            b, b_cpu = measured(ours, ours_url, args, compression)
            for index, value in enumerate((a, a_cpu, b, b_cpu)):
                totals[index] += value
            print(f"{round_number:<7}{a:>16.0f}{a_cpu:>11.1f}{b:>16.0f}{b_cpu:>11.1f}")
        a, a_cpu, b, b_cpu = (total / args.rounds for total in totals)
        print(f"{'mean':<7}{a:>16.0f}{a_cpu:>11.1f}{b:>16.0f}{b_cpu:>11.1f}")
    finally:
        playfield.stop()
        reference.terminate()


if __name__ == "__main__":
    main()
