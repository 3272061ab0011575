#!/usr/bin/env python3
"""PostgreSQL away for a while under load (issue 25, "PostgreSQL gone at run time"), measured
through nginx with two Playfield processes:

    .venv/bin/python Benchmarks/cluster/outage.py                 # about a minute
    AWAY=60 BEFORE_BIN=/path/to/older/playfield .venv/bin/python Benchmarks/cluster/outage.py

SESSIONS bouncing-balls sessions, each sent 10 inputs a second (each with an id, so that it
is acknowledged), and one spectator of the first. PostgreSQL is stopped (pg_ctl, fast) for
AWAY seconds, then started again. Printed: the spectator's session's ticks and frames per
second before the outage and past the lease during it (from lease + 1 s to the end), each
process's queue of writes at the end of the outage, the seconds from PostgreSQL's start to
every process healthy with its queue written, and inputs sent, acknowledged and in the log.
With BEFORE_BIN, the same run is made first with that binary (the reference), in the same run.
Everything is started here (scripts/cluster.py) on free ports and stopped at the end.
"""
import asyncio
import json
import os
import pathlib
import sys
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import cluster as clusters  # noqa: E402

from websockets.asyncio.client import connect  # noqa: E402

AWAY = float(os.environ.get("AWAY", "30"))
SESSIONS = int(os.environ.get("SESSIONS", "6"))
# NB: `run` sets the binary the cluster starts; this one is measured last.
AFTER_BIN = clusters.BINARY


def say(line):
    print(line, flush=True)


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


async def outage(cluster):
    ws_url = "ws://" + cluster.url[len("http://"):]
    sessions = [post(cluster.url + "/api/sessions", {"kind": "bouncing-balls"}) for _ in range(SESSIONS)]
    frames, acked, sent = [], [0], [0]

    async def read(ws, spectator):
        async for raw in ws:
            message = json.loads(raw)
            if spectator and message["type"] == "frame":
                frames.append((time.monotonic(), message["tick"]))
            elif message["type"] == "ack":
                acked[0] += 1

    spectator = await connect(f"{ws_url}/ws/sessions/{sessions[0]['id']}", max_queue=None)
    controllers = [await connect(f"{ws_url}/ws/sessions/{s['id']}?token={s['token']}", max_queue=None)
                   for s in sessions]
    readers = [asyncio.create_task(read(spectator, True))]
    readers += [asyncio.create_task(read(ws, False)) for ws in controllers]

    async def send(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for ws in controllers:
                await ws.send(json.dumps({"type": "add-ball", "x": 60, "y": 60, "vx": 1, "vy": 1, "id": sent[0]}))
                sent[0] += 1
            await asyncio.sleep(0.1)

    def rate(start, end):
        seen = [tick for at, tick in frames if start <= at < end]
        if len(seen) < 2:
            return "0 ticks/s, 0 frames/s"
        return f"{(seen[-1] - seen[0]) / (end - start):.1f} ticks/s, {len(seen) / (end - start):.1f} frames/s"

    try:
        await send(3)
        began = time.monotonic()
        await asyncio.to_thread(cluster.postgres.stop)
        stopped = time.monotonic()
        await send(AWAY - (stopped - began))
        healths = [get(f"http://{p.address}/healthz") for p in cluster.processes]
        ended = time.monotonic()
        await asyncio.to_thread(cluster.postgres.start)
        started = time.monotonic()
        healthy = None
        while time.monotonic() < started + 60:
            await send(0.2)
            now = [get(f"http://{p.address}/healthz") for p in cluster.processes]
            if all(h["status"] == "ok" and h.get("pendingWrites", {}).get("inputs", 0) == 0 for h in now):
                healthy = time.monotonic() - started
                break
        await send(1)
    finally:
        for ws in controllers + [spectator]:
            await ws.close()
        for reader in readers:
            reader.cancel()
    logged = 0
    for session in sessions:
        page = get(f"{cluster.url}/api/sessions/{session['id']}/inputs?token={session['token']}")
        logged += len(page.get("inputs", []))
    return {
        "before": rate(began - 3, began),
        "during": rate(began + clusters.LEASE_SECONDS + 1, ended),
        "queues": ", ".join(str(h.get("pendingWrites", {}).get("inputs", "?")) for h in healths),
        "statuses": ", ".join(h["status"] for h in healths),
        "healthy": f"{healthy:.2f} s" if healthy is not None else "not within 60 s",
        "inputs": f"{sent[0]} sent, {acked[0]} acknowledged, {logged} in the log",
    }


def run(binary, label):
    before = load()
    # NB: the binary is handed to the cluster; setting `clusters.BINARY` (as before) started
    # the default build for both binaries.
    cluster = clusters.Cluster(2, binary=binary)
    try:
        figures = asyncio.run(outage(cluster))
    finally:
        cluster.stop()
    say(f"| {label}: before the outage | {figures['before']} | {before} |")
    say(f"| {label}: past the lease, PostgreSQL away | {figures['during']} | {load()} |")
    say(f"| {label}: inputs queued per process at the end; /healthz | {figures['queues']}; {figures['statuses']} | |")
    say(f"| {label}: PostgreSQL started to every process ok, queue written | {figures['healthy']} | |")
    say(f"| {label}: inputs | {figures['inputs']} | {load()} |")


def main():
    say(f"# PostgreSQL away {AWAY:g} s, {SESSIONS} sessions at 10 inputs/s each, 2 processes behind nginx")
    say("| what | figure | load average |")
    say("|---|---|---|")
    if os.environ.get("BEFORE_BIN"):
        run(os.environ["BEFORE_BIN"], "BEFORE")
    run(AFTER_BIN, "AFTER")


if __name__ == "__main__":
    main()
