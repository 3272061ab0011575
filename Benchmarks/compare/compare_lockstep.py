"""Issue 34: a compare group of four 1,000-ball panes beside another client's session, and
beside a third client flooding the step scheduler.

    playfield serve --port 8100 --database /tmp/bench.db \\
        [--sessions-per-client 80 --session-share 100 --on-demand-sessions-per-client 80] &
    python3 Benchmarks/compare/compare_lockstep.py http://127.0.0.1:8100 [SECONDS] [identical]
        [--flood vector|compare]

Creates a bystander bouncing-balls session (realtime, 2 balls) from 127.0.0.1 and watches its
frames; creates a compare group of four 1,000-ball panes (restitution 1, 0.95, 0.9, 0.85; with
`identical`, all 1.0, so that the frames are compared at every tick) from 127.0.0.2, another
client, plays it at 1x and watches its `frames`. Prints the ticks/s each reached over SECONDS,
the game loop's dropped ticks and lateness, and the step scheduler's CPU per second of wall
time: the group's (its `compare` jobs) when nothing else submits jobs, all of it with `--flood`.

`--flood` adds a third client, 127.0.0.3, that floods the step scheduler from 3 s before the
watch to its end: `vector` steps a 64-env `PlayfieldHoles-v0` vector env flat out (in a process
of its own; needs `gymnasium` and the Python client on `PYTHONPATH`, and the session options
above on the server); `compare` makes the 4 compare groups a client may have, each of four
1,000-ball panes, and plays them all at 8x, which asks for far more than the machine has.

NB: every connection binds its source address. On Linux a connection to 127.0.0.2 still comes
from 127.0.0.1 unless it does, and the server would see one client. Needs `websockets`.
"""
import argparse
import asyncio
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from websockets.asyncio.client import connect

PANES = {"balls": 1000, "width": 2000, "height": 2000, "radiusMin": 4, "radiusMax": 8}
BYSTANDER, GROUP, FLOOD = "127.0.0.1", "127.0.0.2", "127.0.0.3"


