"""Heavy load (issue 17): do default-config sessions keep 60 ticks a second while another client
runs the heaviest sessions the quotas allow, and does a normal client still get a session, 60
frames a second and a cached tile quickly during and after a tile and sphere flood?

    swift build -c release --product playfield
    .venv/bin/python Benchmarks/abuse/heavy_load.py [--seconds 20] [--binary .build/release/playfield]

Each loopback address is one client (the quotas count by address):
- 127.0.0.2, the heavy client: first measures a few bouncing-balls configs at the limits of
  what a config may ask (10,000 balls, the fastest speed the substep limit allows, small and
  large balls) by the step cost each reports in `status.budget`, then creates as many of the
  heaviest as it may hold (`--sessions-per-client`, 16), each watched by a spectator that never
  reads (as an attacker would: the server's latest-only frames keep that cheap for it).
- 127.0.0.1, the normal client: default-config sessions of each kind, watched for `--seconds`;
  ticks/s is (last frame's tick - first frame's tick) / seconds, frames/s what arrived.
- 127.0.0.5 creates and deletes the heaviest session over and over for half as long, while the
  normal sessions are counted again.
- 127.0.0.3 floods cold tiles (100 at iter=100000), 127.0.0.4 cold sphere packings (50 radii of
  level 10 as gzipped JSON), while the normal client creates a session, counts its frames
  for 5 s and times a cached tile ten times; then again after the floods.
"""
import argparse
import asyncio
import concurrent.futures
import json
import statistics
import time

from common import (Server, call, demo_names, candidates, count_frames, create, delete,
                    first_status, flood, watch_without_reading, cached_tile_times)

HEAVY, TILES, SPHERES, CHURN = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"


