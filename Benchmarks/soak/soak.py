"""Soak: runs `playfield serve` under mixed load for a while and samples its RSS and open file
descriptors, to show neither grows.

    .venv/bin/python Benchmarks/soak/soak.py --minutes 30 [--binary .build/release/playfield]

Load, all at once, from one process: spectators watching a running session of each demo that
streams a frame a tick (the registry: `playfield demos`); session churn (create, watch briefly, delete); tile requests (mostly cached, some new); page loads.
`--load churn` (a comma list) runs only some kinds, to see which one memory follows.

Before the load starts, --fill-tiles MiB of distinct detailed tiles are requested, more than the
server's 64 MiB tile cache holds, so the cache is full (and evicting) from the start: the soak
then measures what the load does to memory, not the cache filling up to its bound.

Prints a sample every --every seconds (RSS split into anonymous and file-backed pages, open
descriptors, threads) and a summary: RSS at start, after the tile fill, after the warm-up and at
the end, descriptors, errors. Exits 1 when there were errors, when descriptors grew (the fewest in the
last quarter of the run above the most in the first quarter after the warm-up), or when RSS grew
by more than --max-rss-growth percent after the warm-up.
"""
import argparse
import asyncio
import concurrent.futures
import json
import os
import pathlib
import random
import sys
import time
import urllib.request

from websockets.asyncio.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests"))
from launcher import Playfield, demo_names  # noqa: E402


LOADS = ["spectators", "churn", "tiles", "pages"]


