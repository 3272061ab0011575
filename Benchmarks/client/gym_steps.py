#!/usr/bin/env python3
"""Steps per second of PlayfieldHoles-v0 over loopback, beside two anchors measured in the same
run: Gymnasium's CartPole-v1 and the holes step in plain NumPy, both in process; and the
server's CPU time per step.

    python3 Benchmarks/client/gym_steps.py [--steps 3000] [--envs 1] [--vector 0]
        [--frame-skip 1] [--realtime] [--binary .build/release/playfield] [--perf FILE]
        [--text-steps]

Starts its own server (port 0, a fresh database, `--sessions-per-client`, `--session-share`,
`--max-sessions` and `--on-demand-sessions-per-client` raised to fit the environments; the
input-log limits are the defaults, as an on-demand session's log is compacted behind its
snapshots), measures the server's idle CPU for a few seconds, then either runs `--envs`
single environments at once (one thread each) or, with `--vector N`, one vector environment of
N (`gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`), for `--steps` random
actions from a fixed seed, and prints steps per second (all environments together), the mean
time of one step call, and the server's CPU per environment step: the whole process (user +
system, from /proc/PID/stat, with and without its idle game loop's share) and the on-demand
stepping thread alone (`/healthz` `onDemand.cpuMs`: the models' steps, the frames' encoding,
the log). `--realtime` uses realtime
sessions (one step per 60 Hz tick), as before on-demand sessions.

`--suite` measures everything the issue asks for in ONE run against one server: one
environment for `--steps`, then one vector environment of `--vector` (default 64) for
`--vector-steps` while ANOTHER client (address 127.0.0.2) watches its own realtime holes session
and counts its ticks per second from the frames; then the anchors for 1 and for `--vector`
tables. It prints one Markdown table.
"""
import argparse
import bisect
import json
import math
import os
import pathlib
import http.client
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import gymnasium
import numpy as np

import playfield_client  # noqa: F401  (registers the ids)

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
# `--perf FILE`: `perf record -g` of the server over each measured run (the last one stays).
PERF_OUTPUT = None
# `--text-steps`: on-demand environments send their steps as JSON text, not binary.
TEXT_STEPS = False


def cpu_seconds(pid):
    """User and system CPU seconds of a process, all threads."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND


def on_demand_cpu(url):
    """CPU milliseconds the server's on-demand steps used so far (`/healthz`)."""
    with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
        return json.load(response).get("onDemand", {}).get("cpuMs", 0.0)


def run_env(url, seed, steps, options, durations):
    env = gymnasium.make("PlayfieldHoles-v0", base_url=url, **options)
    try:
        env.reset(seed=seed)
        if env.unwrapped.batch is not None:
            env.unwrapped.batch.binary_steps = not TEXT_STEPS
        env.action_space.seed(seed)
        for _ in range(steps):
            started = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            durations.append(time.perf_counter() - started)
            if terminated or truncated:
                env.reset()
    finally:
        env.close()


def run_vector(url, count, steps, options, durations):
    envs = gymnasium.make_vec("PlayfieldHoles-v0", num_envs=count,
                              vectorization_mode="vector_entry_point", base_url=url, **options)
    try:
        envs.reset(seed=0)
        # NB: after reset, which opens the connection; autoresets keep it.
        envs.unwrapped.batch.binary_steps = not TEXT_STEPS
        envs.action_space.seed(0)
        for _ in range(steps):
            started = time.perf_counter()
            envs.step(envs.action_space.sample())
            durations.append(time.perf_counter() - started)
    finally:
        envs.close()


