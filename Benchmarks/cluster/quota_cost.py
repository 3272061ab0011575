#!/usr/bin/env python3
"""The cost of cluster-wide session quotas per session create (issue 32), old binary beside new in
ONE run, alternating:

    .venv/bin/python Benchmarks/cluster/quota_cost.py OLD_BINARY NEW_BINARY [ROUNDS]

For each binary, ROUNDS times (default 3): PostgreSQL and one `playfield serve` (scripts/cluster.py),
then 20 rounds of one client creating 16 maze sessions (timed, one at a time, straight to the
process) and deleting them. Prints the median and 90th percentile create time of each binary
with the load average: the machine is shared, so compare only figures of one run.
"""
import pathlib
import statistics
import sys
import time
import json
import os
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import cluster as clusters  # noqa: E402


def http(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def creates(binary, count=20):
    """`count` rounds of 16 timed maze creates (then their deletes) on a fresh one-process
    cluster of `binary`: every create's seconds."""
    # NB: the binary is handed to the cluster; before, setting `clusters.BINARY` started the
    # default build for both "old" and "new".
    cluster = clusters.Cluster(1, binary=binary)
    try:
        url = f"http://{cluster.processes[0].address}"
        times = []
        for _ in range(count):
            made = []
            for _ in range(16):
                start = time.perf_counter()
                status, body = http("POST", url + "/api/sessions", {"kind": "maze", "config": {}})
                times.append(time.perf_counter() - start)
                assert status == 201, body
                made.append(body)
            for session in made:
                request = urllib.request.Request(
                    f"{url}/api/sessions/{session['id']}", method="DELETE",
                    headers={"Authorization": f"Bearer {session['token']}"})
                urllib.request.urlopen(request, timeout=10).read()
        return times
    finally:
        cluster.stop()


def main():
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    results = {old: [], new: []}
    for _ in range(rounds):
        for binary in (old, new):
            results[binary] += creates(binary)
    for label, binary in (("old", old), ("new", new)):
        times = sorted(results[binary])
        print(f"{label}: {len(times)} creates, median {statistics.median(times) * 1000:.2f} ms, "
              f"p90 {times[int(len(times) * 0.9)] * 1000:.2f} ms  (load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
