"""Issue 32: one Playfield process partitioned from PostgreSQL while another still reaches it.

Process `a` reaches PostgreSQL through a small TCP proxy this test cuts (every connection
reset, new ones accepted and reset at once); process `b` reaches it directly. Controllers of
sessions on `a` send inputs throughout. The test checks that:
- `a` tells its controllers that their inputs are no longer stored (`unstored`, with their
  watermark) promptly after it finds out itself (its first write or renewal that fails: its link
  to the database then tries a new connection at once, which the proxy notes), and the Python
  client surfaces it (`session.unstored`, `flush()` raising `NotStored`);
- `b` answers 503 (held by `a`) while the lease lasts, then adopts every session;
- every input at or below the last `stored` watermark a controller saw is in the adopted
  session's log, which holds exactly a prefix of what was sent: nothing the cut-off process
  acknowledged after the cut reaches it, even once the partition heals and `a` finds its
  leases taken (it then closes its controllers with 1013).

Starts PostgreSQL and two processes itself (scripts/cluster.py's `Postgres` and `Process`, no
nginx); skipped, saying why, only when PostgreSQL's binaries are missing (`make test-deps`).
"""
import asyncio
import contextlib
import json
import os
import pathlib
import select
import shutil
import socket
import struct
import sys
import tempfile
import threading
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from deadline import Deadline, wait_until
from helpers import create_session, request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import cluster as clusters  # noqa: E402  (scripts/cluster.py, which `make cluster` runs)

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

SESSIONS = 3


def reset(sock):
    """Closes `sock` with a TCP reset (no orderly goodbye), ignoring a socket already gone."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


class Partition:
    """A TCP proxy from a free local port to `target_port` on 127.0.0.1, which `cut()` turns
    into a partition: every connection through it is reset, and every new one is accepted and
    reset at once, its time noted in `attempts` (the process behind it noticing the cut: its
    link to the database tries a new connection as soon as a statement fails). `heal()` lets
    connections through again."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs = []
        self.cut_at = None
        self.attempts = []
        self.stopping = False
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                if self.cut_at is not None:
                    self.attempts.append(time.monotonic())
                    reset(client)
                    continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                reset(client)
                continue
            with self.lock:
                if self.cut_at is not None:  # NB: cut while connecting upstream
                    self.attempts.append(time.monotonic())
                    reset(client)
                    reset(upstream)
                    continue
                pair = {"sockets": (client, upstream), "closed": False}
                self.pairs.append(pair)
            for source, sink in ((client, upstream), (upstream, client)):
                thread = threading.Thread(target=self._pump, args=(pair, source, sink), daemon=True)
                thread.start()

    def _pump(self, pair, source, sink):
        try:
            while not pair["closed"]:
                ready, _, _ = select.select([source], [], [], 0.2)
                if not ready:
                    continue
                data = source.recv(65536)
                if not data or not self.passes(pair, source, data):
                    break
                sink.sendall(data)
        except (OSError, ValueError):
            pass
        self._close(pair)

    def passes(self, pair, source, data):
        """Whether `data`, just read from `source` (one of `pair`'s sockets), goes on; false
        closes the pair instead. Everything does here; a subclass may drop some."""
        return True

    def _close(self, pair):
        with self.lock:
            if pair["closed"]:
                return
            pair["closed"] = True
            if pair in self.pairs:
                self.pairs.remove(pair)
        for sock in pair["sockets"]:
            reset(sock)

    def cut(self):
        """Resets every connection through the proxy and refuses new ones; returns when (the
        monotonic clock) the cut began."""
        with self.lock:
            self.cut_at = time.monotonic()
            pairs = list(self.pairs)
        for pair in pairs:
            self._close(pair)
        return self.cut_at

    def heal(self):
        with self.lock:
            self.cut_at = None

    def stop(self):
        self.stopping = True
        self.cut()
        self.listener.close()
        self.threads[0].join(5)


@pytest.fixture(scope="module")
def partitioned():
    """PostgreSQL, process `a` behind a `Partition`, process `b` straight to PostgreSQL."""
    with behind_proxy(Partition, direct=True) as (proxy, processes):
        yield proxy, processes[0], processes[1]


def query(postgres, sql):
    """What psql prints for `sql` on `postgres`'s database, one row a line (`-At`)."""
    return postgres.run("psql", "-h", postgres.directory, "-p", postgres.port, "-U", "postgres",
                        "-d", "playfield", "-Atc", sql, timeout=30).stdout.strip()


