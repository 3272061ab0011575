#!/usr/bin/env python3
"""Playfield on several processes behind nginx (issues 25 and 32), measured in ONE run:

    .venv/bin/python Benchmarks/cluster/run.py            # about 8 minutes
    SPECTATORS=500 SESSIONS=300 BALLS=150 SECONDS_EACH=10 TRIALS=3 OLD_BINARY=PATH \
        .venv/bin/python Benchmarks/cluster/run.py
    SPECTATORS=50 SESSIONS=30 SECONDS_EACH=3 TRIALS=1 .venv/bin/python Benchmarks/cluster/run.py  # a check

1. Spectators of one session (wsflood, /work/shared/bench or BENCH_REF): direct to one process,
   and through nginx with one, two and three processes.
2. Live sessions (SESSIONS bouncing-balls sessions of BALLS balls, no clients): ticks per
   second they all make together through nginx with one, two and three processes.
3. Static requests (wrk, 64 connections): direct beside through nginx (nginx's cost).
4. Step to stored, as a client sees it: a controller sends 20 inputs a second, each with an id,
   on the session socket, and times each from its send to the first `stored` notice whose
   watermark covers it; SQLite (one process) beside PostgreSQL (one process of a cluster),
   with the server's own step-to-commit figure (`/healthz` `inputCommitMs`) beside.
5. The cost of cluster-wide quotas per session create (Benchmarks/cluster/quota_cost.py's
   creates, one process on PostgreSQL): with OLD_BINARY (a build before the quotas), it and
   this build alternately, TRIALS clusters each; without it, this build only.
6. kill -9 adoption with three processes: seconds from the kill to the session stepping again
   for a spectator through nginx, TRIALS times.

Everything (PostgreSQL with initdb in a temp folder, the processes, nginx through
scripts/cluster.py's `Cluster`, on free ports) is started here and stopped at the end. The
load average is printed beside each figure: the machine is shared with builds, and only
figures of one run on a quiet machine belong in docs/benchmarks.md.
Needs a release build (`swift build -c release --product playfield`, or PLAYFIELD_BIN), nginx,
wrk, gcc and the test venv (`make test-deps`).
"""
import asyncio
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import cluster as clusters  # noqa: E402
sys.path.insert(0, str(ROOT / "Benchmarks" / "cluster"))
import quota_cost  # noqa: E402

from websockets.asyncio.client import connect  # noqa: E402

REF = pathlib.Path(os.environ.get("BENCH_REF", ROOT.parent / "shared" / "bench"))
SPECTATORS = int(os.environ.get("SPECTATORS", "500"))
SESSIONS = int(os.environ.get("SESSIONS", "300"))
BALLS = int(os.environ.get("BALLS", "150"))
SECONDS_EACH = float(os.environ.get("SECONDS_EACH", "10"))
TRIALS = int(os.environ.get("TRIALS", "3"))
OLD_BINARY = os.environ.get("OLD_BINARY")
# Rounds of 16 creates per cluster in the quota cost (quota_cost.py does 20).
QUOTA_ROUNDS = int(os.environ.get("QUOTA_ROUNDS", "10"))
# The benchmark is one client on one address: its own limits are lifted, nothing else.
EXTRA = ["--sessions-per-client", "100000", "--session-share", "100", "--max-sessions", "4096",
         "--connections-per-address", "100000", "--idle-pause", "3600"]


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def say(line):
    print(line, flush=True)


