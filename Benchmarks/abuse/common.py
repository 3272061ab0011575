"""What the abuse benchmarks share: the server process (Tests/launcher.py's), HTTP and WebSocket
calls from a chosen loopback address (each address is one client to the server's quotas), and
a bare WebSocket for holding thousands of connections cheaply (Tests/bare_websocket.py's).

Used by `heavy_load.py` and `attacks.py`; nothing here runs on its own.
"""
import asyncio
import concurrent.futures
import http.client
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from websockets.asyncio.client import connect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from bare_websocket import BareWebSocket, split_base  # noqa: E402,F401 (BareWebSocket: attacks.py's)
from launcher import Playfield, demo_names  # noqa: E402,F401 (demo_names: heavy_load.py's)

NORMAL = "127.0.0.1"


def candidates():
    """Bouncing-balls configs at the edge of what is allowed: 10,000 balls moving at the
    speed cap that the 64-substep limit allows for their radius, in the smallest world that
    holds them (the start lattice's spacing is 2 radius + 2 px)."""
    configs = {}
    for radius in (1, 3, 6.9, 20):
        speed = min(20000, 64 * radius * 0.75 * 60)
        side = (2 * radius + 2) * 100
        configs[f"10k balls r={radius}"] = {
            "balls": 10000, "maxBalls": 10000, "radiusMin": radius, "radiusMax": radius,
            "width": side, "height": side, "speedMin": speed, "speedMax": speed,
            "maxSpeed": speed, "restitution": 1}
    return configs


class Server:
    """A release `playfield serve` on a free port with a database in a temporary folder.

    `host` is what it listens on (`127.0.0.1`, or `::` for both families); clients connect to
    `connect_host`. `wrapper` is a command prefix (e.g. `unshare -m ...`), `limits` a dict of
    `resource` limits for the process. The folder outlives a `stop` so that `start` can restore
    the same database; `remove` deletes it."""

    def __init__(self, binary, host="127.0.0.1", folder=None, extra=(), wrapper=(), limits=None):
        self.binary, self.host, self.extra, self.wrapper = binary, host, list(extra), list(wrapper)
        self.limits = limits or {}
        self.folder = folder or tempfile.mkdtemp(prefix="playfield-abuse-")
        self.database = os.path.join(self.folder, "p.db")
        self.process = None
        self.log_path = os.path.join(self.folder, "server.log")  # Tests/launcher.py's, appended to

    @property
    def connect_host(self):
        return "127.0.0.1"

    def start(self, timeout=30, port=0):
        """Starts it on `port` (0: a free one) and waits for it to listen (Tests/launcher.py)."""
        limits = self.limits

        def apply_limits():
            import resource
            for name, value in limits.items():
                resource.setrlimit(name, (value, value))

        try:
            self.playfield = Playfield(
                "--host", self.host, *self.extra, database=self.database, port=port,
                prefix=self.wrapper, preexec_fn=apply_limits if limits else None,
                binary=self.binary, directory=self.folder, timeout=timeout)
        except RuntimeError as error:
            raise RuntimeError(f"the server did not start: {error}") from None
        self.process = self.playfield.process
        self.port = self.playfield.port
        self.base = f"http://{self.connect_host}:{self.port}"
        self.ws_base = f"ws://{self.connect_host}:{self.port}"
        return self

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout=30):
        """SIGTERM (the server writes its sessions and exits), SIGKILL after `timeout`; returns
        the exit status (negative: the signal that ended it)."""
        if self.process is None:
            return None
        return self.playfield.stop(signal.SIGTERM, timeout)

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self, characters=600):
        try:
            with open(self.log_path, "rb") as log:
                return log.read()[-characters:].decode(errors="replace")
        except OSError:
            return ""

    def rss_mib(self):
        return rss_mib(self.pid)

    def cpu_seconds(self):
        """User plus system CPU time of the server so far."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def database_bytes(self):
        return sum(os.path.getsize(self.database + suffix)
                   for suffix in ("", "-wal", "-shm") if os.path.exists(self.database + suffix))


def rss_mib(pid):
    """VmRSS of process `pid` in MiB, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def call(base, path, method="GET", body=None, source=NORMAL, headers=None, timeout=300, raw=None):
    """(status, headers, body bytes, seconds) of one request from address `source` on a new
    connection. `raw` sends those bytes as the body instead of `body` as JSON."""
    host, port = split_base(base)
    connection = http.client.HTTPConnection(host, port, timeout=timeout, source_address=(source, 0))
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    all_headers = {"Content-Type": "application/json"} if data else {}
    all_headers.update(headers or {})
    started = time.perf_counter()
    try:
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        content = response.read()
        return response.status, response.headers, content, time.perf_counter() - started
    finally:
        connection.close()


def try_call(base, path, method="GET", body=None, source=NORMAL, headers=None, timeout=30):
    """`call`, but a refused, reset or timed-out connection is status 0 instead of an error."""
    started = time.perf_counter()
    try:
        return call(base, path, method, body, source, headers, timeout)
    except (OSError, http.client.HTTPException) as error:
        return 0, {}, repr(error).encode(), time.perf_counter() - started


def create(base, kind, config=None, source=NORMAL, headers=None, seed=None, clock=None):
    body = {"kind": kind, "config": config or {}}
    if seed is not None:
        body["seed"] = seed
    if clock is not None:
        body["clock"] = clock
    status, _, raw, _ = call(base, "/api/sessions", "POST", body, source, headers)
    if status != 201:
        raise RuntimeError(f"create {kind} from {source}: {status} {raw[:300]!r}")
    return json.loads(raw)


def delete(base, session, source=NORMAL):
    """Deletes a session made by `create` (its token); the status, 0 if the server is gone."""
    return try_call(base, f"/api/sessions/{session['id']}", "DELETE", None, source,
                    {"Authorization": f"Bearer {session['token']}"})[0]


async def first_status(ws_base, session):
    """The `status` a new spectator is sent (its budget shows the session's cost now)."""
    async with connect(f"{ws_base}/ws/sessions/{session['id']}", max_size=None) as socket:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if message["type"] == "status":
                return message


async def count_frames(ws_base, session, seconds):
    """Watches `session` for `seconds`: (ticks per second, frames per second)."""
    async with connect(f"{ws_base}/ws/sessions/{session['id']}", max_size=None) as socket:
        first = last = None
        frames = 0
        started = time.perf_counter()
        deadline = started + seconds
        while (now := time.perf_counter()) < deadline:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), deadline - now))
            except asyncio.TimeoutError:
                break
            if message["type"] != "frame":
                continue
            if first is None:
                first, started = message["tick"], time.perf_counter()
                continue
            last = message["tick"]
            frames += 1
        elapsed = time.perf_counter() - started
        return ((last - first) / elapsed if last is not None else 0.0), frames / elapsed


async def watch_without_reading(ws_base, session, stop):
    async with connect(f"{ws_base}/ws/sessions/{session['id']}", max_size=None, max_queue=4):
        await stop.wait()


def cached_tile_times(base, path, count=10):
    times = []
    for _ in range(count):
        status, _, _, seconds = call(base, path)
        assert status == 200, status
        times.append(seconds * 1000)
    return times


def flood(base, paths, source, headers=None):
    """Sends every path at once from `source`; returns the count of each status."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(paths)) as pool:
        results = list(pool.map(lambda p: call(base, p, source=source, headers=headers)[0], paths))
    return {status: results.count(status) for status in sorted(set(results))}
