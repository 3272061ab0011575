"""Issue 32: what each failure keeps, checked against every controller's `stored` watermark
(docs/deployment.md, "What survives which failure"): kill -9 of a process, SIGSTOP of one (a
short pause it goes on from, and one past its lease after which it is fenced), and PostgreSQL
stopped for every process. The partition is test_partition.py; a full disk, the saved-status
browser test (prlimit).

Two processes `a` and `b` on one PostgreSQL, reached directly (scripts/cluster.py's `Postgres`
and `Process`, no nginx: a request names the process it goes to). Controllers of sessions send
one numbered ball per input, so a log read back through `/inputs` says which inputs it holds,
in order (test_partition.py's `Controller`). Skipped, saying why, only when PostgreSQL's
binaries are missing (`make test-deps`).
"""
import asyncio
import contextlib
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import time

import pytest
from websockets.asyncio.client import connect

from deadline import Deadline
from helpers import create_session, request
from test_partition import Controller, logged_xs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import cluster as clusters  # noqa: E402  (scripts/cluster.py, which `make cluster` runs)

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

SESSIONS = 3


class Pair:
    """PostgreSQL and processes `a` and `b`; `up()` starts again whichever a test killed."""

    def __init__(self, directory, extra=("--sessions-per-client", "64"), shards="ab"):
        (directory / "pg").mkdir()
        self.postgres = clusters.Postgres(directory / "pg")
        self.processes = []
        try:
            for shard in shards:
                self.processes.append(clusters.Process(shard, self.postgres.url, directory, extra))
        except BaseException:
            self.stop()
            raise

    def up(self):
        if not self.postgres.running():
            self.postgres.start()
        for process in self.processes:
            if not process.running():
                process.restart()
            process.url = f"http://{process.address}"
            process.ws_url = f"ws://{process.address}"
        return self.processes

    def stop(self):
        for process in self.processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)  # NB: a stopped process cannot stop
            process.stop()
        try:
            self.postgres.stop()
        except Exception:  # NB: best effort; the folder goes anyway (and the watchdog stops it)
            pass


@contextlib.contextmanager
def started_pair(*extra):
    """A `Pair` (with `extra` options for both processes), stopped and removed after; skips
    the test when PostgreSQL's binaries are missing."""
    try:
        clusters.Postgres.binaries()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-watermarks-"))
    os.chmod(directory, 0o755)
    made = None
    try:
        made = Pair(directory, *extra)
        yield made
    finally:
        if made:
            made.stop()
        if not os.environ.get("PLAYFIELD_KEEP_CLUSTER"):
            shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def pair():
    with started_pair() as made:
        yield made


