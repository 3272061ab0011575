#!/usr/bin/env python3
"""Tiles over HTTP, end to end, against a freshly started server (so its tile cache is cold):

1. the 64 level-3 tiles at iter=1000, one after another over one keep-alive connection: cold,
   then again from the cache (the issue's bar: no slower than C AVX-512 computing them);
2. throughput: the 1024 level-5 tiles at iter=1000 over CONNECTIONS keep-alive connections
   (default 4), cold, then cached, in tiles per second.

    python3 Benchmarks/tiles/over_http.py PORT [CONNECTIONS]

For cached throughput without a Python client in the way, also run
`wrk -t2 -c64 -d10s 'http://127.0.0.1:PORT/tiles/mandelbrot/3/2/3.png?iter=1000'`.
"""
import http.client
import sys
import threading
import time


def fetch(connection, paths):
    total = 0
    for path in paths:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"{path}: HTTP {response.status}")
        total += len(body)
    return total


def in_parallel(port, paths, connections):
    shares = [paths[i::connections] for i in range(connections)]
    clients = [http.client.HTTPConnection("127.0.0.1", port) for _ in shares]
    threads = [threading.Thread(target=fetch, args=(c, s)) for c, s in zip(clients, shares)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def main():
    port = int(sys.argv[1])
    connections = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    level3 = [f"/tiles/mandelbrot/3/{x}/{y}.png?iter=1000" for y in range(8) for x in range(8)]
    connection = http.client.HTTPConnection("127.0.0.1", port)
    start = time.perf_counter()
    total = fetch(connection, level3)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    fetch(connection, level3)
    cached = time.perf_counter() - start
    print(f"64 level-3 tiles, one connection: cold {cold * 1000:.0f} ms ({total} bytes), "
          f"cached {cached * 1000:.1f} ms")

    level5 = [f"/tiles/mandelbrot/5/{x}/{y}.png?iter=1000" for y in range(32) for x in range(32)]
    cold = in_parallel(port, level5, connections)
    cached = in_parallel(port, level5, connections)
    print(f"1024 level-5 tiles, {connections} connections: cold {len(level5) / cold:.0f} tiles/s "
          f"({cold:.2f} s), cached {len(level5) / cached:.0f} tiles/s")


if __name__ == "__main__":
    main()