async def normal_client_check(base, ws_base, tile, label):
    """Create a session (timed), count its frames for 5 s, time the cached tile."""
    started = time.perf_counter()
    session = await asyncio.to_thread(create, base, "bouncing-balls")
    create_ms = (time.perf_counter() - started) * 1000
    ticks, frames = await count_frames(ws_base, session, 5)
    times = await asyncio.to_thread(cached_tile_times, base, tile)
    print(f"{label}: create {create_ms:.1f} ms, {ticks:.1f} ticks/s, {frames:.1f} frames/s, cached tile "
          f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms", flush=True)
    await asyncio.to_thread(delete, base, session)
    return {"createMs": create_ms, "ticksPerSecond": ticks, "framesPerSecond": frames,
            "cachedTileMs": times}


async def main(args):
    server = Server(args.binary).start()
    # Every session demo that streams a frame a tick (the registry, `playfield demos`).
    kinds = demo_names(every_tick=True, binary=args.binary)
    base, ws_base = server.base, server.ws_base
    results = {"seconds": args.seconds}
    stop = asyncio.Event()
    try:
        tile = "/tiles/mandelbrot/3/0/2.png"
        assert call(base, tile)[0] == 200

        # Baseline: default sessions alone.
        normal = [await asyncio.to_thread(create, base, kind) for kind in kinds]
        baseline = await asyncio.gather(*(count_frames(ws_base, s, 5) for s in normal))
        results["baseline"] = dict(zip(kinds, baseline))
        print("alone (5 s):", {k: f"{t:.1f} ticks/s" for k, (t, _) in results["baseline"].items()}, flush=True)

        # Pick the heaviest allowed config by the cost each reports.
        costs = {}
        for name, config in candidates().items():
            session = await asyncio.to_thread(create, base, "bouncing-balls", config, HEAVY)
            await asyncio.sleep(3)
            costs[name] = (await first_status(ws_base, session))["budget"]["costMs"]
            await asyncio.to_thread(delete, base, session, HEAVY)
        heaviest = max(costs, key=costs.get)
        results["candidateCostMs"] = costs
        print("step cost of each candidate (ms):", costs, "-> heaviest:", heaviest, flush=True)

        # Each session is watched before the next is made, so none is idle (an idle unwatched
        # one would be parked to make room): the client holds all it may.
        heavy, watchers = [], []
        while len(heavy) < 64:
            status, _, raw, _ = await asyncio.to_thread(
                call, base, "/api/sessions", "POST",
                {"kind": "bouncing-balls", "config": candidates()[heaviest]}, HEAVY)
            if status != 201:
                results["heavyRefused"] = f"{status} {json.loads(raw).get('error')}"
                break
            heavy.append(json.loads(raw))
            watchers.append(asyncio.create_task(watch_without_reading(ws_base, heavy[-1], stop)))
            await asyncio.sleep(0.3)
        listed = {s["id"] for s in json.loads(call(base, "/api/sessions")[2])["sessions"]}
        results["heavySessions"] = sum(1 for s in heavy if s["id"] in listed)
        print(f"heavy client created {len(heavy)} sessions of '{heaviest}', {results['heavySessions']} "
              f"live (next create: {results.get('heavyRefused')})", flush=True)
        await asyncio.sleep(5)

        loaded = await asyncio.gather(*(count_frames(ws_base, s, args.seconds) for s in normal))
        results["underLoad"] = dict(zip(kinds, loaded))
        health = json.loads(call(base, "/healthz")[2])
        results["health"] = {k: health[k] for k in ("tickLatenessMs", "tickWorkMs", "droppedTicks")}
        results["throttled"] = sorted(set(health["throttled"].values()))
        budget = (await first_status(ws_base, heavy[0]))["budget"]
        results["heavyBudget"] = budget
        print(f"under load ({args.seconds} s):",
              {k: f"{t:.1f} ticks/s, {f:.1f} frames/s" for k, (t, f) in results["underLoad"].items()}, flush=True)
        print("a heavy session's status.budget:", budget, "; /healthz:", results["health"],
              "throttled intervals:", results["throttled"], flush=True)

        # Churn: another client creates and deletes the heaviest session over and over (a new
        # session's cost is unknown until its first step is measured).
        churned = 0

        async def churn():
            nonlocal churned
            deadline = time.perf_counter() + args.seconds / 2
            while time.perf_counter() < deadline:
                session = await asyncio.to_thread(create, base, "bouncing-balls", candidates()[heaviest], CHURN)
                await asyncio.sleep(0.05)
                await asyncio.to_thread(delete, base, session, CHURN)
                churned += 1

        churning = asyncio.create_task(churn())
        during_churn = await asyncio.gather(*(count_frames(ws_base, s, args.seconds / 2) for s in normal))
        await churning
        results["duringChurn"] = dict(zip(kinds, during_churn))
        results["churned"] = churned
        print(f"while another client created and deleted {churned} heaviest sessions ({args.seconds / 2:.0f} s):",
              {k: f"{t:.1f} ticks/s, {f:.1f} frames/s" for k, (t, f) in results["duringChurn"].items()}, flush=True)

        # Floods, while the heavy sessions still run.
        tiles = [f"/tiles/mandelbrot/8/{100 + i}/{90 + i % 7}.png?iter=100000" for i in range(100)]
        spheres = [f"/api/spheres/{radius}/10" for radius in range(1, 51)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            tile_flood = pool.submit(flood, base, tiles, TILES)
            sphere_flood = pool.submit(flood, base, spheres, SPHERES, {"Accept-Encoding": "gzip"})
            await asyncio.sleep(0.5)
            results["duringFlood"] = await normal_client_check(base, ws_base, tile, "during the floods")
            results["tileFlood"], results["sphereFlood"] = tile_flood.result(), sphere_flood.result()
        print("tile flood statuses:", results["tileFlood"], "sphere flood statuses:", results["sphereFlood"], flush=True)
        results["afterFlood"] = await normal_client_check(base, ws_base, tile, "after the floods")
    finally:
        stop.set()
        server.stop()
        server.remove()
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--binary", default=".build/release/playfield")
    parser.add_argument("--json", help="also write the figures to this file")
    asyncio.run(main(parser.parse_args()))
