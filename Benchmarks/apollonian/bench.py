"""Times the spheres service beside the C reference (reference.c), in one run.

For levels 7, 8 and 10 on a fresh server: the first (cold) request of the binary form, which
computes the packing; then the first JSON and gzip-JSON requests (the packing is cached, the
encoding is not); then cached serves of each form (median of 7). Server-Timing gives the
server's own packing and encoding times. The reference computes the same packing and writes
the same JSON (printf %.17g) and binary into memory.

    swift build -c release --product playfield
    .venv/bin/python Benchmarks/apollonian/bench.py
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402
LEVELS = [7, 8, 10]


def get(url, headers=None):
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=300) as r:
        body = r.read()
        timing = r.headers.get("Server-Timing", "")
    return (time.perf_counter() - start) * 1e3, len(body), timing


def main():
    reference = pathlib.Path(tempfile.gettempdir()) / "apollonian-reference"
    subprocess.run(["cc", "-O2", "-o", str(reference), str(ROOT / "Benchmarks/apollonian/reference.c"), "-lm"],
                   check=True)
    server = Playfield()  # Tests/launcher.py: the release build, a fresh database
    url = server.url
    forms = {"binary": ("/api/spheres/1/{}.bin", {}), "json": ("/api/spheres/1/{}", {}),
             "json+gzip": ("/api/spheres/1/{}", {"Accept-Encoding": "gzip"})}
    try:
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        for level in LEVELS:
            for name, (path, headers) in forms.items():
                ms, size, timing = get(url + path.format(level), headers)
                print(f"level {level:2} {name:9} cold   {ms:8.1f} ms  {size:>10,} bytes  [{timing}]")
            for name, (path, headers) in forms.items():
                times = [get(url + path.format(level), headers)[0] for _ in range(7)]
                print(f"level {level:2} {name:9} cached {statistics.median(times):8.1f} ms (median of 7)")
        output = subprocess.run([str(reference), *map(str, LEVELS)], capture_output=True, text=True, check=True)
        print("C reference:\n" + output.stdout.rstrip())
        print(f"load average at end: {os.getloadavg()[0]:.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
