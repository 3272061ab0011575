"""`make cluster` survives the failures it exists for (issue 32): `scripts/cluster.py run`, started
exactly as the Makefile starts it, keeps serving through nginx while one Playfield process, then
another, is killed with SIGKILL: every session is back within 10 s, the dead process runs again
(a line says so) within 15 s; Ctrl-C (SIGINT to its process group, as a terminal sends it) stops
everything, leaving no process and no folder behind.

Skipped, saying why, only when PostgreSQL's or nginx's binaries are missing (`make test-deps`).
"""
import asyncio
import os
import pathlib
import re
import selectors
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from deadline import Deadline
from helpers import create_session, request
from test_cluster import clusters, shard, watch_ticks
from test_durability import session_kinds

pytestmark = [pytest.mark.timeout(400), pytest.mark.slow]

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Supervised:
    """`python3 scripts/cluster.py run` in a session of its own, and the lines it prints."""

    def __init__(self, processes=3):
        self.port = clusters.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            ["python3", "scripts/cluster.py", "run", "--port", str(self.port), "--processes", str(processes)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.lines = []
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""

    def read(self, seconds):
        """Lines printed within `seconds` (a bounded wait), added to `lines`."""
        if not self.selector.select(max(0.0, seconds)):
            return
        chunk = os.read(self.process.stdout.fileno(), 65536)
        self.buffer += chunk
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.lines.append(line.decode())
        if not chunk:
            time.sleep(min(0.1, seconds))  # NB: at its end the pipe is always readable

    def wait_for_line(self, pattern, seconds, start=0):
        """The first match of `pattern` in a line from `start` on, waiting up to `seconds`."""
        deadline = Deadline(seconds, f"a line matching {pattern!r}")
        while True:
            for line in self.lines[start:]:
                if match := re.search(pattern, line):
                    return match
            if deadline.passed or self.process.poll() is not None and not self.selector.select(0):
                raise AssertionError(f"no line matches {pattern!r} within {seconds} s: {self.lines}")
            self.read(min(0.5, deadline.end - time.monotonic()))

    def pid(self, name, start=0):
        """The pid of `name` (`process a`, `nginx`) in its newest start line from `start` on."""
        found = [re.search(r"\(pid (\d+)", line) for line in self.lines[start:]
                 if line.startswith(f"cluster: {name} started") or line.startswith(f"cluster: {name} running again")]
        return int(found[-1].group(1))

    def session_members(self):
        """Every process still in the supervisor's session (its children share it)."""
        found = []
        for entry in pathlib.Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and int(entry.name) != self.process.pid and \
                        os.getsid(int(entry.name)) == self.process.pid:
                    found.append(int(entry.name))
            except OSError:
                pass
        return found

    def kill_all(self):
        for pid in self.session_members() + [self.process.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.process.wait(10)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # NB: a zombie is no process left running.
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_naming(folder):
    """The processes whose command line names `folder` (PostgreSQL's, nginx's)."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and folder in (entry / "cmdline").read_bytes().decode(errors="replace") \
                    and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            pass
    return found


@pytest.fixture
def supervised():
    if reason := clusters.missing_tools():
        pytest.skip(reason)
    made = Supervised()
    try:
        yield made
    finally:
        if made.process.poll() is None:
            made.kill_all()
        made.process.stdout.close()


# The goals are every session back within 10 s of the kill and the process running again
# within 15 s (Benchmarks/cluster/run.py measures adoption); the bounds allow a busy machine, where
# adoption took longer than 10 s with both cores busy (load 25-30).
BACK_WITHIN = 30
RUNNING_AGAIN_WITHIN = 40


def kill_and_see_it_back(supervised, victim, sessions):
    """SIGKILL of process `victim`: every session back, the process running again (on a new
    pid, said in a line), each within its bound."""
    start = len(supervised.lines)
    old = supervised.pid(f"process {victim}")
    killed_at = time.monotonic()
    os.kill(old, signal.SIGKILL)
    for session in sessions:
        left = BACK_WITHIN - (time.monotonic() - killed_at)
        ticks = asyncio.run(watch_ticks(supervised, session, seconds=max(left, 0.5)))
        assert ticks[-1] > ticks[0], session["kind"]
    back_within = time.monotonic() - killed_at
    assert back_within < BACK_WITHIN, f"every session back after {back_within:.1f} s"
    supervised.wait_for_line(rf"^cluster: process {victim} exited \(killed by SIGKILL\)",
                             RUNNING_AGAIN_WITHIN - back_within, start)
    match = supervised.wait_for_line(rf"^cluster: process {victim} running again \(pid (\d+), 127\.0\.0\.1:(\d+)\)",
                                     RUNNING_AGAIN_WITHIN - (time.monotonic() - killed_at), start)
    new = int(match.group(1))
    assert new != old and alive(new), "a new process"
    assert not alive(old)
    # It answers on its old port (nginx knows it by its address).
    status, _, body = request(f"http://127.0.0.1:{match.group(2)}/healthz")
    assert status == 200, body


def test_make_cluster_survives_kill_9_of_one_process_then_another(supervised):
    supervised.wait_for_line(r"^Playfield cluster listening on http://127\.0\.0\.1:\d+ \(folder (\S+)\)", 240)
    folder = supervised.wait_for_line(r"\(folder (\S+)\)", 1).group(1)
    supervised.wait_for_line(r"^cluster: PostgreSQL started", 10)
    kinds = session_kinds(supervised)
    # NB: the default quota is per client per process; a few of each kind stay well within it.
    sessions = [create_session(supervised, kinds[i % len(kinds)]) for i in range(12)]
    assert {shard(s) for s in sessions} == {"a", "b", "c"}, "nginx spread the sessions over every process"

    for victim in ("b", "c"):
        kill_and_see_it_back(supervised, victim, sessions)
    started = {name: supervised.pid(name) for name in ("process a", "process b", "process c", "nginx")}
    postgres = supervised.pid("PostgreSQL")
    assert all(alive(pid) for pid in [*started.values(), postgres])

    # Ctrl-C, as a terminal sends it: to the whole foreground process group.
    os.killpg(supervised.process.pid, signal.SIGINT)
    supervised.process.wait(90)
    supervised.read(1)
    assert supervised.process.returncode == 0, supervised.lines
    assert supervised.lines[-1] == "cluster: stopped", supervised.lines[-5:]
    assert not [line for line in supervised.lines if "running again" in line and "process a" in line], \
        "Ctrl-C is no death to restart from"
    left = [pid for pid in [*started.values(), postgres] if alive(pid)]
    assert not left, f"still running after Ctrl-C: {left}"
    assert not [pid for pid in supervised.session_members() if alive(pid)], "nothing of the cluster left"
    assert not processes_naming(folder), "no process of the cluster's folder left"
    assert not pathlib.Path(folder).exists(), "the folder is removed"


def test_the_supervisor_backs_off_a_process_that_keeps_dying():
    """The back-off, without processes: a part that dies young waits twice as long each time, up
    to the bound; one that ran steadily is started again after the first delay."""
    now = [100.0]

    class Part:
        def __init__(self):
            self.up = True
            self.starts = 0

        def running(self):
            return self.up

        def restart(self):
            self.up = True
            self.starts += 1

    class Lines:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.extend(t for t in text.split("\n") if t)

        def flush(self):
            pass

    part = Part()
    fake = type("Cluster", (), {"processes": [], "nginx": part, "postgres": Part()})()
    out = Lines()
    supervisor = clusters.Supervisor(fake, out=out, clock=lambda: now[0])
    supervisor.where = lambda _: ""
    delays = []
    for _ in range(8):
        part.up = False
        supervisor.check()
        delays.append(float(re.search(r"again in ([\d.]+) s", out.lines[-1]).group(1)))
        now[0] += delays[-1] - 0.01
        supervisor.check()
        assert not part.up, "not before its delay"
        now[0] += 0.02
        supervisor.check()
        assert part.up and out.lines[-1] == "cluster: nginx running again"
        now[0] += 1
    assert delays == [0.5, 1, 2, 4, 8, 16, 30, 30]
    now[0] += clusters.Supervisor.STEADY
    part.up = False
    supervisor.check()
    assert out.lines[-1] == "cluster: nginx exited; starting it again in 0.5 s"
    assert part.starts == 8


def test_make_cluster_says_at_once_when_its_port_is_taken():
    """Another program listens on the port: `scripts/cluster.py run` (as `make cluster` starts
    it) ends with status 1 and a line naming the port and what to do, before it starts anything
    (no folder, no process). It waited 30 s and said only that nginx did not answer."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        before = set(pathlib.Path(tempfile.gettempdir()).glob("playfield-cluster-*"))
        run = subprocess.run(["python3", "scripts/cluster.py", "run", "--port", str(port)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, start_new_session=True)
    assert run.returncode == 1, run
    assert f"cluster: cannot start: port {port} on 127.0.0.1 is not free" in run.stderr, run.stderr
    assert "PORT=" in run.stderr, "it says how to choose another"
    assert set(pathlib.Path(tempfile.gettempdir()).glob("playfield-cluster-*")) == before


def test_nginx_that_exits_at_its_start_is_told_with_its_own_words(tmp_path):
    """The port taken between the check and nginx's start (or any other failure of nginx's): the
    wait for /healthz ends at once with nginx's last line, not after 30 s of silence."""
    if reason := clusters.missing_tools():
        pytest.skip(reason)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        nginx = clusters.Nginx({"a": "127.0.0.1:9"}, port, tmp_path)
        try:
            nginx.process.wait(30)
            with pytest.raises(RuntimeError, match="nginx exited at its start: .*Address already in use"):
                nginx.answering(f"http://127.0.0.1:{port}")
        finally:
            nginx.stop()