class RealtimeWatcher:
    """Another client (its own address, 127.0.0.2) with a realtime holes session, running, whose
    frames it reads on its own connection: the ticks per second the server gave it, overall and
    in the slowest whole second."""

    def __init__(self, url, address="127.0.0.2"):
        from websockets.sync.client import connect

        host, port = url.split("//", 1)[1].rsplit(":", 1)
        self.port = int(port)
        connection = http.client.HTTPConnection(host, self.port, timeout=10,
                                                source_address=(address, 0))
        connection.request("POST", "/api/sessions", json.dumps({"kind": "holes"}),
                           {"Content-Type": "application/json"})
        body = json.loads(connection.getresponse().read())
        connection.close()
        self.id, token = body["id"], body["token"]
        raw = socket.create_connection((host, self.port), timeout=10,
                                       source_address=(address, 0))
        self.socket = connect(f"ws://{host}:{self.port}/ws/sessions/{self.id}", sock=raw,
                              additional_headers={"Authorization": "Bearer " + token},
                              compression=None).__enter__()
        self.socket.send(json.dumps({"type": "start"}))
        self.samples = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.stopping.is_set():
            try:
                message = self.socket.recv(timeout=1)
            except TimeoutError:
                continue
            except Exception:
                return
            if isinstance(message, str) and message.startswith('{"type":"frame"'):
                self.samples.append((time.monotonic(), json.loads(message)["tick"]))
            else:
                self.heard(message)

    def heard(self, message):
        """Any other message (a subclass may count them)."""

    def mark(self):
        self.samples.clear()

    def rates(self):
        """Ticks per second since `mark()`, and in the slowest whole second."""
        samples = list(self.samples)
        if len(samples) < 2:
            return 0.0, 0.0
        (t0, k0), (t1, k1) = samples[0], samples[-1]
        times = [t for t, _ in samples]
        seconds = []
        for k in range(int(t1 - t0)):
            # The last frame at or before each end of the k-th whole second (within a frame).
            first = bisect.bisect_right(times, t0 + k) - 1
            last = bisect.bisect_right(times, t0 + k + 1) - 1
            seconds.append(samples[last][1] - samples[first][1])
        return (k1 - k0) / (t1 - t0), (min(seconds) if seconds else 0.0)

    def close(self):
        self.stopping.set()
        self.thread.join(5)
        self.socket.__exit__(None, None, None)


