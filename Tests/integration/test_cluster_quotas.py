"""Quotas of the cluster, not of a process (issue 32): through nginx, one client creating
watched sessions until refused is held to one client's `--sessions-per-client`, wherever nginx
sends each creation; a place freed on any process is free on all.

Starts its own cluster (scripts/cluster.py: PostgreSQL, three processes, nginx); skipped, saying
why, only when PostgreSQL's or nginx's binaries are missing (`make test-deps` installs them).
"""
import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from helpers import request
from test_cluster import start_cluster

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

PER_CLIENT = 4
IMPORTS_PER_MINUTE = 3


@pytest.fixture(scope="module")
def cluster():
    made = start_cluster(3, ["--sessions-per-client", str(PER_CLIENT),
                             "--recipe-imports-per-minute", str(IMPORTS_PER_MINUTE)])
    yield made
    made.stop()


async def watch(cluster, session):
    """A spectator of `session` through nginx, once its hello has come (the session is watched,
    so it is never parked to make room)."""
    ws = await connect(f"{cluster.ws_url}/ws/sessions/{session['id']}", open_timeout=10)
    hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert hello["type"] == "hello", hello
    return ws


def test_one_client_is_held_to_one_quota_across_the_processes(cluster):
    async def scenario():
        made, watchers, refused = [], [], None
        try:
            # NB: a bound on the whole loop: 3 processes' worth of places and one more.
            for _ in range(3 * PER_CLIENT + 1):
                status, _, body = request(f"{cluster.url}/api/sessions", "POST",
                                          {"kind": "maze", "config": {}})
                if status == 429:
                    refused = body
                    break
                assert status == 201, body
                made.append(body)
                watchers.append(await watch(cluster, body))
            shards = {session["id"].split(".", 1)[0] for session in made}
            assert len(made) == PER_CLIENT, (len(made), shards, refused)
            # The creations went to more than one process: the bound held across them.
            assert len(shards) > 1, shards
            assert "--sessions-per-client" in refused["error"], refused

            # Deleting one (on whichever process holds it) frees its place cluster-wide.
            gone = made.pop(0)
            await watchers.pop(0).close()
            status, _, body = request(f"{cluster.url}/api/sessions/{gone['id']}", "DELETE",
                                      headers={"Authorization": f"Bearer {gone['token']}"})
            assert status in (200, 204), body
            status, _, body = request(f"{cluster.url}/api/sessions", "POST",
                                      {"kind": "maze", "config": {}})
            assert status == 201, body
            watchers.append(await watch(cluster, body))
            status, _, body = request(f"{cluster.url}/api/sessions", "POST",
                                      {"kind": "maze", "config": {}})
            assert status == 429, body
        finally:
            for ws in watchers:
                await ws.close()

    asyncio.run(scenario())


def computed(cluster, shard, service):
    """`playfield_cold_computed_total` of `service` on process `shard` (through nginx)."""
    status, _, body = request(f"{cluster.url}/metrics/{shard}")
    assert status == 200, body
    text = body.decode() if isinstance(body, bytes) else str(body)
    for line in text.splitlines():
        if line.startswith("playfield_cold_computed_total{") and f'service="{service}"' in line:
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no cold_computed_total for {service} on {shard}: {text[:500]}")


def test_one_clients_tile_renders_all_go_to_one_process(cluster):
    # Cold work is routed by client address, so one process's --tile-renders-per-client is the
    # client's across the cluster.
    shards = [process.shard for process in cluster.processes]
    before = {shard: computed(cluster, shard, "tiles") for shard in shards}
    for x in range(6):
        status, head, _ = request(f"{cluster.url}/tiles/mandelbrot/3/{x}/2.png")
        assert status == 200
        assert head["X-Cache-Status"] == "MISS"
    rose = {shard: computed(cluster, shard, "tiles") - before[shard] for shard in shards}
    assert sorted(rose.values()) == [0, 0, 6], rose


def test_one_clients_recipe_imports_are_held_to_one_quota_across_the_processes(cluster):
    # Recipe imports are routed by client address too: through round robin, each of the three
    # processes let one client import --recipe-imports-per-minute pages.
    page = json.dumps({"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
                       "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}).encode()
    statuses = []
    for _ in range(IMPORTS_PER_MINUTE + 1):
        status, _, body = request(f"{cluster.url}/api/recipes/import", "POST", page,
                                  {"Content-Type": "application/ld+json"})
        statuses.append(status)
    assert statuses == [200] * IMPORTS_PER_MINUTE + [429], (statuses, body)
    assert "--recipe-imports-per-minute" in str(body), body