@contextlib.contextmanager
def behind_proxy(proxy_class, direct, extras=(("--sessions-per-client", "64"),) * 2):
    """PostgreSQL, process `a` behind a `proxy_class` (a `Partition`) and, when `direct`,
    process `b` straight to PostgreSQL, each started with its arguments in `extras`; yields the
    proxy and the processes. Skips the test, saying why, when PostgreSQL's binaries are
    missing."""
    try:
        clusters.Postgres.binaries()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-partition-"))
    os.chmod(directory, 0o755)
    postgres = proxy = None
    processes = []
    try:
        (directory / "pg").mkdir()
        postgres = clusters.Postgres(directory / "pg")
        proxy = proxy_class(postgres.port)
        proxy.postgres = postgres  # NB: for a test that reads the store itself (psql)
        through = f"postgresql://postgres@127.0.0.1:{proxy.port}/playfield"
        for shard, database, extra in zip("ab", (through, postgres.url)[:2 if direct else 1],
                                          extras):
            process = clusters.Process(shard, database, directory, list(extra))
            process.url = f"http://{process.address}"
            process.ws_url = f"ws://{process.address}"
            processes.append(process)
        yield proxy, processes
    finally:
        for process in processes:
            process.stop()
        if proxy:
            proxy.stop()
        if postgres:
            try:
                postgres.stop()
            except Exception:  # NB: best effort; the folder goes anyway
                pass
        if not os.environ.get("PLAYFIELD_KEEP_CLUSTER"):
            shutil.rmtree(directory, ignore_errors=True)


def x_of(n):
    """The `x` of a controller's `n`th ball: one per input, so the log says which arrived."""
    return 20 + n / 4


class Controller:
    """A controller connection to one session on the cut-off process: what it sent (in order),
    and every `stored`, `unstored` and close it got, with when (monotonic)."""

    def __init__(self, session, ws):
        self.session = session
        self.ws = ws
        self.sent = []
        self.watermarks = []
        self.unstored = []
        self.errors = []
        self.close_code = None

    async def read(self):
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "stored":
                    self.watermarks.append((time.monotonic(), message["inputs"]))
                elif message["type"] == "unstored":
                    self.unstored.append((time.monotonic(), message))
                elif message["type"] == "error":
                    self.errors.append(message)
        except ConnectionClosed:
            pass
        self.close_code = self.ws.close_code

    async def send_one(self):
        n = len(self.sent)
        await self.ws.send(json.dumps({"type": "add-ball", "x": x_of(n), "y": 40, "vx": 1, "vy": 1,
                                       "id": n}))
        self.sent.append(x_of(n))

    @property
    def watermark(self):
        """The highest watermark it was told: every input up to it must survive."""
        return max((inputs for _, inputs in self.watermarks), default=0)


def logged_xs(process, session):
    status, _, body = request(f"{process.url}/api/sessions/{session['id']}/inputs",
                              headers={"Authorization": f"Bearer {session['token']}"})
    assert status == 200, body
    return [entry["input"]["x"] for entry in body["inputs"]]


