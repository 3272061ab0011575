#!/usr/bin/env python3
"""The `plan` query's round trip over the session channel beside a `ping`'s (its reference:
the same socket, answered at once instead of on the next tick), for a page planning a turn.

    python3 Benchmarks/soccer/plan_query.py http://127.0.0.1:PORT [--count 300]

Needs a running server (release build). Each sample sends one message and waits for its answer
on one connection of a two-person match (home's seat); the plan asks after 0 to 2 planned moves.
Prints the median and the 90th percentile in ms.
"""
import argparse
import json
import statistics
import time
import urllib.parse
import urllib.request

from websockets.sync.client import connect


def create(base):
    body = json.dumps({"kind": "street-soccer", "config": {"away": "human"}}).encode()
    request = urllib.request.Request(base + "/api/sessions", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def round_trips(ws, make, count):
    samples = []
    for index in range(count):
        message = make(index)
        started = time.perf_counter()
        ws.send(json.dumps(message))
        while True:
            answer = json.loads(ws.recv(timeout=10))
            if answer.get("id") == message["id"] and answer["type"] in ("pong", "answer", "error"):
                break
        assert answer["type"] != "error", answer
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def summary(name, samples):
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(f"{name:6} median {statistics.median(ordered):6.2f} ms   p90 {p90:6.2f} ms   ({len(ordered)} samples)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    session = create(args.url)
    # NB: the seat's token is in the link's fragment (older builds: its query).
    link = urllib.parse.urlparse(session["urls"]["home"])
    home = urllib.parse.parse_qs(link.fragment or link.query)["token"][0]
    ws_url = "ws://" + args.url.split("://", 1)[1] + f"/ws/sessions/{session['id']}?token={home}"
    with connect(ws_url) as ws:
        json.loads(ws.recv(timeout=10))  # hello
        ws.send(json.dumps({"type": "plan", "side": "home", "moves": [], "id": "legal"}))
        while True:
            answer = json.loads(ws.recv(timeout=10))
            if answer.get("id") == "legal":
                break
        legal = answer["plan"]["legal"][:1]
        pings = round_trips(ws, lambda i: {"type": "ping", "id": f"g{i}"}, args.count)
        plans = round_trips(
            ws, lambda i: {"type": "plan", "side": "home", "moves": legal if i % 2 else [], "id": f"p{i}"},
            args.count)
    summary("ping", pings)
    summary("plan", plans)


if __name__ == "__main__":
    main()