def sample(pid):
    """RSS, anonymous RSS and file-backed RSS in KiB, open descriptors and threads of `pid`."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.split()[0] if value.split() else ""
    return (int(fields["VmRSS"]), int(fields["RssAnon"]), int(fields["RssFile"]) + int(fields["RssShmem"]),
            len(os.listdir(f"/proc/{pid}/fd")), int(fields["Threads"]))


def http(url, method="GET", body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, raw
    except urllib.error.HTTPError as error:
        return error.code, error.read()


async def spectators(base, ws_base, kinds, count, stop, counters):
    """`count` spectators over one running session of each kind in `kinds`."""
    sessions = []
    for kind in kinds:
        status, raw = await asyncio.to_thread(http, base + "/api/sessions", "POST", {"kind": kind})
        sessions.append(json.loads(raw))

    async def watch(session):
        while not stop.is_set():
            try:
                # The controller keeps it running; spectators just read.
                url = f"{ws_base}/ws/sessions/{session['id']}"
                async with connect(url, max_size=None) as ws:
                    while not stop.is_set():
                        await ws.recv()
                        counters["frames"] += 1
            except Exception:
                counters["errors"] += 1
                await asyncio.sleep(1)

    async def control(session):
        url = f"{ws_base}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url, max_size=None) as ws:
            while not stop.is_set():
                await ws.send(json.dumps({"type": "ping"}))
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 0.01)
                except asyncio.TimeoutError:
                    pass
                await asyncio.sleep(1)

    tasks = [asyncio.create_task(control(s)) for s in sessions]
    tasks += [asyncio.create_task(watch(sessions[i % len(sessions)])) for i in range(count)]
    await stop.wait()
    for task in tasks:
        task.cancel()


async def churn(base, ws_base, kinds, stop, counters):
    rng = random.Random(1)
    while not stop.is_set():
        status, raw = await asyncio.to_thread(http, base + "/api/sessions", "POST", {"kind": rng.choice(kinds)})
        if status != 201:
            counters["errors"] += 1
            await asyncio.sleep(1)
            continue
        session = json.loads(raw)
        try:
            async with connect(f"{ws_base}/ws/sessions/{session['id']}?token={session['token']}") as ws:
                for _ in range(10):
                    await ws.recv()
        except Exception:
            counters["errors"] += 1
        status, _ = await asyncio.to_thread(
            http, f"{base}/api/sessions/{session['id']}?token={session['token']}", "DELETE")
        counters["churned"] += 1 if status == 204 else 0
        counters["errors"] += 0 if status == 204 else 1
        await asyncio.sleep(0.2)


async def tiles(base, stop, counters):
    rng = random.Random(2)
    new = 0
    while not stop.is_set():
        if rng.random() < 0.1:
            new += 1
            path = f"/tiles/mandelbrot/6/{new % 64}/{(new // 64) % 64}.png?iter={200 + 100 * (new % 5)}"
        else:
            path = f"/tiles/mandelbrot/2/{rng.randrange(4)}/{rng.randrange(4)}.png"
        status, _ = await asyncio.to_thread(http, base + path)
        counters["tiles"] += 1 if status == 200 else 0
        counters["errors"] += 0 if status == 200 else 1
        await asyncio.sleep(0.05)


async def pages(base, stop, counters):
    rng = random.Random(3)
    paths = ["/", "/demos/bouncing-balls", "/demos/maze", "/demos/mandelbrot", "/sessions", "/healthz",
             "/css/playfield.css"]
    while not stop.is_set():
        status, _ = await asyncio.to_thread(http, base + rng.choice(paths))
        counters["pages"] += 1 if status == 200 else 0
        counters["errors"] += 0 if status == 200 else 1
        await asyncio.sleep(0.05)


def fill_tiles(base, mebibytes):
    """Requests distinct zoom-12 tiles around Seahorse Valley, two at a time, until their PNGs add
    up to `mebibytes`; returns how many tiles and bytes that took."""
    side = 3 / 2 ** 12
    x0, y0 = int((-0.745 + 2) / side), int((1.5 - 0.11) / side)
    paths = (f"/tiles/mandelbrot/12/{x0 + dx}/{y0 + dy}.png?iter=1000"
             for dy in range(-64, 64) for dx in range(-64, 64))
    count = total = 0
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        while total < mebibytes << 20:
            batch = [next(paths) for _ in range(16)]
            for status, body in pool.map(lambda path: http(base + path), batch):
                if status != 200:
                    raise SystemExit(f"tile fill: status {status}: {body[:200]!r}")
                count += 1
                total += len(body)
    return count, total


def summarize(start, fill, samples, args, counters):
    """The figures docs/reliability.md records, and what failed (empty when the run passed);
    `start` and `fill` are samples taken before and after the tile fill."""
    warm = [s for s in samples if s[0] >= args.warmup] or samples
    quarter = max(1, len(warm) // 4)
    base, end = warm[0], warm[-1]
    growth = 100 * (end[1] - base[1]) / base[1]
    lines = [
        f"RSS KiB: at start {start[1]} (anon {start[2]}), after the tile fill {fill[1]} (anon {fill[2]}), "
        f"after warm-up ({base[0]:.0f} s) {base[1]} (anon {base[2]}), end {end[1]} (anon {end[2]}), "
        f"max {max(s[1] for s in samples)}",
        f"RSS growth: {growth:+.1f}% after warm-up, {100 * (end[1] - fill[1]) / fill[1]:+.1f}% after the fill, "
        f"{100 * (end[1] - start[1]) / start[1]:+.1f}% from start",
        f"fds: min {min(s[4] for s in samples)}, max {max(s[4] for s in samples)}; after warm-up "
        f"first quarter max {max(s[4] for s in warm[:quarter])}, last quarter min {min(s[4] for s in warm[-quarter:])}",
        "counts: " + ", ".join(f"{k} {v}" for k, v in counters.items()),
    ]
    failures = []
    if counters["errors"]:
        failures.append(f"{counters['errors']} errors")
    if min(s[4] for s in warm[-quarter:]) > max(s[4] for s in warm[:quarter]):
        failures.append("open descriptors grew")
    if growth > args.max_rss_growth:
        failures.append(f"RSS grew {growth:.1f}% after warm-up (the bar is {args.max_rss_growth}%)")
    return lines, failures


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--every", type=float, default=30, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=60, help="seconds before the RSS baseline")
    parser.add_argument("--spectators", type=int, default=40)
    parser.add_argument("--binary", default=".build/release/playfield")
    parser.add_argument("--load", default=",".join(LOADS), help="comma list of: " + ", ".join(LOADS))
    parser.add_argument("--fill-tiles", type=int, default=80, help="MiB of distinct tiles before the load")
    parser.add_argument("--max-rss-growth", type=float, default=5, help="percent after warm-up")
    args = parser.parse_args()
    loads = args.load.split(",")
    if not loads or any(load not in LOADS for load in loads):
        parser.error("--load takes a comma list of: " + ", ".join(LOADS))

    playfield = Playfield(binary=args.binary)
    server, directory, url, ws_url = playfield.process, playfield.directory, playfield.url, playfield.ws_url
    kinds = demo_names(every_tick=True, binary=args.binary)
    initial = (0, *sample(server.pid))
    began = time.monotonic()
    count, total = fill_tiles(url, args.fill_tiles)
    filled = (0, *sample(server.pid))
    print(f"tile fill: {count} tiles, {total / 2**20:.1f} MiB of PNG in {time.monotonic() - began:.0f} s; "
          f"RSS {initial[1]} -> {filled[1]} KiB", flush=True)
    stop = asyncio.Event()
    counters = {"frames": 0, "churned": 0, "tiles": 0, "pages": 0, "errors": 0}
    runs = {"spectators": lambda: spectators(url, ws_url, kinds, args.spectators, stop, counters),
            "churn": lambda: churn(url, ws_url, kinds, stop, counters),
            "tiles": lambda: tiles(url, stop, counters), "pages": lambda: pages(url, stop, counters)}
    tasks = [asyncio.create_task(runs[load]()) for load in loads]
    start = time.monotonic()
    samples = []
    print(f"load: {','.join(loads)}; server pid {server.pid}; log {directory}/server.log", flush=True)
    print("seconds,rss_kib,anon_kib,file_kib,fds,threads," + ",".join(counters), flush=True)
    while time.monotonic() - start < args.minutes * 60:
        await asyncio.sleep(args.every)
        figures = sample(server.pid)
        elapsed = time.monotonic() - start
        samples.append((elapsed, *figures))
        print(f"{elapsed:.0f}," + ",".join(str(v) for v in figures + tuple(counters.values())), flush=True)
    stop.set()
    await asyncio.sleep(1)
    for task in tasks:
        task.cancel()
    playfield.stop(timeout=30)
    lines, failures = summarize(initial, filled, samples, args, counters)
    print(f"summary: {args.minutes} min, load {','.join(loads)}")
    for line in lines:
        print("  " + line)
    print("result: " + ("FAIL: " + "; ".join(failures) if failures else "pass"), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
