"""Issue 34: a compare group of four 1,000-ball panes beside another client's session.

    playfield serve --host 0.0.0.0 --port 8100 --database /tmp/bench.db &
    python3 Benchmarks/compare/compare_lockstep.py http://127.0.0.1:8100 [SECONDS] [identical]

Creates a bystander bouncing-balls session (realtime, 2 balls) from one client address and
watches its frames; creates a compare group of four 1,000-ball panes (restitution 1, 0.95, 0.9,
0.85; with `identical`, all 1.0, so that the frames are compared at every tick) from another address (127.0.0.2, so the scheduler sees two clients), plays it at 1x and
watches its `frames`. Prints the ticks/s each reached over SECONDS, the game loop's dropped ticks
and lateness, and the step scheduler's CPU (all of it the group's: the bystander is stepped on
the realtime tick), per second of wall time. Needs the `websockets` package.
"""
import asyncio
import json
import sys
import time
import urllib.request

from websockets.asyncio.client import connect


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def health(base):
    with urllib.request.urlopen(base + "/healthz", timeout=10) as response:
        return json.load(response)


async def watch(url, kind, seconds, start=None):
    """Ticks seen per second on `url` over `seconds` (after the first frame)."""
    async with connect(url, max_size=None, max_queue=None) as ws:
        if start:
            await ws.send(json.dumps(start))
        first = last = None
        began = None
        end = None
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


async def main(base, seconds, identical):
    ws_base = base.replace("http", "ws", 1)
    bystander = post(base + "/api/sessions", {"kind": "bouncing-balls", "config": {}})
    config = {"balls": 1000, "width": 2000, "height": 2000, "radiusMin": 4, "radiusMax": 8}
    variants = [{"restitution": r} for r in ((1.0,) * 4 if identical else (1.0, 0.95, 0.9, 0.85))]
    # NB: from another loopback address, so that the scheduler sees another client.
    group_base = base.replace("127.0.0.1", "127.0.0.2")
    group = post(group_base + "/api/compare",
                 {"kind": "bouncing-balls", "seed": 1, "config": config, "variants": variants,
                  "ticks": 36000})
    before = health(base)
    began = time.monotonic()
    group_rate, bystander_rate = await asyncio.gather(
        watch(f"{group_base.replace('http', 'ws', 1)}/ws/compare/{group['id']}?token={group['token']}",
              "frames", seconds, start={"type": "play"}),
        watch(f"{ws_base}/ws/sessions/{bystander['id']}", "frame", seconds))
    wall = time.monotonic() - began
    after = health(base)
    cpu = after["stepJobs"].get("cpuMs", 0) - before["stepJobs"].get("cpuMs", 0)
    print(f"compare group (4 x 1,000 balls{', identical' if identical else ''}): "
          f"{group_rate:.1f} ticks/s")
    print(f"bystander session:               {bystander_rate:.1f} ticks/s")
    print(f"dropped ticks: {after['droppedTicks'] - before['droppedTicks']}, "
          f"lateness p50/p99 {after['tickLatenessMs']['p50']:.2f}/{after['tickLatenessMs']['p99']:.2f} ms")
    print(f"scheduler CPU charged (the group's): {cpu / wall:.0f} ms per s of wall time "
          f"({after['stepJobs']['submitted'].get('compare', 0)} compare jobs in all)")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1].rstrip("/"), float(sys.argv[2]) if len(sys.argv) > 2 else 10,
                     "identical" in sys.argv[3:]))
