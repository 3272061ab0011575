"""How long one `/inputs` page of a big packed log takes, alone (docs/reliability.md, "Attack 8
passes"): a paintbrush session filled as attack 8 fills it (10,000 strokes of 256 points, sent
until every one is taken), then `--reads` GETs of its first page, one after another.

    .venv/bin/python Benchmarks/abuse/input_pages.py [--reads 8] BINARY [BINARY ...]

Each binary gets a server of its own (a fresh SQLite file); the median and every read's
seconds are printed per binary, so builds compare within one run."""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attacks  # noqa: E402
from common import Server, create, try_call  # noqa: E402


def measure(binary, reads):
    server = Server(binary).start()
    try:
        source = attacks.attacker(0)
        canvas = create(server.base, "paintbrush", {}, source)
        attacks.fill_canvas(server.base, canvas, source, 10000)
        path = f"/api/sessions/{canvas['id']}/inputs?token={canvas['token']}"
        seconds, body = [], b""
        for _ in range(reads):
            status, _, body, elapsed = try_call(server.base, path, "GET", None, source, None, 120)
            if status != 200:
                raise SystemExit(f"{binary}: the page answered {status}: {body[:200]!r}")
            seconds.append(elapsed)
        inputs = len(json.loads(body)["inputs"])
        print(f"{binary}: {inputs} inputs, {len(body) / 1e6:.2f} MB a page; median "
              f"{statistics.median(seconds):.3f} s of {reads} ({', '.join(f'{s:.3f}' for s in seconds)})",
              flush=True)
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=8)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    for binary in args.binaries:
        measure(binary, args.reads)


if __name__ == "__main__":
    main()
