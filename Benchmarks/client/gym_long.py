#!/usr/bin/env python3
"""A long run of one 64-env vector environment flat out (issue 31): does it keep up, for how
long, at what cost? Prints env steps/s, the server's CPU per env step, input rows and bytes
committed per second, the writer queue's peak (`/healthz` `pendingWrites`), the server's
peak RSS, the error that ended the run if one did, and what another client saw meanwhile: its
realtime holes session's ticks per second (overall and in the slowest whole second) and how many
of its tilts, sent four times a second, the server refused.

    PYTHONPATH=clients/python/src .venv/bin/python Benchmarks/client/gym_long.py \
        [--vector 64] [--seconds 180] [--binary .build/release/playfield]
        [--database URL | --postgres]

Starts its own server as `gym_steps.py` does (port 0, a fresh SQLite file unless `--database`
names a PostgreSQL URL, or `--postgres` asks for a PostgreSQL server of its own, started as the
tests start theirs and stopped at the end; only the session counts raised, to fit the
environments; every other limit at its default) and samples `/healthz` and
`/proc/PID/status` once a second. Its temporary folder goes at the end.
"""
import argparse
import json
import os
import pathlib
import shutil
import sys
import tempfile
import threading
import time
import urllib.request

import gymnasium
import playfield_client  # noqa: F401  (registers the ids)

sys.path.insert(0, os.path.dirname(__file__))
from gym_steps import ROOT, RealtimeWatcher, cpu_seconds  # noqa: E402

sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import cluster  # noqa: E402  (scripts/cluster.py: Postgres)


class TiltingWatcher(RealtimeWatcher):
    """The other client: reads its frames (`RealtimeWatcher`), sends a tilt every 0.25 s and
    counts the errors the server answers."""

    def __init__(self, url):
        self.tilts = self.refused = 0  # NB: before the reader thread starts
        super().__init__(url)
        self.sender = threading.Thread(target=self._tilt, daemon=True)
        self.sender.start()

    def _tilt(self):
        while not self.stopping.wait(0.25):
            try:
                self.socket.send(json.dumps({"type": "tilt", "x": 0.1 * (self.tilts % 3 - 1),
                                             "y": 0.1}))
            except Exception:
                return
            self.tilts += 1

    def heard(self, message):
        if isinstance(message, str) and message.startswith('{"type":"error"'):
            self.refused += 1


def health(url):
    with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
        return json.load(response)


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) << 10
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vector", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "playfield"))
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--database", help="a PostgreSQL URL (default: a fresh SQLite file)")
    store.add_argument("--postgres", action="store_true",
                       help="a PostgreSQL server of its own, in a temporary folder")
    args = parser.parse_args()
    count = args.vector
    directory = tempfile.mkdtemp(prefix="playfield-long-")
    os.chmod(directory, 0o755)  # NB: PostgreSQL runs as its own user
    postgres = None
    if args.postgres:
        os.mkdir(os.path.join(directory, "pg"))
        postgres = cluster.Postgres(pathlib.Path(directory) / "pg")
    database = postgres.url if postgres else args.database or os.path.join(directory, "bench.db")
    playfield = Playfield(
        "--sessions-per-client", str(max(16, count + 2)), "--session-share", "100",
        "--max-sessions", str(max(256, 2 * count + 8)),
        "--on-demand-sessions-per-client", str(max(16, count + 2)),
        database=database, binary=args.binary)  # Tests/launcher.py
    server = playfield.process
    steps = [0]
    error = [None]
    stop = threading.Event()

    def run(url):
        try:
            envs = gymnasium.make_vec("PlayfieldHoles-v0", num_envs=count,
                                      vectorization_mode="vector_entry_point", base_url=url)
            try:
                envs.reset(seed=0)
                envs.unwrapped.batch.binary_steps = True
                envs.action_space.seed(0)
                while not stop.is_set():
                    envs.step(envs.action_space.sample())
                    steps[0] += 1
            finally:
                envs.close()
        except Exception as failure:  # noqa: BLE001 (reported below)
            error[0] = f"{type(failure).__name__}: {failure}"

    try:
        url = playfield.url
        watcher = TiltingWatcher(url)
        thread = threading.Thread(target=run, args=(url,))
        first = health(url).get("pendingWrites", {})
        cpu, wall = cpu_seconds(server.pid), time.monotonic()
        watcher.mark()
        thread.start()
        peak_bytes = peak_inputs = peak_rss = waiting = 0
        last = first
        while thread.is_alive() and time.monotonic() - wall < args.seconds:
            time.sleep(1)
            last = health(url).get("pendingWrites", {})
            peak_bytes = max(peak_bytes, last.get("bytes", 0))
            peak_inputs = max(peak_inputs, last.get("inputs", 0))
            waiting = max(waiting, last.get("waitingSteps", 0))
            peak_rss = max(peak_rss, rss(server.pid))
        stop.set()
        elapsed = time.monotonic() - wall
        during, slowest = watcher.rates()
        watcher.close()
        server_cpu = cpu_seconds(server.pid) - cpu
        thread.join(30)
        last = health(url).get("pendingWrites", {})
    finally:
        playfield.stop(timeout=15)
        if postgres:
            postgres.stop()
        shutil.rmtree(directory, ignore_errors=True)
    env_steps = steps[0] * count
    rows = last.get("writtenRows", 0) - first.get("writtenRows", 0)
    written = last.get("writtenBytes", 0) - first.get("writtenBytes", 0)
    print(f"1 vector env of {count}, {elapsed:.0f} s: {steps[0]} vector steps, "
          f"{env_steps / elapsed:.0f} env steps/s")
    print(f"server CPU per env step: {server_cpu / max(1, env_steps) * 1e6:.2f} us "
          f"({server_cpu / elapsed * 100:.0f}% of a core)")
    print(f"input rows committed: {rows / elapsed:.1f}/s, {written / elapsed / 1024:.1f} KiB/s"
          f" (0 from a binary without writtenRows)")
    print(f"writer queue peak (sampled each second): {peak_inputs} inputs, {peak_bytes} bytes;"
          f" the writer's own peak {last.get('peakBytes', 'n/a')} bytes of"
          f" {last.get('byteBound', last.get('inputBound', '?'))}; most steps waiting {waiting}")
    print(f"other client's realtime session: {during:.1f} ticks/s (slowest whole second "
          f"{slowest:.0f}); its tilts refused: {watcher.refused} of {watcher.tilts}")
    print(f"server peak RSS: {peak_rss / (1 << 20):.1f} MiB")
    print(f"error: {error[0] or 'none'}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