async def controllers_of(process, sessions):
    """A `Controller` per session on `process`, each reading in a task of its own."""
    controllers = []
    for session in sessions:
        ws = await connect(f"{process.ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                           max_queue=None, open_timeout=10)
        controllers.append(Controller(session, ws))
    return controllers, [asyncio.create_task(c.read()) for c in controllers]


class Sender:
    """Sends an input on every open controller ten times a second until `stop()`."""

    def __init__(self, controllers):
        self.controllers = controllers
        self.sending = True
        self.task = asyncio.create_task(self._run())

    async def _run(self):
        while self.sending:
            for controller in self.controllers:
                if controller.close_code is None:
                    try:
                        await controller.send_one()
                    except Exception:  # NB: the connection went (the process died): sent stays as was
                        pass
            await asyncio.sleep(0.1)

    async def stop(self):
        self.sending = False
        await self.task


async def watermarks_reach(controllers, inputs, seconds, what):
    deadline = Deadline(seconds, what)
    while not all(c.watermark >= inputs for c in controllers):
        await asyncio.sleep(min(0.05, deadline.left()))


def adopted_by(process, sessions, seconds):
    """Waits until `process` serves every session (it adopts each on its first request once
    the old holder's lease ran out); returns how long that took."""
    started = time.monotonic()
    deadline = Deadline(seconds, f"process {process.shard} adopting every session")
    waiting = {s["id"] for s in sessions}
    while waiting:
        for session_id in sorted(waiting):
            if request(f"{process.url}/api/sessions/{session_id}")[0] == 200:
                waiting.discard(session_id)
        time.sleep(min(0.2, deadline.left()))
    return time.monotonic() - started


def assert_prefix_reaching_watermarks(process, controllers):
    """Each session's log, read through `process`, is the inputs its controller sent, in order,
    without gaps, and holds at least all of them up to its last watermark."""
    for controller in controllers:
        logged = logged_xs(process, controller.session)
        assert logged == controller.sent[:len(logged)], "the log is a prefix of what was sent"
        assert len(logged) >= controller.watermark > 0, (len(logged), controller.watermark)


def test_kill_9_keeps_every_input_at_or_below_each_watermark(pair):
    """kill -9 mid-stream: the adopter's log of each session holds every input at or below the
    last watermark its controller was told (and is a prefix of what was sent)."""
    a, b = pair.up()
    sessions = [create_session(a, "bouncing-balls") for _ in range(SESSIONS)]

    async def run():
        controllers, readers = await controllers_of(a, sessions)
        sender = Sender(controllers)
        try:
            await watermarks_reach(controllers, 5, 20, "every controller's watermark at 5")
            await asyncio.sleep(0.4)  # NB: inputs above the watermark too: mid write interval
            a.process.kill()
        finally:
            await sender.stop()
        await asyncio.wait_for(asyncio.gather(*readers), 20)
        return controllers

    controllers = asyncio.run(run())
    assert all(c.close_code is not None for c in controllers), "the connections closed with the process"
    took = adopted_by(b, sessions, 60)
    print(f"adopted {took:.1f} s after the kill; sent {[len(c.sent) for c in controllers]}, "
          f"watermarks {[c.watermark for c in controllers]}, "
          f"logged {[len(logged_xs(b, c.session)) for c in controllers]}")
    assert_prefix_reaching_watermarks(b, controllers)


def test_sigstop_briefly_then_it_goes_on_with_nothing_lost(pair):
    """A pause shorter than the lease's margin: no `stored` comes while it lasts, so `flush`
    times out (the client's bound); after SIGCONT the process goes on and stores every input,
    those sent during the pause included."""
    from playfield_client import AsyncSession

    a, _ = pair.up()
    session = create_session(a, "bouncing-balls")

    async def run():
        client = await AsyncSession.connect(
            f"{a.ws_url}/ws/sessions/{session['id']}?token={session['token']}", reconnect=False)
        try:
            for n in range(3):
                await client.add_ball(20 + n, 30)
            assert await client.flush(timeout=20) == 3
            a.process.send_signal(signal.SIGSTOP)
            try:
                await client.add_ball(30, 30, confirm=False)
                with pytest.raises(TimeoutError):
                    await client.flush(timeout=1.0)
                assert client.stored == 3, "nothing more was said to be stored during the pause"
            finally:
                a.process.send_signal(signal.SIGCONT)
            return await client.flush(timeout=20)
        finally:
            await client.close()

    assert asyncio.run(run()) == 4, "after SIGCONT the input sent during the pause is stored"
    assert logged_xs(a, session) == [20, 21, 22, 30]


def test_sigstop_past_the_lease_is_fenced_and_nothing_below_a_watermark_is_lost(pair):
    """A pause past the lease: no `stored` comes while it lasts; the other process adopts every
    session with each input at or below its controller's watermark; after SIGCONT the paused
    process closes its controllers with 1013, and nothing it was sent meanwhile reaches the log."""
    a, b = pair.up()
    sessions = [create_session(a, "bouncing-balls") for _ in range(SESSIONS)]

    async def run():
        controllers, readers = await controllers_of(a, sessions)
        sender = Sender(controllers)
        try:
            await watermarks_reach(controllers, 5, 20, "every controller's watermark at 5")
            a.process.send_signal(signal.SIGSTOP)
            try:
                sent_before = [len(c.sent) for c in controllers]
                told_before = [len(c.watermarks) for c in controllers]
                took = await asyncio.to_thread(adopted_by, b, sessions, 60)
                # Nothing was said to be stored while the process was stopped.
                assert [len(c.watermarks) for c in controllers] == told_before
                assert all(c.close_code is None for c in controllers)
            finally:
                a.process.send_signal(signal.SIGCONT)
        finally:
            await sender.stop()
        await asyncio.wait_for(asyncio.gather(*readers), 30)
        return controllers, sent_before, took

    controllers, sent_before, took = asyncio.run(run())
    print(f"adopted {took:.1f} s into the pause; sent {[len(c.sent) for c in controllers]} "
          f"({sent_before} before it), watermarks {[c.watermark for c in controllers]}")
    assert [c.close_code for c in controllers] == [1013] * len(controllers), "fenced after SIGCONT"
    assert_prefix_reaching_watermarks(b, controllers)
    for controller, before in zip(controllers, sent_before):
        assert len(logged_xs(b, controller.session)) <= before, "nothing sent during the pause is logged"
    assert a.process.poll() is None, "the paused process lives on"


def test_postgresql_down_for_all_then_storing_resumes_and_nothing_is_lost(pair):
    """pg_ctl stop: every controller of both processes is told `unstored` (with its watermark);
    the Python client's `flush` raises `NotStored`; after pg_ctl start the watermarks rise again
    to every input sent, those of the outage included, and each log is exactly what was sent."""
    from playfield_client import AsyncSession, NotStored

    a, b = pair.up()
    on = {process.shard: [create_session(process, "bouncing-balls") for _ in range(2)]
          for process in (a, b)}

    async def run():
        controllers, readers = [], []
        for process in (a, b):
            made, reading = await controllers_of(process, on[process.shard])
            controllers += made
            readers += reading
        client = await AsyncSession.connect(
            f"{a.ws_url}/ws/sessions/{on['a'][0]['id']}?token={on['a'][0]['token']}", reconnect=False)
        sender = Sender(controllers)
        try:
            await client.add_ball(10, 30)
            assert await client.flush(timeout=20) == 1
            await watermarks_reach(controllers, 5, 20, "every controller's watermark at 5")
            stopped_at = time.monotonic()
            await asyncio.to_thread(pair.postgres.stop)
            deadline = Deadline(15, "every controller told its inputs are not stored")
            while not all(c.unstored for c in controllers):
                await asyncio.sleep(min(0.05, deadline.left()))
            told = [c.unstored[0][0] - stopped_at for c in controllers]
            await client.add_ball(11, 30, confirm=False)
            with pytest.raises(NotStored) as refused:
                await client.flush(timeout=10)
            assert refused.value.stored == 1
            for controller in controllers:
                notice = controller.unstored[0]
                before = [inputs for at, inputs in controller.watermarks if at <= notice[0]]
                assert notice[1]["inputs"] == max(before, default=0), (notice, controller.watermarks)
            await asyncio.sleep(1.0)  # inputs acknowledged during the outage
            during = [len(c.sent) for c in controllers]
            await asyncio.to_thread(pair.postgres.start)
            back_at = time.monotonic()
            # Storing resumes: each watermark rises past what the outage's inputs reached.
            await watermarks_reach_each(controllers, during, 60, "watermarks rising past the outage")
            resumed = time.monotonic() - back_at
        finally:
            await sender.stop()
        await watermarks_reach_each(controllers, [len(c.sent) for c in controllers], 30,
                                    "every input stored")
        assert await client.flush(timeout=30) == 2 and client.unstored is None
        await client.close()
        for controller in controllers:
            await controller.ws.close()
        await asyncio.wait_for(asyncio.gather(*readers), 10)
        return controllers, told, resumed

    controllers, told, resumed = asyncio.run(run())
    print(f"told after {', '.join(f'{t:.2f}' for t in told)} s; watermarks past the outage "
          f"{resumed:.1f} s after PostgreSQL was back; sent {[len(c.sent) for c in controllers]}")
    for controller in controllers:
        process = a if controller.session["id"].startswith("a.") else b
        logged = [x for x in logged_xs(process, controller.session) if x not in (10, 11)]
        assert logged == controller.sent, "every input, those of the outage included, in order"
        assert controller.watermark == len(controller.sent)


async def watermarks_reach_each(controllers, inputs, seconds, what):
    deadline = Deadline(seconds, what)
    while not all(c.watermark >= n for c, n in zip(controllers, inputs)):
        await asyncio.sleep(min(0.05, deadline.left()))


def test_postgresql_down_tells_a_batch_connection_unstored_and_then_stored(pair):
    """/ws/batch, as the session socket: with PostgreSQL stopped, a connection with sessions
    attached is told `unstored` (each slot's stored tick, and why), which the Python client's
    `Batch.unstored` reports; with it started again, `stored`, and the replies' `stored` ticks
    reach their ticks again."""
    from playfield_client import Client
    from playfield_client.batch import Batch

    a, _ = pair.up()
    client = Client(a.url)
    infos = [client.create_session("holes", seed=30 + i, clock="on-demand") for i in range(2)]
    with Batch(client, timeout=30) as batch:
        for info in infos:
            batch.attach(info)

        def step_until(condition, seconds, what, actions=None):
            """Steps (with `actions` each time, else none: nothing new to store) until
            `condition` holds for the reply."""
            deadline = Deadline(seconds, what)
            while True:
                reply = batch.step(actions=actions, count=2)
                if condition(reply):
                    return reply
                time.sleep(min(0.05, deadline.left()))

        tilts = [[0.5, 0], [0, 0.5]]
        batch.step(actions=tilts)
        step_until(lambda r: all(r.stored == r.ticks), 20, "every step stored")
        assert batch.unstored is None
        pair.postgres.stop()
        try:
            reply = step_until(lambda r: batch.unstored is not None, 15, "the batch connection told",
                               actions=tilts)
            told = batch.stored_ticks
            assert len(told) == 2 and all(0 < t <= tick for t, tick in zip(told, reply.ticks)), (told, reply.ticks)
            assert "database" in batch.unstored, batch.unstored
            # Steps go on (in memory); their stored ticks stay where the notice said.
            later = batch.step(actions=tilts, count=2)
            assert list(later.stored) == told and all(later.ticks > reply.ticks)
        finally:
            pair.postgres.start()
        step_until(lambda r: batch.unstored is None, 60, "the batch connection told `stored` again")
        assert len(batch.stored_ticks) == 2
        step_until(lambda r: all(r.stored == r.ticks), 30, "steps stored again")


def test_an_adopter_holds_adopted_sessions_within_its_own_limits():
    """Adopted sessions count in the adopter's memory as its own creations do
    (`SessionRegistry.admitLive`): with its live places full, each adoption parks one of its
    idle sessions (or is refused), so it never holds more than `--max-sessions`, nor a client
    more than `--sessions-per-client`. (Already so on main since the `places` work: this
    checks it on a shared store, through an adoption after kill -9.)"""
    with started_pair(["--max-sessions", "4", "--sessions-per-client", "3"]) as made:
        a, b = made.up()
        clients = [{"X-Forwarded-For": f"10.9.0.{n}"} for n in range(5)]

        def create(process, headers):
            status, _, body = request(f"{process.url}/api/sessions", "POST",
                                      {"kind": "bouncing-balls", "config": {}}, headers=headers)
            assert status == 201, body
            return body

        theirs = [create(a, clients[0]) for _ in range(3)]  # one client's 3 places, on a
        others = [create(b, clients[n]) for n in range(1, 5)]  # b full: 4 live
        assert request(f"{b.url}/healthz")[2]["sessions"] == 4
        a.process.kill()
        a.process.wait()
        took = adopted_by(b, theirs, 60)
        health = request(f"{b.url}/healthz")[2]
        print(f"adopted after {took:.1f} s: {health['sessions']} live, {health['parkedSessions']} parked")
        assert health["sessions"] == 4, "b holds no more live sessions than --max-sessions"
        assert health["parkedSessions"] >= 3, "its own idle sessions were parked for the adopted ones"
        # A fourth of the adopted client's: made by parking one of its own idle ones (or
        # refused), never a fifth live session on b.
        status, _, body = request(f"{b.url}/api/sessions", "POST",
                                  {"kind": "bouncing-balls", "config": {}}, headers=clients[0])
        assert status in (201, 429), body
        assert request(f"{b.url}/healthz")[2]["sessions"] == 4
        assert len(others) == 4


def test_an_adoption_never_takes_a_client_past_its_quota_across_the_processes():
    """A client's sessions on a killed process stop counting once their leases run out; if it
    then fills its quota on another process, a third that adopts the old ones counts those
    too (as a create does) and refuses them (429), so the client never holds more than its
    quota across the cluster. On the old code the adopter counted only its own memory: the
    client held 6 of 3."""
    with started_pair(["--sessions-per-client", "3"], "abc") as made:
        a, b, c = made.up()
        client = {"X-Forwarded-For": "10.9.1.1"}

        def create(process):
            return request(f"{process.url}/api/sessions", "POST",
                           {"kind": "bouncing-balls", "config": {}}, headers=client)

        theirs = [create(a)[2] for _ in range(3)]
        assert all(s["id"].startswith("a.") for s in theirs)
        assert create(c)[0] == 429, "3 live on a: the fourth is refused across the processes"
        a.process.kill()
        a.process.wait()
        time.sleep(clusters.LEASE_SECONDS + 1)  # a's leases ran out: its sessions count no more
        fresh = [create(c) for _ in range(3)]
        assert [status for status, _, _ in fresh] == [201] * 3, fresh
        answers = [request(f"{b.url}/api/sessions/{s['id']}") for s in theirs]
        assert [status for status, _, _ in answers] == [429] * 3, [(s, body) for s, _, body in answers]
        assert "across every process" in str(answers[0][2]), answers[0][2]
        assert request(f"{b.url}/healthz")[2]["sessions"] == 0, "b adopted none of them"
        # Once the client lets its sessions on c go, b adopts the old ones.
        for _, _, session in fresh:
            status, _, _ = request(f"{c.url}/api/sessions/{session['id']}?token={session['token']}", "DELETE")
            assert status in (200, 204)
        assert [request(f"{b.url}/api/sessions/{s['id']}")[0] for s in theirs] == [200] * 3