def http(method, url, body=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read()[:200]
    except OSError as error:
        return None, str(error)


def create(url, kind="bouncing-balls", config=None):
    status, body = http("POST", url + "/api/sessions", {"kind": kind, "config": config or {}})
    assert status == 201, (status, body)
    return body


def children(pid):
    """The worker processes of nginx's master `pid`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return found


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spectators(url, pids, label):
    """wsflood's spectators of one running session at `url`: its kept line, and CPU.
    `pids`: {pid: name} of the processes whose CPU to report (at most 4)."""
    command = [sys.executable, str(REF / "fanout.py"), url, str(SPECTATORS), str(SECONDS_EACH),
               "--threads", "2", "--wsflood", WSFLOOD]
    for pid in list(pids)[:4]:
        command += ["--server-pid", str(pid)]
    before = load()
    out = subprocess.run(command, capture_output=True, text=True, timeout=SECONDS_EACH + 180).stdout
    kept = re.search(r"kept>=55fps: (\d+)/(\d+)", out)
    fps = re.search(r"per_conn_fps: mean ([\d.]+)", out)
    cpus = re.findall(r"cpu: pid (\d+) ([\d.]+)% of one core", out)
    cpu = ", ".join(f"{pids[int(p)]} {c} %" for p, c in cpus)
    say(f"| spectators {label} | {kept.group(1) if kept else '?'}/{SPECTATORS} at >= 55 fps "
        f"(mean {fps.group(1) if fps else '?'} fps) | {cpu} | {before} |")
    if not kept:
        say("<!-- fanout output:\n" + out[-2000:] + "\n-->")
    return int(kept.group(1)) if kept else 0


def live_sessions(url, label, pids):
    """SESSIONS running sessions made through `url`: the ticks per second they make together,
    and the CPU of the processes `pids`."""
    made = [create(url, config={"balls": BALLS}) for _ in range(SESSIONS)]
    time.sleep(2)  # settle: the first ticks and the writer's first batches

    def ticks():
        return sum(http("GET", f"{url}/api/sessions/{s['id']}")[1]["tick"] for s in made)
    before, started, load_before = ticks(), time.monotonic(), load()
    cpu_before = [cpu_seconds(pid) for pid in pids]
    time.sleep(SECONDS_EACH)
    after, elapsed = ticks(), time.monotonic() - started
    cpu = ", ".join(f"playfield {100 * (cpu_seconds(pid) - was) / elapsed:.0f} %"
                    for pid, was in zip(pids, cpu_before))
    rate = (after - before) / elapsed
    shards = sorted({s["id"].split(".")[0] for s in made})
    say(f"| {SESSIONS} sessions of {BALLS} balls {label} (shards {','.join(shards)}) | "
        f"{rate:,.0f} ticks/s of {SESSIONS * 60:,} asked ({rate / SESSIONS:.1f} Hz each) | {cpu} | {load_before} |")
    for session in made:
        http("DELETE", f"{url}/api/sessions/{session['id']}?token={session['token']}")
    return rate


def wrk(url, label):
    before = load()
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{int(SECONDS_EACH)}s", url + "/css/playfield.css"],
                         capture_output=True, text=True, timeout=SECONDS_EACH + 60).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = re.search(r"Latency\s+(\S+)", out).group(1)
    say(f"| static file {label} (wrk 64 connections) | {rate:,.0f} requests/s, mean latency {latency} | | {before} |")
    return rate


async def stored_after_send(ws_url, session, seconds, per_second=20):
    """A controller sending `per_second` inputs (each with an id) for `seconds`: the seconds
    from each input's send to the first `stored` notice covering it (its watermark counts
    this connection's inputs), for every input covered within 10 s of the last send."""
    async with connect(f"{ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                       max_queue=None) as ws:
        sent = []
        covered = []  # (monotonic time, watermark) of each `stored`

        async def read():
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "stored":
                    covered.append((time.monotonic(), message["inputs"]))

        reader = asyncio.create_task(read())
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            n = len(sent)
            sent.append(time.monotonic())
            await ws.send(json.dumps({"type": "add-ball", "x": 10 + n % 300, "y": 10, "vx": 1,
                                      "vy": 0, "id": n}))
            await asyncio.sleep(1 / per_second)
        waited = time.monotonic() + 10
        while (not covered or covered[-1][1] < len(sent)) and time.monotonic() < waited:
            await asyncio.sleep(0.02)
        reader.cancel()
        latencies = []
        for n, at in enumerate(sent):
            when = next((t for t, inputs in covered if inputs >= n + 1), None)
            if when is not None:
                latencies.append(when - at)
        return len(sent), latencies


def step_to_stored(url, label):
    session = create(url)
    before = load()
    count, latencies = asyncio.run(stored_after_send("ws://" + url[len("http://"):], session, SECONDS_EACH))
    committed = http("GET", url + "/healthz")[1]["inputCommitMs"]
    latencies.sort()
    if latencies:
        figure = (f"p50 {1000 * latencies[len(latencies) // 2]:.0f} ms, p90 "
                  f"{1000 * latencies[int(len(latencies) * 0.9)]:.0f} ms, max {1000 * latencies[-1]:.0f} ms "
                  f"({len(latencies)} of {count} inputs covered)")
    else:
        figure = f"no `stored` covered any of {count} inputs"
    server = (f"; the server's step to commit p50 {committed['p50']:.1f} ms, p99 {committed['p99']:.1f} ms"
              if committed.get("p50") is not None else "")
    say(f"| step to stored (client's view), {label} | {figure}{server}; the writer commits every "
        f"250 ms | | {before} |")
    http("DELETE", f"{url}/api/sessions/{session['id']}?token={session['token']}")
    return latencies


def quota_costs():
    """Median and p90 create times of this build (and of OLD_BINARY, alternating) on one
    process on PostgreSQL: quota_cost.py's creates."""
    binaries = [("old (OLD_BINARY)", OLD_BINARY)] if OLD_BINARY else []
    binaries.append(("this build", str(clusters.BINARY)))
    times = {label: [] for label, _ in binaries}
    before = load()
    for _ in range(TRIALS):
        for label, binary in binaries:
            times[label] += quota_cost.creates(binary, QUOTA_ROUNDS)
    medians = {}
    for label, _ in binaries:
        ordered = sorted(times[label])
        medians[label] = ordered[len(ordered) // 2]
        say(f"| session create on PostgreSQL, {label} | median {1000 * medians[label]:.2f} ms, p90 "
            f"{1000 * ordered[int(len(ordered) * 0.9)]:.2f} ms ({len(ordered)} creates) | | {before} to {load()} |")
    if not OLD_BINARY:
        say("| (cluster-wide quotas' cost) | set OLD_BINARY to a build before them to compare | | |")
    return medians


async def stepping_again(ws_url, session, deadline):
    """Waits (until `deadline`, monotonic) for a spectator through nginx to see the session step."""
    while time.monotonic() < deadline:
        try:
            async with connect(f"{ws_url}/ws/sessions/{session['id']}",
                               open_timeout=max(0.1, deadline - time.monotonic())) as ws:
                seen = []
                while time.monotonic() < deadline:
                    message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
                    if message["type"] == "frame":
                        seen.append(message["tick"])
                        if len(seen) >= 2 and seen[-1] > seen[0]:
                            return time.monotonic()
        except Exception:  # noqa: BLE001  (502/503 while the session is between processes)
            await asyncio.sleep(0.05)
    return None


def adoption(cluster, trials):
    ws_url = "ws://" + cluster.url[len("http://"):]
    times = []
    for trial in range(trials):
        sessions = [create(cluster.url) for _ in range(4)]
        victim = cluster.process(sessions[0]["id"].split(".")[0])
        theirs = [s for s in sessions if s["id"].startswith(victim.shard + ".")]
        time.sleep(1.5)
        before = load()
        killed = time.monotonic()
        victim.process.kill()
        victim.process.wait()
        seen = [asyncio.run(stepping_again(ws_url, s, killed + 60)) for s in theirs]
        took = [round(t - killed, 2) if t else None for t in seen]
        times.append(max(t for t in took if t is not None) if all(took) else None)
        say(f"| kill -9 adoption, trial {trial + 1} (shard {victim.shard}, {len(theirs)} sessions) | "
            f"{', '.join(f'{t} s' for t in took)} from the kill to stepping through nginx | | {before} |")
        victim.log.close()
        victim.start(victim.port)  # a new process on the old port, as after a restart
        for session in sessions:
            http("DELETE", f"{cluster.url}/api/sessions/{session['id']}?token={session['token']}")
        time.sleep(6)  # nginx leaves a failed process alone for fail_timeout (5 s)
    return times


def cluster_figures(count, results):
    """Spectators and live sessions through nginx with `count` processes; with one, also
    direct, static files and step to stored on PostgreSQL; with three, kill -9 adoption."""
    made = clusters.Cluster(count, extra=EXTRA)
    try:
        pids = [p.process.pid for p in made.processes]
        workers = children(made.nginx.process.pid)
        names = {**{p.process.pid: f"playfield {p.shard}" for p in made.processes},
                 **{pid: "nginx" for pid in workers}}
        plural = "process" if count == 1 else "processes"
        if count == 1:
            process = made.processes[0]
            direct = f"http://{process.address}"
            results["spectators direct"] = spectators(direct, {process.process.pid: "playfield"},
                                                      "direct, 1 process")
        results[f"spectators nginx {count}"] = spectators(made.url, names, f"through nginx, {count} {plural}")
        if count == 1:
            results["static direct"] = wrk(direct, "direct")
            results["static nginx"] = wrk(made.url, "through nginx")
        results[f"sessions {count}"] = live_sessions(made.url, f"through nginx, {count} {plural}", pids)
        if count == 1:
            results["stored postgresql"] = step_to_stored(direct, "PostgreSQL (1 process)")
        if count == 3:
            results["adoption"] = adoption(made, TRIALS)
    finally:
        made.stop()


def main():
    global WSFLOOD
    work = pathlib.Path(tempfile.mkdtemp(prefix="playfield-bench-cluster-"))
    WSFLOOD = str(work / "wsflood")
    subprocess.run(["gcc", "-O2", "-o", WSFLOOD, str(REF / "wsflood.c")], check=True)
    cpu = next(line for line in open("/proc/cpuinfo") if line.startswith("model name")).split(":")[1]
    say(f"# machine: {cpu.strip()}, {os.cpu_count()} cores; {clusters.BINARY}; "
        f"commit {subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}")
    say(f"# {SPECTATORS} spectators, {SESSIONS} sessions of {BALLS} balls, {SECONDS_EACH:g} s each, "
        f"{TRIALS} trials\n")
    say("| what | figure | CPU (wsflood -p) | load average |")
    say("|---|---|---|---|")
    results = {}
    sqlite = None
    try:
        for count in (1, 2, 3):
            cluster_figures(count, results)
        (work / "sqlite").mkdir()
        sqlite = clusters.Playfield("--event-loops", "2", *EXTRA, directory=work / "sqlite",
                                    database=str(work / "sqlite" / "db.sqlite"))  # Tests/launcher.py
        results["stored sqlite"] = step_to_stored(sqlite.url, "SQLite (1 process)")
        sqlite.stop(timeout=15)
        sqlite = None
        results["quota"] = quota_costs()
    finally:
        if sqlite:
            sqlite.stop(timeout=0)
        shutil.rmtree(work, ignore_errors=True)
    say("")
    say(f"# nginx's cost, spectators: {results['spectators nginx 1']} kept through nginx against "
        f"{results['spectators direct']} direct; static: {results['static nginx'] / results['static direct']:.2f} "
        f"of direct's requests/s")
    say(f"# live sessions, 2 / 1 processes: {results['sessions 2'] / results['sessions 1']:.2f}, "
        f"3 / 1: {results['sessions 3'] / results['sessions 1']:.2f}; spectators of one session kept "
        f"with 1, 2, 3: {results['spectators nginx 1']}, {results['spectators nginx 2']}, "
        f"{results['spectators nginx 3']}")

    def median(values):
        return f"{1000 * sorted(values)[len(values) // 2]:.0f} ms" if values else "none"
    say(f"# step to stored, median: SQLite {median(results['stored sqlite'])}, PostgreSQL "
        f"{median(results['stored postgresql'])}")
    if len(results["quota"]) == 2:
        old, new = results["quota"].values()
        say(f"# cluster-wide quotas per create: {1000 * (new - old):+.2f} ms at the median")
    say(f"# kill -9 adoption (slowest session of each trial): {results['adoption']} s; the issue asks for 10 s")


if __name__ == "__main__":
    main()
