#!/usr/bin/env python3
"""How many concurrent sessions keep 60 Hz: starts N sessions, samples frame delivery with
wsflood on a few of them, and reads the game loop's tick lateness from /healthz.

    python3 Benchmarks/sessions/concurrent_sessions.py http://127.0.0.1:8080 N SECONDS \
        [--kind bouncing-balls] [--config '{}'] [--samples 4] [--spectators 5] [--wsflood PATH]

Every session is stepped by the one game loop, so if the loop is on time (no dropped ticks,
small p99 lateness) every session ticks at 60 Hz; the wsflood samples check that the frames
also reach clients at >= 55 fps.
"""
import argparse
import asyncio
import json
import random
import re
import subprocess
import sys
import urllib.request

from websockets.asyncio.client import connect


def api(base, path, body=None):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def start_all(ws_base, sessions):
    for session in sessions:
        async with connect(f"{ws_base}/ws/sessions/{session['id']}?token={session['token']}") as ws:
            await ws.recv()
            await ws.send(json.dumps({"type": "start"}))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base_url")
    parser.add_argument("n", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--kind", default="bouncing-balls")
    parser.add_argument("--config", default="{}")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=5)
    parser.add_argument("--wsflood", default="./wsflood")
    args = parser.parse_args()
    base = args.base_url.rstrip("/")
    ws_base = "ws://" + base.split("://", 1)[1]

    sessions = [api(base, "/api/sessions", {"kind": args.kind, "config": json.loads(args.config)})
                for _ in range(args.n)]
    asyncio.run(start_all(ws_base, sessions))
    before = api(base, "/healthz")
    sampled = random.Random(1).sample(sessions, min(args.samples, len(sessions)))
    floods = [subprocess.Popen(
        [args.wsflood, "-q", f"{ws_base}/ws/sessions/{s['id']}", str(args.spectators), str(args.seconds)],
        stdout=subprocess.PIPE, text=True) for s in sampled]
    kept = total = 0
    for flood in floods:
        out, _ = flood.communicate(timeout=args.seconds + 120)
        match = re.search(r"kept>=55fps: (\d+)/(\d+)", out)
        kept += int(match.group(1))
        total += int(match.group(2))
    after = api(base, "/healthz")
    dropped = after["droppedTicks"] - before["droppedTicks"]
    print(f"sessions {args.n} ({args.kind}); sampled {len(sampled)} x {args.spectators} spectators: "
          f"kept>=55fps {kept}/{total}; dropped ticks {dropped}; tick lateness ms "
          f"p50 {after['tickLatenessMs']['p50']:.2f} p99 {after['tickLatenessMs']['p99']:.2f} "
          f"max {after['tickLatenessMs']['max']:.2f}; mean tick work {after['tickWorkMs']:.2f} ms")
    for session in sessions:
        request = urllib.request.Request(f"{base}/api/sessions/{session['id']}", method="DELETE",
                                         headers={"Authorization": "Bearer " + session["token"]})
        urllib.request.urlopen(request, timeout=30).read()
    return 0 if kept == total and dropped == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
