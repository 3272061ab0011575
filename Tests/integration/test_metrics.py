"""`GET /metrics` (issue 32): this process's figures in Prometheus' text exposition format, read
with the parser of the Python Prometheus client (`prometheus_client`), as a scraper would. The
cluster's nginx passes each process's through at /metrics/NAME (test_cluster.py)."""
import asyncio
import json

from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from deadline import receive_until_async, wait_until
from helpers import create_session, request
from test_session_quotas import watched

# Every family a process with a database has (a shared store adds the lease families).
FAMILIES = {
    "playfield_info": "gauge", "playfield_ticks": "counter", "playfield_dropped_ticks": "counter",
    "playfield_tick_work_seconds": "gauge", "playfield_tick_lateness_seconds": "gauge",
    "playfield_active_sessions": "gauge", "playfield_step_jobs_waiting": "gauge",
    "playfield_step_jobs_submitted": "counter", "playfield_step_jobs_refused": "counter",
    "playfield_step_jobs_finished": "counter", "playfield_step_jobs_cancelled": "counter",
    "playfield_step_slices": "counter", "playfield_steps": "counter", "playfield_sessions": "gauge",
    "playfield_writer_queue": "gauge", "playfield_writer_queue_bytes": "gauge",
    "playfield_writer_waiting_steps": "gauge", "playfield_writer_written_rows": "counter",
    "playfield_writer_written_bytes": "counter", "playfield_writer_failures": "gauge",
    "playfield_writer_refused_inputs": "counter", "playfield_input_commit_seconds": "summary",
    "playfield_refusals": "counter", "playfield_connections": "gauge",
    "playfield_queued_bytes": "gauge", "playfield_requests_waiting_for_readers": "gauge",
    "playfield_cold_cached_entries": "gauge", "playfield_cold_cached_bytes": "gauge",
    "playfield_cold_cache_hits": "counter", "playfield_cold_computed": "counter",
    "playfield_cold_jobs": "gauge",
}
LEASE_FAMILIES = {"playfield_leases_held": "gauge", "playfield_lease_renewals": "counter",
                  "playfield_leases_lost": "counter"}


def scrape(url):
    """The families of `url`'s exposition, by name (the parser drops `_total` from a counter's
    family name), each as {sample name and sorted labels: value}; with the response's headers."""
    status, headers, body = request(url)
    assert status == 200, body
    text = body.decode() if isinstance(body, bytes) else body
    families = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = (family.type, {(s.name, tuple(sorted(s.labels.items()))): s.value
                                               for s in family.samples})
    return families, headers


def value(families, family, sample=None, **labels):
    return families[family][1][(sample or family, tuple(sorted(labels.items())))]


def test_metrics_in_prometheus_text_format(start_playfield):
    server = start_playfield("--sessions-per-client", "2")
    sessions = [create_session(server, "bouncing-balls") for _ in range(2)]
    # Two watched: a third is refused (sessions-per-client); two idle: a third parks one.
    status, _, body = watched(server, sessions, lambda: request(server.url + "/api/sessions", "POST",
                                                                {"kind": "bouncing-balls"}))
    assert status == 429, body
    idle = [create_session(server, "bouncing-balls") for _ in range(1)]
    assert len(request(server.url + "/api/sessions")[2]["sessions"]) == 2, "one parked"

    async def send_inputs():
        session = sessions[0]
        async with connect(f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}") as ws:
            for n in range(3):
                await ws.send(json.dumps({"type": "add-ball", "x": 50 + n, "y": 50, "vx": 1, "vy": 1, "id": n}))
                await receive_until_async(ws, lambda m: m.get("type") == "ack", 10, "the ack")
    asyncio.run(send_inputs())
    tile = server.url + "/tiles/mandelbrot/0/0/0.png"
    assert request(tile)[0] == 200 and request(tile)[0] == 200

    # NB: the writer commits every 250 ms; a busy machine may take longer.
    wait_until(lambda: value(scrape(server.url + "/metrics")[0], "playfield_input_commit_seconds",
                             "playfield_input_commit_seconds_count") >= 1, 20, "an input commit counted")
    families, headers = scrape(server.url + "/metrics")
    assert headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert {name: kind for name, (kind, _) in families.items()} == FAMILIES
    assert value(families, "playfield_info", shard="") == 1
    assert value(families, "playfield_sessions", state="live") == 2
    assert value(families, "playfield_sessions", state="parked") == 1 and idle
    assert value(families, "playfield_refusals", "playfield_refusals_total", limit="sessions-per-client") == 1
    assert value(families, "playfield_cold_computed", "playfield_cold_computed_total", service="tiles") == 1
    assert value(families, "playfield_cold_cache_hits", "playfield_cold_cache_hits_total", service="tiles") == 1
    assert value(families, "playfield_cold_cached_entries", service="tiles") == 1
    assert value(families, "playfield_cold_computed", "playfield_cold_computed_total", service="spheres") == 0
    assert value(families, "playfield_writer_queue", kind="inputs") >= 0
    assert value(families, "playfield_connections") >= 1, "this scrape's own connection"
    commit = families["playfield_input_commit_seconds"][1]
    assert {labels for (name, labels) in commit if name == "playfield_input_commit_seconds"} == \
        {(("quantile", q),) for q in ("0.5", "0.99", "1")}
    assert value(families, "playfield_input_commit_seconds", "playfield_input_commit_seconds_sum") > 0
    ticks = value(families, "playfield_ticks", "playfield_ticks_total")
    assert ticks > 0
    wait_until(lambda: value(scrape(server.url + "/metrics")[0], "playfield_ticks", "playfield_ticks_total") > ticks,
               10, "the tick counter rising")
    # /healthz stays the one for people and load balancers.
    status, _, health = request(server.url + "/healthz")
    assert status == 200 and health["status"] == "ok"