def measure(server, url, threads, durations):
    """Runs `threads`; the wall time, the server's CPU seconds, the client's and the on-demand
    stepping's over the run."""
    stepping = on_demand_cpu(url)
    profiler = None
    if PERF_OUTPUT:
        profiler = subprocess.Popen(["perf", "record", "-g", "-o", PERF_OUTPUT, "-p",
                                     str(server.pid)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    cpu, wall, client = cpu_seconds(server.pid), time.monotonic(), time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - wall
    if profiler:
        profiler.send_signal(signal.SIGINT)
        profiler.wait(30)
    return (elapsed, cpu_seconds(server.pid) - cpu, time.process_time() - client,
            (on_demand_cpu(url) - stepping) / 1000)


def suite(args, server, url, idle_per_second):
    """The issue's measurements in one run; prints a Markdown table."""
    rows = []
    durations = []
    threads = [threading.Thread(target=run_env, args=(url, 0, args.steps, {}, durations))]
    elapsed, server_cpu, client_cpu, stepping = measure(server, url, threads, durations)
    rows.append((f"1 env, {args.steps} steps", args.steps / elapsed, durations,
                 server_cpu / args.steps, (server_cpu - idle_per_second * elapsed) / args.steps,
                 client_cpu / args.steps, "-"))
    watcher = RealtimeWatcher(url)
    try:
        time.sleep(1.5)
        before, _ = watcher.rates()
        watcher.mark()
        durations = []
        count = args.vector or 64
        threads = [threading.Thread(target=run_vector,
                                    args=(url, count, args.vector_steps, {}, durations))]
        elapsed, server_cpu, client_cpu, stepping = measure(server, url, threads, durations)
        during, slowest = watcher.rates()
    finally:
        watcher.close()
    steps = args.vector_steps * count
    rows.append((f"vector of {count}, {args.vector_steps} steps", steps / elapsed, durations,
                 server_cpu / steps, (server_cpu - idle_per_second * elapsed) / steps,
                 client_cpu / steps, f"{during:.1f} (slowest second {slowest:.0f}; "
                 f"before {before:.1f})"))
    anchors = max(2000, args.steps)
    print("| run | env steps/s | step call median / p99 | server CPU per env step "
          "(process / above idle) | client CPU per env step | other client's realtime "
          "ticks/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rate, calls, cpu, above, client, ticks in rows:
        calls.sort()
        print(f"| {name} | {rate:,.0f} | {calls[len(calls) // 2] * 1000:.3f} / "
              f"{calls[int(len(calls) * 0.99)] * 1000:.2f} ms | {cpu * 1e6:.1f} / {above * 1e6:.1f}"
              f" µs | {client * 1e6:.1f} µs | {ticks} |")
    count = args.vector or 64
    print(f"| CartPole-v1 in process, 1 env | {cartpole_rate(anchors, 1):,.0f} | | | | |")
    print(f"| CartPole-v1 in process, vector of {count} | "
          f"{cartpole_rate(max(200, args.vector_steps), count):,.0f} | | | | |")
    print(f"| NumPy holes in process, 1 table | {numpy_rate(anchors, 1):,.0f} | | | | |")
    print(f"| NumPy holes in process, {count} tables | "
          f"{numpy_rate(max(200, args.vector_steps), count):,.0f} | | | | |")
    print(f"\nidle server: {idle_per_second * 1000:.1f} ms CPU/s; "
          f"load average at the end: {os.getloadavg()[0]:.2f}")


def cartpole_rate(steps, count):
    """CartPole-v1 in process: one environment, or a vector of `count` (its own vectorised
    implementation) when count > 1; environment steps per second."""
    if count == 1:
        env = gymnasium.make("CartPole-v1")
        env.reset(seed=0)
        env.action_space.seed(0)
        started = time.perf_counter()
        for _ in range(steps):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                env.reset()
        return steps / (time.perf_counter() - started)
    envs = gymnasium.make_vec("CartPole-v1", num_envs=count,
                              vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.action_space.seed(0)
    started = time.perf_counter()
    for _ in range(steps):
        envs.step(envs.action_space.sample())
    return steps * count / (time.perf_counter() - started)


class NumpyHoles:
    """The holes step of Sources/Simulation/Holes/Holes+Step.swift in NumPy, for `count` tables
    at once (default config; pauses and levels left out): move, bounce off the edges, pull and
    capture by the rotating holes, the flag, accelerate."""

    def __init__(self, count):
        self.width, self.height, self.radius = 320.0, 480.0, 15.0
        self.holes = np.array([[0.2, 0.2], [0.8, 0.2], [0.5, 0.5], [0.2, 0.8], [0.8, 0.8]])
        self.offsets = self.holes * [self.width, self.height] - [self.width / 2, self.height / 2]
        self.count = count
        self.position = np.tile([self.width - self.radius, self.height - self.radius], (count, 1))
        self.velocity = np.zeros((count, 2))
        self.angle = np.zeros(count)
        self.speed = np.full(count, 1 / (1000 * math.pi))

    def step(self, tilt):
        dt = 1 / 60
        self.angle += self.speed
        self.position += self.velocity * dt
        low, high = self.radius, np.array([self.width, self.height]) - self.radius
        over, under = self.position > high, self.position < low
        self.position = np.clip(self.position, low, high)
        self.velocity = np.where(over, -np.abs(self.velocity) * 0.45,
                                 np.where(under, np.abs(self.velocity) * 0.45, self.velocity))
        cosine, sine = np.cos(self.angle)[:, None], np.sin(self.angle)[:, None]
        centres = np.stack([self.offsets[:, 0] * cosine - self.offsets[:, 1] * sine,
                            self.offsets[:, 0] * sine + self.offsets[:, 1] * cosine], axis=2)
        centres += [self.width / 2, self.height / 2]
        offset = centres - self.position[:, None, :]
        distance = np.hypot(offset[..., 0], offset[..., 1])
        reach = distance / 25.0
        near = reach < 1
        pull = np.where(near[..., None],
                        offset * (0.5 / (reach * reach) / distance)[..., None], 0).sum(axis=1)
        kept = np.where(near, 0.8, 1.0).prod(axis=1)
        captured = (reach <= 0.1).any(axis=1)
        scored = (self.position < self.radius * 1.1).all(axis=1)
        acceleration = np.stack([tilt[:, 0], -tilt[:, 1]], axis=1) + pull
        self.velocity = self.velocity * kept[:, None] + acceleration * (360.0 * dt)
        restart = captured | scored
        self.position[restart] = [self.width - self.radius, self.height - self.radius]
        self.velocity[restart] = 0
        observation = np.concatenate([self.position, self.velocity, centres.reshape(self.count, -1)],
                                     axis=1).astype(np.float32)
        return observation, scored.astype(np.float64) - captured, captured


def numpy_rate(steps, count):
    """Environment steps per second of `NumpyHoles` for `count` tables, random tilts."""
    holes = NumpyHoles(count)
    random = np.random.default_rng(0)
    started = time.perf_counter()
    for _ in range(steps):
        holes.step(random.uniform(-1, 1, (count, 2)))
    return steps * count / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps per environment")
    parser.add_argument("--envs", type=int, default=1, help="single environments at once")
    parser.add_argument("--vector", type=int, default=0, help="one vector environment of N")
    parser.add_argument("--frame-skip", type=int, default=1, help="ticks per step")
    parser.add_argument("--realtime", action="store_true", help="realtime sessions")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measurement")
    parser.add_argument("--suite", action="store_true",
                        help="one env, then a vector env beside another client's realtime "
                        "session, then the anchors: one table")
    parser.add_argument("--vector-steps", type=int, default=1000,
                        help="steps of the vector env in --suite")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "playfield"))
    parser.add_argument("--text-steps", action="store_true",
                        help="steps as JSON text messages instead of binary (as before them)")
    parser.add_argument("--perf", metavar="FILE",
                        help="perf record -g the server over the measured run into FILE")
    args = parser.parse_args()
    global PERF_OUTPUT, TEXT_STEPS
    PERF_OUTPUT = args.perf
    TEXT_STEPS = args.text_steps
    count = args.vector or args.envs
    if args.suite:
        count = max(count, args.vector or 64)
    options = {"frame_skip": args.frame_skip, "realtime": args.realtime}

    playfield = Playfield(
        "--sessions-per-client", str(max(16, count + 2)), "--session-share", "100",
        "--max-sessions", str(max(256, 2 * count + 8)),
        "--on-demand-sessions-per-client", str(max(16, count + 2)),
        binary=args.binary)  # Tests/launcher.py
    server = playfield.process
    try:
        url = playfield.url
        cpu, wall = cpu_seconds(server.pid), time.monotonic()
        time.sleep(args.idle)
        idle_per_second = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - wall)
        if args.suite:
            return suite(args, server, url, idle_per_second)

        durations = []
        if args.vector:
            threads = [threading.Thread(target=run_vector,
                                        args=(url, args.vector, args.steps, options, durations))]
        else:
            threads = [threading.Thread(target=run_env,
                                        args=(url, seed, args.steps, options, durations))
                       for seed in range(args.envs)]
        elapsed, server_cpu, client_cpu, stepping = measure(server, url, threads, durations)
    finally:
        playfield.stop(timeout=15)

    calls = len(durations)
    steps = calls * (args.vector or 1)
    durations.sort()
    shape = f"1 vector env of {args.vector}" if args.vector else f"{args.envs} env(s)"
    print(f"{shape} x {args.steps} steps, frame_skip {args.frame_skip},"
          f" {'realtime' if args.realtime else 'on-demand'}:"
          f" {steps / elapsed:.0f} steps/s ({steps * args.frame_skip / elapsed:.0f} ticks/s)"
          f" in {elapsed:.1f} s")
    print(f"step call: median {durations[calls // 2] * 1000:.3f} ms,"
          f" p99 {durations[int(calls * 0.99)] * 1000:.3f} ms")
    print(f"server CPU per env step: {server_cpu / steps * 1e6:.1f} us"
          f" ({(server_cpu - idle_per_second * elapsed) / steps * 1e6:.1f} us above its idle"
          f" {idle_per_second * 1000:.1f} ms/s); client CPU per env step:"
          f" {client_cpu / steps * 1e6:.1f} us")
    print(f"server CPU per env step in the on-demand stepping thread (models, frames, logging):"
          f" {stepping / steps * 1e6:.2f} us")
    anchor_steps = max(2000, args.steps)
    print(f"anchors, in process: CartPole-v1 x {count}: {cartpole_rate(anchor_steps, count):.0f}"
          f" steps/s; NumPy holes x {count}: {numpy_rate(anchor_steps, count):.0f} steps/s")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
