#!/usr/bin/env python3
"""Playfield on several processes behind nginx (issue 25), measured in ONE run:

    .venv/bin/python Benchmarks/cluster/run.py            # about 5 minutes
    SPECTATORS=500 SESSIONS=300 BALLS=150 SECONDS_EACH=10 TRIALS=3 .venv/bin/python Benchmarks/cluster/run.py

1. Spectators of one session (wsflood, /work/shared/bench or BENCH_REF): direct to one process,
   through nginx with one process, through nginx with two.
2. Live sessions (SESSIONS bouncing-balls sessions of BALLS balls, no clients): ticks per
   second they all make together through nginx with one process and with two (the ratio).
3. Static requests (wrk, 64 connections): direct beside through nginx (nginx's cost).
4. A session's step-to-commit latency (the time from the step that applied an input to the
   commit that stored it, `/healthz` `inputCommitMs`): PostgreSQL beside SQLite, same input rate.
5. kill -9 adoption: seconds from the kill to the session stepping again for a spectator
   through nginx, TRIALS times.

Everything (PostgreSQL with initdb in a temp folder, the processes, nginx through
scripts/cluster.py's `Cluster`, on free ports) is started here and stopped at the end. The
load average is printed beside each figure: the machine is shared with builds.
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

from websockets.asyncio.client import connect  # noqa: E402

REF = pathlib.Path(os.environ.get("BENCH_REF", ROOT.parent / "shared" / "bench"))
SPECTATORS = int(os.environ.get("SPECTATORS", "500"))
SESSIONS = int(os.environ.get("SESSIONS", "300"))
BALLS = int(os.environ.get("BALLS", "150"))
SECONDS_EACH = float(os.environ.get("SECONDS_EACH", "10"))
TRIALS = int(os.environ.get("TRIALS", "3"))
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


async def drive_inputs(ws_url, session, seconds, per_second=20):
    async with connect(f"{ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                       max_queue=None) as ws:
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            await ws.send(json.dumps({"type": "add-ball", "x": 10 + n % 300, "y": 10, "vx": 1, "vy": 0}))
            n += 1
            await asyncio.sleep(1 / per_second)
        return n


def commit_latency(url, label):
    session = create(url)
    before = load()
    sent = asyncio.run(drive_inputs("ws://" + url[len("http://"):], session, SECONDS_EACH))
    time.sleep(1)
    committed = http("GET", url + "/healthz")[1]["inputCommitMs"]
    say(f"| step to commit, {label} | p50 {committed['p50']:.1f} ms, p99 {committed['p99']:.1f} ms, "
        f"max {committed['max']:.1f} ms ({committed['ticks']} ticks of {sent} inputs; the writer "
        f"commits every 250 ms) | | {before} |")
    return committed


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


def main():
    global WSFLOOD
    work = pathlib.Path(tempfile.mkdtemp(prefix="playfield-bench-cluster-"))
    WSFLOOD = str(work / "wsflood")
    subprocess.run(["gcc", "-O2", "-o", WSFLOOD, str(REF / "wsflood.c")], check=True)
    cpu = next(line for line in open("/proc/cpuinfo") if line.startswith("model name")).split(":")[1]
    say(f"# machine: {cpu.strip()}, {os.cpu_count()} cores; {clusters.BINARY}; "
        f"commit {subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}")
    say(f"# {SPECTATORS} spectators, {SESSIONS} sessions of {BALLS} balls, {SECONDS_EACH:g} s each\n")
    say("| what | figure | CPU (wsflood -p) | load average |")
    say("|---|---|---|---|")
    results = {}
    sqlite = None
    try:
        one = clusters.Cluster(1, extra=EXTRA)
        try:
            process = one.processes[0]
            direct = f"http://{process.address}"
            workers = children(one.nginx.process.pid)
            names = {process.process.pid: "playfield", **{pid: "nginx" for pid in workers}}
            results["spectators direct"] = spectators(direct, {process.process.pid: "playfield"},
                                                      "direct, 1 process")
            results["spectators nginx 1"] = spectators(one.url, names, "through nginx, 1 process")
            results["static direct"] = wrk(direct, "direct")
            results["static nginx"] = wrk(one.url, "through nginx")
            results["sessions 1"] = live_sessions(one.url, "through nginx, 1 process", [process.process.pid])
            results["commit postgresql"] = commit_latency(direct, "PostgreSQL (1 process)")
        finally:
            one.stop()
        (work / "sqlite").mkdir()
        sqlite = clusters.Playfield("--event-loops", "2", *EXTRA, directory=work / "sqlite",
                                    database=str(work / "sqlite" / "db.sqlite"))  # Tests/launcher.py
        results["commit sqlite"] = commit_latency(sqlite.url, "SQLite (1 process)")
        sqlite.stop(timeout=15)
        sqlite = None

        two = clusters.Cluster(2, extra=EXTRA)
        try:
            pids = [p.process.pid for p in two.processes]
            names = {**{p.process.pid: f"playfield {p.shard}" for p in two.processes},
                     **{pid: "nginx" for pid in children(two.nginx.process.pid)}}
            results["spectators nginx 2"] = spectators(two.url, names, "through nginx, 2 processes")
            results["sessions 2"] = live_sessions(two.url, "through nginx, 2 processes", pids)
            results["adoption"] = adoption(two, TRIALS)
        finally:
            two.stop()
    finally:
        if sqlite:
            sqlite.stop(timeout=0)
        shutil.rmtree(work, ignore_errors=True)
    say("")
    say(f"# nginx's cost, spectators: {results['spectators nginx 1']} kept through nginx against "
        f"{results['spectators direct']} direct; static: {results['static nginx'] / results['static direct']:.2f} "
        f"of direct's requests/s")
    say(f"# live sessions, 2 processes / 1: {results['sessions 2'] / results['sessions 1']:.2f}; "
        f"spectators of one session, 2 / 1: {results['spectators nginx 2']} / {results['spectators nginx 1']}")
    say(f"# kill -9 adoption (slowest session of each trial): {results['adoption']} s; the issue asks for 10 s")


if __name__ == "__main__":
    main()