def call(base, method, path, source, body=None):
    """One HTTP request to `base` from the address `source`: the answer's JSON."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30,
                                            source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        if response.status >= 400:
            raise RuntimeError(f"{method} {path} from {source}: {response.status} {answer}")
        return answer
    finally:
        connection.close()


def group(base, variants, source, seed=1):
    return call(base, "POST", "/api/compare", source,
                {"kind": "bouncing-balls", "seed": seed, "config": PANES, "variants": variants,
                 "ticks": 36000})


async def watch(url, kind, seconds, source, start=()):
    """Ticks seen per second on `url` over `seconds` (after the first frame)."""
    async with connect(url, max_size=None, max_queue=None, local_addr=(source, 0)) as ws:
        for message in start:
            await ws.send(json.dumps(message))
        first = last = began = end = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != kind:
                continue
            now = time.monotonic()
            if first is None:
                first, began, end = message["tick"], now, now + seconds
            last = message["tick"]
            if now >= end:
                return (last - first) / (now - began)


def vector_worker(base, source, seconds):
    """In a process of its own (`--vector-worker`): every connection from `source`, a 64-env
    vector env stepped flat out for `seconds`; prints its env steps per second."""
    plain = socket.create_connection
    socket.create_connection = lambda address, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, \
        source_address=None, **rest: plain(address, timeout, (source, 0), **rest)
    import gymnasium
    import playfield_client  # noqa: F401  (registers the ids)

    envs = gymnasium.make_vec("PlayfieldHoles-v0", num_envs=64,
                              vectorization_mode="vector_entry_point", base_url=base)
    try:
        envs.reset(seed=0)
        envs.unwrapped.batch.binary_steps = True
        envs.action_space.seed(0)
        steps, began = 0, time.monotonic()
        while time.monotonic() - began < seconds:
            envs.step(envs.action_space.sample())
            steps += 64
        print(f"{steps / (time.monotonic() - began):.0f}")
    finally:
        envs.close()


async def compare_flood(base, stop, reached):
    """Plays the 4 groups a client may have at 8x until `stop`; keeps the tick each reached."""
    variants = [{"restitution": r} for r in (1.0, 0.95, 0.9, 0.85)]
    groups = [group(base, variants, FLOOD, seed) for seed in range(2, 6)]
    ws_base = base.replace("http", "ws", 1)

    async def play(made):
        url = f"{ws_base}/ws/compare/{made['id']}?token={made['token']}"
        async with connect(url, max_size=None, max_queue=None, local_addr=(FLOOD, 0)) as ws:
            await ws.send(json.dumps({"type": "speed", "value": 8}))
            await ws.send(json.dumps({"type": "play"}))
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if message["type"] == "frames":
                    reached[made["id"]] = message["tick"]

    await asyncio.gather(*(play(made) for made in groups))


async def main(base, seconds, identical, flood):
    ws_base = base.replace("http", "ws", 1)
    bystander = call(base, "POST", "/api/sessions", BYSTANDER,
                     {"kind": "bouncing-balls", "config": {}})
    variants = [{"restitution": r} for r in ((1.0,) * 4 if identical else (1.0, 0.95, 0.9, 0.85))]
    made = group(base, variants, GROUP)
    stop = threading.Event()
    reached = {}
    worker = thread = None
    if flood == "vector":
        worker = subprocess.Popen(
            [sys.executable, __file__, base, "--vector-worker", FLOOD, str(seconds + 3)],
            stdout=subprocess.PIPE, text=True)
    elif flood == "compare":
        thread = threading.Thread(
            target=lambda: asyncio.run(compare_flood(base, stop, reached)))
        thread.start()
    if flood:
        await asyncio.sleep(3)
    before = call(base, "GET", "/healthz", BYSTANDER)
    began = time.monotonic()
    at_start = dict(reached)
    group_rate, bystander_rate = await asyncio.gather(
        watch(f"{ws_base}/ws/compare/{made['id']}?token={made['token']}", "frames", seconds,
              GROUP, start=[{"type": "play"}]),
        watch(f"{ws_base}/ws/sessions/{bystander['id']}", "frame", seconds, BYSTANDER))
    wall = time.monotonic() - began
    after = call(base, "GET", "/healthz", BYSTANDER)
    at_end = dict(reached)
    stop.set()
    if thread:
        thread.join(timeout=30)
    cpu = after["stepJobs"].get("cpuMs", 0) - before["stepJobs"].get("cpuMs", 0)
    jobs = {label: count - before["stepJobs"]["submitted"].get(label, 0)
            for label, count in after["stepJobs"]["submitted"].items()}
    print(f"compare group (4 x 1,000 balls{', identical' if identical else ''}): "
          f"{group_rate:.1f} ticks/s")
    print(f"bystander session:               {bystander_rate:.1f} ticks/s")
    print(f"dropped ticks: {after['droppedTicks'] - before['droppedTicks']}, lateness p50/p99 "
          f"{after['tickLatenessMs']['p50']:.2f}/{after['tickLatenessMs']['p99']:.2f} ms")
    whose = "all clients'" if flood else "the group's"
    print(f"scheduler CPU charged ({whose}): {cpu / wall:.0f} ms per s of wall time; "
          f"jobs admitted meanwhile: {jobs}")
    if worker:
        out, _ = worker.communicate(timeout=60)
        print(f"flood: a 64-env vector env at {out.strip() or '?'} env steps/s")
    elif flood:
        rates = [(at_end[k] - at_start.get(k, 0)) / wall for k in at_end]
        print(f"flood: {len(rates)} groups at 8x, {sum(rates) / max(len(rates), 1):.1f} ticks/s "
              f"each over the watch (asked: 480)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A compare group beside other clients.")
    parser.add_argument("base", help="the server, e.g. http://127.0.0.1:8100")
    parser.add_argument("seconds", nargs="?", type=float, default=10)
    parser.add_argument("identical", nargs="?", choices=["identical"])
    parser.add_argument("--flood", choices=["vector", "compare"])
    parser.add_argument("--vector-worker", nargs=2, metavar=("SOURCE", "SECONDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.vector_worker:
        vector_worker(args.base, args.vector_worker[0], float(args.vector_worker[1]))
    else:
        asyncio.run(main(args.base.rstrip("/"), args.seconds, bool(args.identical), args.flood))
