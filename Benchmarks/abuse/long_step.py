"""The longest single model step a client can cause (issue 35: "split long model steps of many
inputs at slice bounds"), measured as the server's CPU for one step.

    swift build -c release --product playfield
    cd Benchmarks/abuse && ../../.venv/bin/python long_step.py [--binary PATH] [--repeat 3] [--most 500]

On a fresh server, a stopped 10,000-ball session (the abuse harness's `10k balls r=6.9`, the
heaviest allowed config) is stepped once with no input, then once with N `reset` inputs in the
same step (N = 1, 64, and as many as one tick takes from a controller), and likewise a default
session. For each case it prints the server's CPU seconds (user + system, from /proc) for the
step and the step's round trip. The server is otherwise idle, so its CPU is the step's, plus a
frame's encoding. Figures are noisy on a shared machine: state `uptime` beside them.
"""
import argparse
import asyncio
import json
import sys
import time

from websockets.asyncio.client import connect

from common import Server, candidates, create


async def one_step(server, socket, inputs, tick):
    """Sends `inputs` then one step; returns (CPU seconds, wall seconds, the frame's tick)."""
    cpu, started = server.cpu_seconds(), time.perf_counter()
    for message in inputs:
        await socket.send(message)
    await socket.send(json.dumps({"type": "step", "count": 1}))
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 120))
        if "--verbose" in sys.argv:
            print("  ", json.dumps(message)[:160], flush=True)
        if message["type"] == "frame" and message["tick"] > tick:
            break
        if message["type"] == "error":
            print("  error:", json.dumps(message)[:200], flush=True)
    # NB: the frame is sent after the step; what the event loop does after it is small.
    return server.cpu_seconds() - cpu, time.perf_counter() - started, message["tick"]


async def measure(server, label, config, counts, repeat):
    session = await asyncio.to_thread(create, server.base, "bouncing-balls", config)
    async with connect(f"{server.ws_base}/ws/sessions/{session['id']}?token={session['token']}",
                       max_size=None) as socket:
        await socket.send(json.dumps({"type": "stop"}))
        tick = 0
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 60))
            if message["type"] in ("hello", "frame"):
                tick = max(tick, message["tick"])
            if message["type"] == "status" and not message.get("running", True):
                break
        for count in counts:
            results = []
            for _ in range(repeat):
                cpu, wall, tick = await one_step(server, socket, [json.dumps({"type": "reset"})] * count,
                                                 tick)
                results.append((cpu, wall))
            best = min(results)
            print(f"{label}, {count} reset input(s) in the step: server CPU {best[0] * 1000:.0f} ms "
                  f"(min of {repeat}; max {max(r[0] for r in results) * 1000:.0f} ms), "
                  f"round trip {best[1] * 1000:.0f} ms", flush=True)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/playfield")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--most", type=int, default=512,
                        help="the most reset inputs sent before one step")
    parser.add_argument("--verbose", action="store_true", help="print every message heard")
    args = parser.parse_args()
    server = Server(args.binary)
    server.start()
    try:
        counts = [0, 1, 64, args.most]
        await measure(server, "default session", {}, counts, args.repeat)
        await measure(server, "10k balls r=6.9", candidates()["10k balls r=6.9"], counts, args.repeat)
    finally:
        server.stop()
        server.remove()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