def test_a_partitioned_process_tells_its_clients_and_another_adopts(partitioned):
    from playfield_client import AsyncSession, NotStored

    proxy, a, b = partitioned
    sessions = [create_session(a, "bouncing-balls") for _ in range(SESSIONS)]
    assert all(s["id"].startswith("a.") for s in sessions), "made and held by process a"

    async def run():
        controllers = []
        for session in sessions:
            ws = await connect(f"{a.ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                               max_queue=None, open_timeout=10)
            controllers.append(Controller(session, ws))
        readers = [asyncio.create_task(c.read()) for c in controllers]
        # The Python client, on the first session, as a second controller.
        client = await AsyncSession.connect(
            f"{a.ws_url}/ws/sessions/{sessions[0]['id']}?token={sessions[0]['token']}", reconnect=False)
        sending = True

        async def send():
            while sending:
                for controller in controllers:
                    if controller.close_code is None:
                        try:
                            await controller.send_one()
                        except ConnectionClosed:
                            pass
                await asyncio.sleep(0.1)

        sender = asyncio.create_task(send())
        try:
            await client.add_ball(10, 30)
            assert await client.flush() == 1, "the client's input is stored before the cut"
            deadline = Deadline(20, "every controller's first stored watermark")
            while not all(c.watermark >= 5 for c in controllers):
                await asyncio.sleep(min(0.1, deadline.left()))

            cut_at = await asyncio.to_thread(proxy.cut)
            # While a's lease lasts, b says a holds the sessions (asked at once: the lease was
            # renewed at most 2 s before the cut, and lasts 6 s).
            first = await asyncio.to_thread(request, f"{b.url}/api/sessions/{sessions[0]['id']}")
            asked_within = time.monotonic() - cut_at
            deadline = Deadline(15, "every controller told its inputs are not stored")
            while not all(c.unstored for c in controllers):
                await asyncio.sleep(min(0.02, deadline.left()))
            # The Python client, told too: `unstored` set, a flush refused at once.
            await client.add_ball(11, 30)
            deadline = Deadline(5, "the Python client's `unstored`")
            while client.unstored is None:
                await asyncio.sleep(min(0.02, deadline.left()))
            with pytest.raises(NotStored) as refused:
                await client.flush(timeout=5)
            assert refused.value.stored == 1 and refused.value.reason == client.unstored

            # b adopts every session once a's lease has run out.
            adopted = {}
            deadline = Deadline(30, "process b adopting every session")
            while len(adopted) < len(sessions):
                for session in sessions:
                    if session["id"] not in adopted:
                        status, _, _ = await asyncio.to_thread(
                            request, f"{b.url}/api/sessions/{session['id']}")
                        if status == 200:
                            adopted[session["id"]] = time.monotonic() - cut_at
                await asyncio.sleep(min(0.2, deadline.left()))
            await asyncio.sleep(0.5)  # a few more inputs to the stale copy on a
        finally:
            sending = False
            await sender
        logs = {c.session["id"]: await asyncio.to_thread(logged_xs, b, c.session) for c in controllers}
        # The partition heals: a's next renewal finds its leases taken and it drops the sessions.
        proxy.heal()
        try:
            await asyncio.wait_for(asyncio.gather(*readers), 30)
        finally:
            await client.close()
        healed = {c.session["id"]: await asyncio.to_thread(logged_xs, b, c.session) for c in controllers}
        return controllers, cut_at, first, asked_within, adopted, logs, healed

    controllers, cut_at, first, asked_within, adopted, logs, healed = asyncio.run(run())

    # (a) Told, promptly after the process found out itself (the proxy saw it try again).
    assert proxy.attempts, "the cut-off process noticed the cut (its link tried to reconnect)"
    noticed = proxy.attempts[0] - cut_at
    told = [c.unstored[0][0] - cut_at for c in controllers]
    print(f"noticed {noticed:.3f} s after the cut; told after {', '.join(f'{t:.3f}' for t in told)} s; "
          f"adopted after {', '.join(f'{t:.1f}' for t in adopted.values())} s")
    for controller, after in zip(controllers, told):
        notice = controller.unstored[0][1]
        assert notice["reason"], notice
        # NB: 1 s is the goal, and a writer flushing every 250 ms meets it; the bound is for a
        # machine busy with builds. What the server does after it notices is what must be quick.
        assert after < 5, f"told {after:.2f} s after the cut"
        assert after - noticed < 1, f"told {after - noticed:.2f} s after the process noticed"
        # The notice carries the watermark: never more than what was stored, never less than
        # what the connection was told before.
        before = [inputs for at, inputs in controller.watermarks if at <= controller.unstored[0][0]]
        assert notice["inputs"] == max(before, default=0), (notice, controller.watermarks)
        assert not controller.errors, controller.errors

    # (b) b refused while a's lease lasted, then adopted every session.
    if asked_within < 3:
        assert first[0] == 503 and first[1]["Playfield-Held-By"] == "a", first
    assert set(adopted) == {s["id"] for s in sessions}

    # (c) Everything at or below each watermark is in the adopted log, which is a prefix of
    # what was sent; the stale copy took more after the cut, none of it logged.
    def theirs(logged):
        return [x for x in logged if x not in (10, 11)]  # NB: not the Python client's two

    first_log = logs[sessions[0]["id"]]
    assert 10 in first_log and 11 not in first_log, "the Python client's flushed input kept, the later one lost"
    for controller in controllers:
        logged = theirs(logs[controller.session["id"]])
        sent = controller.sent
        assert len(logged) >= controller.watermark > 0, (len(logged), controller.watermark)
        assert logged == sent[:len(logged)], "the log is the sent inputs, in order, without gaps"
        assert len(sent) > len(logged), "inputs were sent (and acknowledged) after the cut, and lost"

    # The partition healed: a closed its clients, and none of its stale copy's inputs got in.
    assert [c.close_code for c in controllers] == [1013] * len(controllers)
    assert healed == logs, "nothing of the stale copy reached the log"
