"""Soak: runs `playfield serve` under mixed load for a while and samples its RSS and open file
descriptors, to show neither grows.

    .venv/bin/python Benchmarks/soak/soak.py --minutes 30 [--binary .build/release/playfield]

Load, all at once, from one process: spectators watching a few running sessions; session
churn (create, watch briefly, delete); tile requests (mostly cached, some new); page loads.
Prints a sample every --every seconds and a summary: RSS growth after warm-up and the
descriptor count at start and end.
"""
import argparse
import asyncio
import json
import os
import random
import subprocess
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect


def sample(pid):
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


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


async def spectators(base, ws_base, count, stop, counters):
    sessions = []
    for kind in ["bouncing-balls", "maze", "holes", "tag-cloud"]:
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


async def churn(base, ws_base, stop, counters):
    rng = random.Random(1)
    kinds = ["bouncing-balls", "maze", "holes", "tag-cloud"]
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
        await asyncio.sleep(0.2)


async def tiles_and_pages(base, stop, counters):
    rng = random.Random(2)
    pages = ["/", "/demos/bouncing-balls", "/demos/maze", "/demos/mandelbrot", "/sessions", "/healthz",
             "/css/playfield.css"]
    new = 0
    while not stop.is_set():
        if rng.random() < 0.1:
            new += 1
            path = f"/tiles/mandelbrot/6/{new % 64}/{(new // 64) % 64}.png?iter={200 + 100 * (new % 5)}"
        else:
            path = f"/tiles/mandelbrot/2/{rng.randrange(4)}/{rng.randrange(4)}.png"
        status, _ = await asyncio.to_thread(http, base + path)
        counters["tiles"] += 1 if status == 200 else 0
        status, _ = await asyncio.to_thread(http, base + rng.choice(pages))
        counters["pages"] += 1 if status == 200 else 0
        await asyncio.sleep(0.05)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--every", type=float, default=30, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=60, help="seconds before the RSS baseline")
    parser.add_argument("--spectators", type=int, default=40)
    parser.add_argument("--binary", default=".build/release/playfield")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="playfield-soak-")
    log = open(os.path.join(directory, "server.log"), "wb")
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--database", os.path.join(directory, "soak.db")],
                              stdout=subprocess.PIPE, stderr=log)
    url = server.stdout.readline().decode().strip().split(" on ", 1)[1]
    ws_url = "ws://" + url[len("http://"):]
    stop = asyncio.Event()
    counters = {"frames": 0, "churned": 0, "tiles": 0, "pages": 0, "errors": 0}
    tasks = [asyncio.create_task(spectators(url, ws_url, args.spectators, stop, counters)),
             asyncio.create_task(churn(url, ws_url, stop, counters)),
             asyncio.create_task(tiles_and_pages(url, stop, counters))]
    start = time.monotonic()
    samples = []
    print("seconds,rss_kib,fds," + ",".join(counters), flush=True)
    while time.monotonic() - start < args.minutes * 60:
        await asyncio.sleep(args.every)
        rss, fds = sample(server.pid)
        elapsed = time.monotonic() - start
        samples.append((elapsed, rss, fds))
        print(f"{elapsed:.0f},{rss},{fds}," + ",".join(str(v) for v in counters.values()), flush=True)
    stop.set()
    await asyncio.sleep(1)
    for task in tasks:
        task.cancel()
    server.terminate()
    server.wait(30)
    warm = [s for s in samples if s[0] >= args.warmup] or samples
    base_rss, end_rss = warm[0][1], warm[-1][1]
    growth = 100 * (end_rss - base_rss) / base_rss
    print(f"summary: {args.minutes} min; RSS after warm-up {base_rss} KiB -> {end_rss} KiB "
          f"({growth:+.1f}%), max {max(s[1] for s in samples)} KiB; fds {warm[0][2]} -> {warm[-1][2]}; "
          + ", ".join(f"{k} {v}" for k, v in counters.items()))


if __name__ == "__main__":
    asyncio.run(main())
