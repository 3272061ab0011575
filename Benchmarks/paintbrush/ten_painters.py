#!/usr/bin/env python3
"""What a paintbrush session with N people drawing at once costs: message sizes on the wire
and the server's CPU.

    python3 Benchmarks/paintbrush/ten_painters.py PID BASE_URL [--painters 10] [--seconds 20]

PID is the server's process id (its CPU time is read from /proc/PID/stat); BASE_URL where it
listens, e.g. http://127.0.0.1:8080. Each painter joins through the drawing link and draws
like a pointer at 100 Hz sent every 40 ms: a `stroke` batch of 4 points, a new stroke every
2 s. One spectator (with permessage-deflate off, to count raw JSON) records every message.
The CPU share is measured over the drawing, against the same session idle for as long.
"""
import argparse
import asyncio
import json
import math
import os
import time
import urllib.request

from websockets.asyncio.client import connect


def api(base, path, body):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def painter(url, index, seconds):
    sent = 0
    async with connect(url, compression=None, max_size=None) as ws:
        await ws.recv()
        started = time.monotonic()
        step = 0
        async def drain():
            async for _ in ws:
                pass
        reader = asyncio.create_task(drain())
        while (now := time.monotonic()) - started < seconds:
            points = []
            for k in range(4):
                t = (step * 4 + k) / 100
                points += [round(320 + 250 * math.cos(t + index), 1),
                           round(240 + 200 * math.sin(1.3 * t + index), 1)]
            await ws.send(json.dumps({
                "type": "stroke", "author": f"bench-{index}", "stroke": int(now - started) // 2,
                "color": "#ffffff", "radius": 10, "points": points}))
            sent += 1
            step += 1
            await asyncio.sleep(0.04)
        reader.cancel()
    return sent


async def spectator(url, seconds, sizes):
    async with connect(url, compression=None, max_size=None) as ws:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(ws.recv(), left)
            except asyncio.TimeoutError:
                break
            kind = json.loads(message)
            key = kind["type"] if kind["type"] != "event" else "event:" + kind["name"]
            sizes.setdefault(key, []).append(len(message))


async def run(args):
    base = args.base_url.rstrip("/")
    ws_base = "ws" + base[len("http"):]
    session = api(base, "/api/sessions", {"kind": "paintbrush", "config": {"maxStrokes": 10000, "maxPoints": 250000}})
    draw = session["urls"]["draw"].split("token=")[1]
    watch = f"{ws_base}/ws/sessions/{session['id']}"
    idle_sizes = {}
    idle_cpu = cpu_seconds(args.pid)
    await spectator(watch, args.seconds, idle_sizes)
    idle_cpu = cpu_seconds(args.pid) - idle_cpu

    sizes = {}
    busy_cpu = cpu_seconds(args.pid)
    tasks = [painter(f"{ws_base}/ws/sessions/{session['id']}?token={draw}", i, args.seconds)
             for i in range(args.painters)]
    results = await asyncio.gather(spectator(watch, args.seconds + 0.5, sizes), *tasks)
    busy_cpu = cpu_seconds(args.pid) - busy_cpu
    sent = sum(results[1:])

    print(f"{args.painters} painters for {args.seconds:.0f} s: {sent} stroke messages "
          f"({sent / args.seconds:.0f}/s)")
    for key, values in sorted(sizes.items()):
        print(f"  {key:<22} {len(values):>6} messages, mean {sum(values) / len(values):7.0f} B, "
              f"max {max(values):6} B, {sum(values) / args.seconds / 1024:7.1f} KiB/s")
    total = sum(sum(v) for v in sizes.values())
    print(f"  all to one spectator: {total / args.seconds / 1024:.1f} KiB/s uncompressed")
    print(f"  server CPU: {100 * busy_cpu / args.seconds:.1f} % of a core drawing, "
          f"{100 * idle_cpu / args.seconds:.1f} % idle session (same length)")
    health = json.loads(urllib.request.urlopen(base + "/healthz").read())
    print(f"  /healthz: tickWorkMs {health['tickWorkMs']}, lateness {health['tickLatenessMs']}, "
          f"droppedTicks {health['droppedTicks']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pid", type=int)
    parser.add_argument("base_url")
    parser.add_argument("--painters", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
