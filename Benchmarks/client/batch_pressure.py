#!/usr/bin/env python3
"""One client steps 4 vector environments of 64 holes sessions flat out (4 batch connections,
`frame_skip` 4) for 10 s while another client (127.0.0.2) runs a realtime holes session; prints
the env steps per second and the server's own word on its game loop over the run (`/healthz`:
ticks, dropped ticks, tick lateness of the last window, mean tick work). The watcher's count of
frames per second is printed too, but it runs in this process beside the four stepping threads
(one GIL), so its slowest second says more about Python than about the server.

    PYTHONPATH=clients/python/src .venv/bin/python Benchmarks/client/batch_pressure.py
        [--binary .build/release/playfield] [--text-steps]

`--text-steps` sends every step as a JSON text message instead of binary (as before binary
steps; needed against a server without them).
"""
import argparse
import json
import pathlib
import sys
import threading
import time
import urllib.request

import gymnasium
import numpy as np

import playfield_client.gym  # noqa: F401  (registers the ids)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests"))
import gym_steps  # noqa: E402
from launcher import Playfield  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEYS = ("ticks", "droppedTicks", "tickLatenessMs", "tickWorkMs")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "playfield"))
    parser.add_argument("--text-steps", action="store_true",
                        help="steps as JSON text messages instead of binary")
    args = parser.parse_args()
    playfield = Playfield(
        "--sessions-per-client", "300", "--max-sessions", "600",
        "--session-share", "100", "--inputs-per-session", "10000000",
        "--on-demand-sessions-per-client", "300",
        "--input-log-bytes", str(1 << 32), binary=args.binary)  # Tests/launcher.py
    try:
        url = playfield.url

        def health():
            with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
                return json.load(response)

        watcher = gym_steps.RealtimeWatcher(url)
        counts = []
        ready = threading.Barrier(5, timeout=120)
        # NB: the stepping is measured on its own; closing the 4 x 64 sessions after it (each
        # deleted) is reported apart.
        stepped, measured = threading.Barrier(5, timeout=120), threading.Event()

        def hammer():
            envs = gymnasium.make_vec("PlayfieldHoles-v0", num_envs=64, base_url=url,
                                      vectorization_mode="vector_entry_point", frame_skip=4)
            try:
                envs.reset(seed=0)
                envs.unwrapped.batch.binary_steps = not args.text_steps
                ready.wait()
                steps, end = 0, time.monotonic() + 10
                while time.monotonic() < end:
                    envs.step(np.zeros((64, 2), np.float32))
                    steps += 64
                counts.append(steps)
                stepped.wait()
                measured.wait(120)
            finally:
                envs.close()

        threads = [threading.Thread(target=hammer) for _ in range(4)]
        for thread in threads:
            thread.start()
        ready.wait()
        watcher.mark()
        started, before = time.monotonic(), health()
        stepped.wait()
        elapsed, after = time.monotonic() - started, health()
        rate, slowest = watcher.rates()
        measured.set()
        for thread in threads:
            thread.join()
        closed = health()
        watcher.close()
    finally:
        playfield.stop(timeout=15)
    print(f"4 x 64 envs, frame_skip 4: {sum(counts) / elapsed:,.0f} env steps/s over {elapsed:.1f} s")
    print(f"server game loop: {after['ticks'] - before['ticks']} ticks "
          f"({(after['ticks'] - before['ticks']) / elapsed:.1f}/s), "
          f"{after['droppedTicks'] - before['droppedTicks']} dropped; last window's lateness "
          f"{after['tickLatenessMs']}, mean tick work {after['tickWorkMs']:.2f} ms")
    print(f"watcher (same process): {rate:.1f} ticks/s, slowest second {slowest}")
    print(f"then closing the 4 x 64 environments (each session deleted): "
          f"{closed['droppedTicks'] - after['droppedTicks']} ticks dropped, lateness "
          f"{closed['tickLatenessMs']}")


if __name__ == "__main__":
    main()
