#!/usr/bin/env python3
"""How soon a device on one process sees another process's device change a shopping list.

Two `playfield serve` processes (shards a and b) share a PostgreSQL server of their own (in a
temporary folder, as `make cluster` starts it); one recipe book; a device on each process. The
device on a adds an item, ROUNDS times, each after the last was seen; the script times from the
send to the list arriving on b's device, and, for scale, to it arriving back on a's own.

    python3 Benchmarks/cluster/shopping_latency.py [--rounds 40] [--binary PATH]

Needs PostgreSQL's server binaries (`make test-deps`) and the Python packages of
Tests/requirements.txt (run it with .venv/bin/python).
"""
import argparse
import asyncio
import http.client
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import cluster  # noqa: E402  (scripts/cluster.py: Postgres, Process)

from websockets.asyncio.client import connect  # noqa: E402


def make_book(address):
    soup = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
            "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("POST", "/api/recipes/import?save=1", json.dumps(soup),
                       {"Content-Type": "application/ld+json"})
    answer = connection.getresponse()
    saved = json.loads(answer.read())
    connection.close()
    if answer.status != 201:
        raise SystemExit(f"the recipe was not saved: {answer.status} {saved}")
    return saved["book"]["token"]


async def until(device, amount, deadline):
    """The time the list with `apples` at `amount` arrives on `device`."""
    while True:
        message = json.loads(await asyncio.wait_for(device.recv(), deadline - time.monotonic()))
        items = {i["name"]: i["amount"] for i in message.get("items", [])}
        if message["type"] == "list" and items.get("apples") == amount:
            return time.monotonic()


async def measure(first, second, token, rounds):
    own, other = [], []
    async with connect(f"ws://{first}/ws/recipes/shopping?token={token}") as a, \
            connect(f"ws://{second}/ws/recipes/shopping?token={token}") as b:
        for device in (a, b):
            json.loads(await asyncio.wait_for(device.recv(), 10))
        for amount in range(1, rounds + 1):
            sent = time.monotonic()
            await a.send(json.dumps({"type": "add", "items": [{"name": "apples", "amount": 1}]}))
            deadline = sent + 10
            seen_a, seen_b = await asyncio.gather(until(a, amount, deadline),
                                                  until(b, amount, deadline))
            own.append((seen_a - sent) * 1000)
            other.append((seen_b - sent) * 1000)
            await asyncio.sleep(0.05)
    return own, other


def summary(name, values):
    values = sorted(values)
    return (f"{name}: median {statistics.median(values):.1f} ms, "
            f"p90 {values[int(0.9 * (len(values) - 1))]:.1f} ms, max {values[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--binary", help="the playfield binary (default: the release build)")
    args = parser.parse_args()
    directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-shopping-"))
    os.chmod(directory, 0o755)  # NB: PostgreSQL runs as its own user
    (directory / "pg").mkdir()
    postgres = cluster.Postgres(directory / "pg")
    processes = []
    try:
        for shard in ("a", "b"):
            processes.append(cluster.Process(shard, postgres.url, directory, binary=args.binary))
        token = make_book(processes[0].address)
        own, other = asyncio.run(
            measure(processes[0].address, processes[1].address, token, args.rounds))
        print(f"{args.rounds} changes on process a's device:")
        print("  " + summary("seen on a (its own process)", own))
        print("  " + summary("seen on b (the other process)", other))
    finally:
        for process in processes:
            process.stop()
        postgres.stop()


if __name__ == "__main__":
    main()
