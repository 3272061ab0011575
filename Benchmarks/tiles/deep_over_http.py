#!/usr/bin/env python3
"""Deep tiles over HTTP, end to end: one cold tile at c = i at about 1e-300 (level 998) and
1e-600 (level 1995) with iter=10000, one at a time; then a 64-tile view (8 x 8 tiles around the
dendrite at c = i) at about 1e-100 (level 334) and 1e-300, iter=1000, over CONNECTIONS
keep-alive connections (default 6, a browser's per-host limit): cold (the server has neither
the tiles nor the reference orbits), then again from the tile cache.

    python3 Benchmarks/tiles/deep_over_http.py PORT [CONNECTIONS]

Start the server fresh (`playfield serve --port 0 ...`) so that the first pass is cold.
"""
import http.client
import sys
import threading
import time


def tile_of_i(zoom):
    """The tile of level `zoom` that contains c = i: X = floor(2^(Z+1)/3), Y = floor(2^Z/6)."""
    return (2 ** (zoom + 1)) // 3, (2 ** zoom) // 6


def view_paths(zoom, iterations):
    x, y = tile_of_i(zoom)
    return [f"/tiles/mandelbrot/{zoom}/{x + dx}/{y + dy}.png?iter={iterations}"
            for dy in range(-4, 4) for dx in range(-4, 4)]


def fetch(port, paths, sizes):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    for path in paths:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"{path}: HTTP {response.status} {body[:200]!r}")
        sizes.append(len(body))


def timed(port, paths, connections):
    shares = [paths[i::connections] for i in range(connections)]
    sizes = []
    threads = [threading.Thread(target=fetch, args=(port, share, sizes)) for share in shares]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, sum(sizes)


def cold_tile(port, zoom, iterations):
    """Seconds for one cold tile, and its Server-Timing header (when the server sends one)."""
    x, y = tile_of_i(zoom)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()
    connection.request("GET", f"/tiles/mandelbrot/{zoom}/{x}/{y}.png?iter={iterations}")
    response = connection.getresponse()
    body = response.read()
    seconds = time.perf_counter() - start
    if response.status != 200:
        sys.exit(f"{zoom}: HTTP {response.status} {body[:200]!r}")
    return seconds, response.getheader("Server-Timing", "-")


def main():
    port = int(sys.argv[1])
    connections = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    for zoom in (998, 1995):
        seconds, timing = cold_tile(port, zoom, 10000)
        print(f"BENCH http-cold-tile zoom={zoom} iter=10000 ms={seconds * 1e3:.0f}"
              f" server_timing={timing.replace(' ', '')}")
    for zoom in (334, 998):
        paths = view_paths(zoom, 1000)
        cold, size = timed(port, paths, connections)
        cached, _ = timed(port, paths, connections)
        print(f"BENCH http-view zoom={zoom} tiles=64 iter=1000 connections={connections}"
              f" cold_ms={cold * 1e3:.0f} cached_ms={cached * 1e3:.1f} bytes={size}")


if __name__ == "__main__":
    main()
