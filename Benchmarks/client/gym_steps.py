#!/usr/bin/env python3
"""Steps per second of PlayfieldHoles-v0 over loopback with the blocking client, and the
server's CPU time per step.

    python3 Benchmarks/client/gym_steps.py [--steps 1200] [--envs 1] [--frame-skip 1]
        [--binary .build/release/playfield]

Starts its own server (port 0, a fresh database), measures the server's idle CPU for a few
seconds, then runs `--envs` environments at once (one thread each), every one for `--steps`
random actions from a fixed seed, and prints steps per second (all environments together),
the mean time of one `env.step`, and the server's CPU per step (user + system, from
/proc/PID/stat), with and without its idle game loop's share.
"""
import argparse
import os
import pathlib
import subprocess
import tempfile
import threading
import time

import gymnasium

import playfield_client.gym  # noqa: F401

ROOT = pathlib.Path(__file__).resolve().parents[2]
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User and system CPU seconds of a process, all threads."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND


def run_env(url, seed, steps, frame_skip, durations):
    env = gymnasium.make("PlayfieldHoles-v0", base_url=url, frame_skip=frame_skip)
    try:
        env.reset(seed=seed)
        env.action_space.seed(seed)
        for _ in range(steps):
            started = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            durations.append(time.perf_counter() - started)
            if terminated or truncated:
                env.reset()
    finally:
        env.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1200, help="steps per environment")
    parser.add_argument("--envs", type=int, default=1, help="environments at once")
    parser.add_argument("--frame-skip", type=int, default=1, help="ticks per step")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measurement")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "playfield"))
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="playfield-bench-")
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--database", os.path.join(directory, "bench.db")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        url = server.stdout.readline().decode().split(" on ", 1)[1].strip()
        cpu, wall = cpu_seconds(server.pid), time.monotonic()
        time.sleep(args.idle)
        idle_per_second = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - wall)

        durations = []
        threads = [threading.Thread(target=run_env,
                                    args=(url, seed, args.steps, args.frame_skip, durations))
                   for seed in range(args.envs)]
        cpu, wall, client = cpu_seconds(server.pid), time.monotonic(), time.process_time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - wall
        server_cpu = cpu_seconds(server.pid) - cpu
        client_cpu = time.process_time() - client
    finally:
        server.terminate()
        server.wait(15)

    steps = len(durations)
    durations.sort()
    print(f"{args.envs} env(s) x {args.steps} steps, frame_skip {args.frame_skip}:"
          f" {steps / elapsed:.1f} steps/s ({steps * args.frame_skip / elapsed:.0f} ticks/s)"
          f" in {elapsed:.1f} s")
    print(f"env.step: median {durations[steps // 2] * 1000:.2f} ms,"
          f" p99 {durations[int(steps * 0.99)] * 1000:.2f} ms")
    print(f"server CPU per step: {server_cpu / steps * 1e6:.0f} us"
          f" ({(server_cpu - idle_per_second * elapsed) / steps * 1e6:.0f} us above its idle"
          f" {idle_per_second * 1000:.1f} ms/s); client CPU per step:"
          f" {client_cpu / steps * 1e6:.0f} us")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
