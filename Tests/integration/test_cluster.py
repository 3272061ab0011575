"""Several Playfield processes on one PostgreSQL database behind nginx (issue 25), tested
through nginx only: sessions of every kind spread over the processes, kill -9 adoption, a
paused process fenced off, PostgreSQL restarted under load.

The cluster (PostgreSQL in a temp folder, three processes, nginx with the configuration
scripts/cluster.py writes, all on free ports) is started by this module; it is skipped, saying
why, only when PostgreSQL's or nginx's binaries are missing (`make test-deps` installs them).
"""
import asyncio
import http.client
import json
import os
import pathlib
import random
import signal
import sys
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from deadline import Deadline, receive_until_async, wait_until
from helpers import create_session, request
from test_durability import drive, exact_state, session_kinds

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import cluster as clusters  # noqa: E402  (scripts/cluster.py, which `make cluster` runs)

pytestmark = [pytest.mark.timeout(400), pytest.mark.slow]


def start_cluster(count, extra):
    """A cluster of `count` processes started with `extra` options (`ws_url` set too); skips
    the test, saying why, when PostgreSQL's or nginx's binaries are missing."""
    if reason := clusters.missing_tools():
        pytest.skip(reason)
    made = clusters.Cluster(count, extra=extra)
    made.ws_url = "ws://" + made.url[len("http://"):]
    return made


@pytest.fixture(scope="module")
def cluster():
    made = start_cluster(3, ["--sessions-per-client", "200"])
    yield made
    made.stop()


def shard(session):
    return session["id"].split(".", 1)[0]


def logged_inputs(cluster, session):
    status, _, body = request(
        f"{cluster.url}/api/sessions/{session['id']}/inputs?token={session['token']}")
    assert status == 200, body
    return body["inputs"]


# Kinds that send a frame only when a step changed it (`Simulation.lastStepChangedFrame`): a
# joiner still gets the current frame at once, so they are joined again for each tick wanted.
FRAMES_ON_CHANGE = {"street-soccer"}


async def watch_ticks(cluster, session, frames=3, seconds=20):
    """Ticks of `frames` frames a spectator sees through nginx (retrying while the session is
    between processes), rising."""
    deadline = Deadline(seconds, f"frames of session {session['id']}")
    per_join = 1 if session["kind"] in FRAMES_ON_CHANGE else frames
    seen = []
    while True:
        try:
            async with connect(f"{cluster.ws_url}/ws/sessions/{session['id']}",
                               open_timeout=deadline.left()) as ws:
                got = []
                await receive_until_async(ws, lambda m: m["type"] == "frame" and got.append(m["tick"]) is None
                                          and len(got) >= per_join, deadline.left(), "frames")
                seen += got
                if len(seen) >= frames:
                    return seen
                await asyncio.sleep(min(0.1, deadline.left()))
        except (OSError, asyncio.TimeoutError) as error:  # NB: 503 while held by a dying process
            if isinstance(error, TimeoutError) and deadline.passed:
                raise
            await asyncio.sleep(min(0.2, deadline.left()))
        except Exception as error:
            if "HTTP 503" not in str(error) and "HTTP 502" not in str(error):
                raise
            await asyncio.sleep(min(0.2, deadline.left()))


def test_sessions_of_every_kind_spread_over_the_processes(cluster):
    kinds = session_kinds(cluster)
    sessions = [create_session(cluster, kinds[i % len(kinds)]) for i in range(30)]
    by_shard = {}
    for session in sessions:
        by_shard.setdefault(shard(session), []).append(session)
    assert set(by_shard) == {"a", "b", "c"}, "nginx spreads new sessions over every process"

    sent = asyncio.run(drive(cluster, sessions, 1.0, random.Random(25)))
    listed = {s["id"] for s in request(cluster.url + "/api/sessions")[2]["sessions"]}
    assert {s["id"] for s in sessions} <= listed, "any process lists every process's sessions"
    for session in sessions:
        assert len(logged_inputs(cluster, session)) == sent[session["id"]], session["kind"]
        ticks = asyncio.run(watch_ticks(cluster, session))
        assert ticks == sorted(ticks) and ticks[-1] > ticks[0], (session["kind"], ticks)
    # A tile through nginx is rendered once, then served from nginx's cache. nginx stores the
    # first answer once that answer is complete, and its other worker may take the next request
    # a moment before then: a few MISSes may come first, never a different picture.
    tile = cluster.url + "/tiles/mandelbrot/0/0/0.png"
    first = request(tile)
    assert first[0] == 200

    def cached():
        again = request(tile)
        assert again[0] == 200 and again[2] == first[2]
        return again[1]["X-Cache-Status"] == "HIT"

    wait_until(cached, 10, "nginx to answer the tile from its cache", interval=0.1)


def test_compare_groups_made_and_played_through_nginx(cluster):
    """A compare group lives in the memory of the process that made it: its id names that
    process's shard, as a session's does, so nginx sends its socket there whichever process
    the next request would reach (on a lone process's ids, two in three went elsewhere: 404)."""
    from test_compare import BALLS

    groups = []
    for n in range(6):
        status, _, group = request(cluster.url + "/api/compare", "POST",
                                   {"kind": "bouncing-balls", "seed": n, "config": BALLS,
                                    "variants": [{}, {"restitution": 0.5}]})
        assert status == 201, group
        groups.append(group)
    assert {shard(g) for g in groups} == {"a", "b", "c"}, "nginx spreads new groups over every process"

    async def play(group):
        url = f"{cluster.ws_url}/ws/compare/{group['id']}?token={group['token']}"
        async with connect(url, open_timeout=10, max_size=None) as ws:
            await receive_until_async(ws, lambda m: m["type"] == "hello", 10, "the group's hello")
            await ws.send(json.dumps({"type": "step", "count": 5}))
            frames = await receive_until_async(ws, lambda m: m["type"] == "frames" and m["tick"] == 5, 20,
                                               "the frames of tick 5")
            return len(frames["panes"])

    for group in groups:
        assert asyncio.run(play(group)) == 2, group["id"]


def test_a_shopping_list_is_live_on_every_device_whichever_link_it_used(cluster):
    """A book's shopping list lives in the memory of one process (ShoppingHub), so nginx sends
    every device of it there: through `playfield_all`, four devices were spread over the three
    processes and missed each other's changes (and each process stored its own list over the
    others')."""
    soup = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
            "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}
    status, _, saved = request(cluster.url + "/api/recipes/import?save=1", "POST",
                               json.dumps(soup).encode(), {"Content-Type": "application/ld+json"})
    assert status == 201, saved
    owner = saved["book"]["token"]
    status, _, links = request(f"{cluster.url}/api/recipes/links?token={owner}", "POST", b"")
    assert status == 200, links
    shared = links["write"]

    async def shop():
        devices = [await connect(f"{cluster.ws_url}/ws/recipes/shopping?token={token}",
                                 open_timeout=10)
                   for token in [owner, shared, owner, shared]]
        try:
            for device in devices:
                await receive_until_async(device, lambda m: m["type"] == "list", 10, "the list")
            for number, device in enumerate(devices):
                await device.send(json.dumps({"type": "add", "items": [
                    {"name": f"thing {number}", "amount": 1, "unit": "", "aisle": "other"}]}))
                for other in devices:
                    await receive_until_async(
                        other, lambda m: m["type"] == "list" and len(m["items"]) == number + 1, 10,
                        f"change {number} on every device")
            # Replacing the links (on whichever process) closes the devices that came with one.
            status, _, _ = request(f"{cluster.url}/api/recipes/links?token={owner}", "POST", b"")
            assert status == 200
            for device in devices[1::2]:
                with pytest.raises(ConnectionClosed) as closed:
                    await receive_until_async(device, lambda m: False, 10, "the close")
                assert closed.value.rcvd.code == 1008, closed.value.rcvd
        finally:
            for device in devices:
                await device.close()

    asyncio.run(shop())


def test_devices_of_one_shopping_list_on_two_processes_see_each_others_changes(cluster):
    """nginx sends every shopping socket to one process, but while that process is away its
    devices go to the next, and stay there once it is back: then two processes hold a channel
    of the book. Each stored its whole list over the other's, and each one's devices never saw
    the other's changes. Now a write replaces only the list its process last saw (else its
    unstored changes are applied again to the store's), and each reads the other's changes."""
    soup = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
            "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}
    first, second = cluster.processes[:2]
    # NB: from an address of its own, so that the recipe makes a book (and gives its token)
    # whichever test saved one before.
    host, port = first.address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30,
                                            source_address=("127.0.0.7", 0))
    connection.request("POST", "/api/recipes/import?save=1", json.dumps(soup),
                       {"Content-Type": "application/ld+json"})
    answer = connection.getresponse()
    saved = json.loads(answer.read())
    connection.close()
    assert answer.status == 201 and "book" in saved, saved
    token = saved["book"]["token"]

    def names(message):
        return sorted(item["name"] for item in message["items"])

    async def shop():
        # Each device straight to its own process, as after a failover and the way back.
        a = await connect(f"ws://{first.address}/ws/recipes/shopping?token={token}", open_timeout=10)
        b = await connect(f"ws://{second.address}/ws/recipes/shopping?token={token}", open_timeout=10)
        try:
            for device in (a, b):
                await receive_until_async(device, lambda m: m["type"] == "list", 10, "the list")
            await a.send(json.dumps({"type": "add", "items": [{"name": "apples", "amount": 1}]}))
            await b.send(json.dumps({"type": "add", "items": [{"name": "bread", "amount": 1}]}))
            await a.send(json.dumps({"type": "add", "items": [{"name": "apples", "amount": 2}]}))
            for device, which in ((a, "first"), (b, "second")):
                last = await receive_until_async(
                    device, lambda m: m["type"] == "list" and names(m) == ["apples", "bread"]
                    and {i["name"]: i["amount"] for i in m["items"]}["apples"] == 3, 20,
                    f"both changes on the {which} process's device")
                assert {i["name"]: i["amount"] for i in last["items"]} == {"apples": 3, "bread": 1}
        finally:
            await a.close()
            await b.close()
        # Once both have gone (and their last writes landed), a device on the third process
        # gets both changes from the store.
        deadline = Deadline(20, "both changes in the stored list")
        while True:
            async with connect(f"ws://{cluster.processes[2].address}/ws/recipes/shopping"
                               f"?token={token}", open_timeout=10) as c:
                stored = await receive_until_async(c, lambda m: m["type"] == "list", 10, "the list")
            if {i["name"]: i["amount"] for i in stored["items"]} == {"apples": 3, "bread": 1}:
                break
            await asyncio.sleep(min(0.2, deadline.left()))

    asyncio.run(shop())


def test_metrics_of_every_process_through_nginx(cluster):
    """/metrics/NAME through nginx is process NAME's /metrics (Prometheus' text format, read by
    the Python client's parser), with the lease families of the shared store; /metrics is any
    one process's."""
    from test_metrics import FAMILIES, LEASE_FAMILIES, scrape, value
    made = [create_session(cluster, "bouncing-balls") for _ in range(6)]
    for process in cluster.processes:
        def renewed():
            families = scrape(f"{cluster.url}/metrics/{process.shard}")[0]
            return value(families, "playfield_lease_renewals", "playfield_lease_renewals_total",
                         outcome="renewed") >= 1 and families
        # NB: leases are renewed every 2 s.
        families = wait_until(renewed, 20, f"a lease renewal counted by process {process.shard}")
        assert {name: kind for name, (kind, _) in families.items()} == {**FAMILIES, **LEASE_FAMILIES}
        assert value(families, "playfield_info", shard=process.shard) == 1, "the process named"
        direct = scrape(f"http://{process.address}/metrics")[0]
        assert value(direct, "playfield_info", shard=process.shard) == 1
        mine = [s for s in made if shard(s) == process.shard]
        assert value(families, "playfield_leases_held") >= len(mine) > 0
        assert value(families, "playfield_leases_lost", "playfield_leases_lost_total") == 0
    families, _ = scrape(cluster.url + "/metrics")
    assert [shard for (_, labels) in families["playfield_info"][1] for _, shard in labels][0] in {"a", "b", "c"}


def test_kill_9_a_process_and_its_sessions_are_adopted(cluster):
    kinds = session_kinds(cluster)
    sessions = [create_session(cluster, kinds[i % len(kinds)]) for i in range(12)]
    victim = "c"
    theirs = [s for s in sessions if shard(s) == victim]
    assert theirs, "round robin gave the victim some sessions"
    sent = asyncio.run(drive(cluster, theirs, 1.0, random.Random(9), flush=True))
    time.sleep(1.2)  # more than the second of progress a crash may lose
    before = {s["id"]: request(f"{cluster.url}/api/sessions/{s['id']}")[2]["tick"] for s in theirs}

    killed_at = time.monotonic()
    cluster.process(victim).stop(signal.SIGKILL)
    for session in theirs:
        ticks = asyncio.run(watch_ticks(cluster, session, seconds=10 - (time.monotonic() - killed_at) + 5))
        assert ticks[-1] >= before[session["id"]] - 60, "resumed where it was, at most a second back"
    adopted_within = time.monotonic() - killed_at
    assert adopted_within < 15, adopted_within  # NB: 10 s is the goal; the bound allows a busy machine
    for session in theirs:
        assert len(logged_inputs(cluster, session)) == sent[session["id"]], "nothing the holder said was stored is lost"
        tick, live, replayed = asyncio.run(exact_state(cluster, session))
        assert live == replayed, f"{session['kind']} at {tick}: adopted {live} != uninterrupted {replayed}"
    # The victim comes back as a new process; its old sessions stay with their adopter.
    cluster.process(victim).start(cluster.process(victim).port)
    for session in theirs:
        status, headers, body = request(f"{cluster.url}/api/sessions/{session['id']}")
        assert status == 200, body


async def frame_ticks(ws, seconds):
    """The ticks of the frames `ws` receives in the next `seconds` (a bounded wait)."""
    deadline = Deadline(seconds, "frames")
    ticks = []
    while not deadline.passed:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline.end - time.monotonic())))
        except asyncio.TimeoutError:
            break
        if message["type"] == "frame":
            ticks.append(message["tick"])
    return ticks


def test_a_paused_process_is_fenced_off(cluster):
    """SIGSTOP past the lease: another process adopts the session; after SIGCONT the paused one
    applies nothing more (its lease ran out on its own clock: the fence before apply), finds
    its lease taken and drops the session: no tick is applied by two processes, and the stale
    holder's writes never reach the log."""
    sessions = [create_session(cluster, "bouncing-balls") for _ in range(6)]
    paused = "b"
    session = next(s for s in sessions if shard(s) == paused)
    process = cluster.process(paused)

    async def run():
        old = await connect(f"{cluster.ws_url}/ws/sessions/{session['id']}?token={session['token']}")
        await old.send(json.dumps({"type": "add-ball", "x": 11, "y": 11, "vx": 1, "vy": 1, "id": 1}))
        await receive_until_async(old, lambda m: m.get("type") == "ack", 10, "the ack")
        time.sleep(1.2)
        process.process.send_signal(signal.SIGSTOP)
        try:
            # Everything the process sent before it stopped, read while it stays stopped past
            # its lease: the newest tick it applied.
            before = await frame_ticks(old, clusters.LEASE_SECONDS + 1)
            assert before, "the session streamed frames before the pause"
            # nginx gives the paused process up after its read timeout (and leaves it alone for
            # a while); the next process adopts the session, its lease having run out.
            status, _, body = await asyncio.to_thread(
                request, f"{cluster.url}/api/sessions/{session['id']}", timeout=40)
            assert status == 200, body
            async with connect(f"{cluster.ws_url}/ws/sessions/{session['id']}?token={session['token']}") as new:
                for n in range(3):
                    await new.send(json.dumps({"type": "add-ball", "x": 50 + n, "y": 50, "vx": 1, "vy": 1,
                                               "id": 100 + n}))
                    await receive_until_async(new, lambda m: m.get("type") == "ack", 10, "the new holder's ack")
        finally:
            process.process.send_signal(signal.SIGCONT)
        # Inputs to the stale copy: the paused process must apply none of them, nor any tick.
        for n in range(3):
            try:
                await old.send(json.dumps({"type": "add-ball", "x": 200 + n, "y": 200, "vx": 1, "vy": 1}))
            except Exception:
                break
        # NB: read what it sends until the close, or the close is never read.
        deadline = Deadline(20, "the paused process closing its copy's clients")
        after = []
        try:
            while True:
                message = json.loads(await asyncio.wait_for(old.recv(), deadline.left()))
                if message["type"] == "frame":
                    after.append(message["tick"])
        except ConnectionClosed:
            return old.close_code, max(before), after

    close_code, last_tick, after = asyncio.run(run())
    assert close_code == 1013, "the paused process dropped the session and told its clients"
    # NB: a tick stepped just before SIGSTOP may have its frame still waiting on the event loop
    # (running frames are latest-only: at most one per socket), or half written: it arrives
    # after SIGCONT, newer than any read during the pause. Under load that is common, and was
    # this test's flake. A stale copy stepped after SIGCONT would send a frame every tick
    # until its renewal found the lease taken (dozens).
    newer = [tick for tick in after if tick > last_tick]
    assert len(newer) <= 2, \
        f"the paused process stepped its stale copy past tick {last_tick} after SIGCONT: {after}"

    def xs():
        return sorted(int(i["input"]["x"]) for i in logged_inputs(cluster, session))
    # NB: the new holder writes every 250 ms; whoever answers, the log is the store's.
    wait_until(lambda: len(xs()) >= 4, 10, "the new holder's inputs in the log")
    assert xs() == [11, 50, 51, 52], "the stale holder's inputs never reached the log"
    assert process.process.poll() is None, "the paused process lives on"


def postgres_processes(cluster):
    """PostgreSQL's postmaster and every process it started."""
    postmaster = int((cluster.postgres.data / "postmaster.pid").read_text().split()[0])
    found = [postmaster]
    for entry in pathlib.Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                found.append(int(entry.name))
        except (OSError, IndexError, ValueError):
            pass
    return found


async def upgrade_status(url, seconds):
    """What a WebSocket upgrade to `url` comes to within `seconds`: 101, or the HTTP status
    it was refused with."""
    try:
        async with connect(url, open_timeout=seconds):
            return 101
    except InvalidStatus as error:
        return error.response.status_code


def test_a_stalled_database_holds_up_no_event_loop(cluster):
    """PostgreSQL frozen (SIGSTOP: connections open, no answers): listings of the shared store,
    and WebSocket upgrades for a session not live on the process (which may adopt it), wait on a
    store worker, not on an event loop, so the same process still serves a static file and a
    live session's socket meanwhile; they are answered once it is back."""
    session = create_session(cluster, "bouncing-balls")
    process = cluster.process(shard(session))
    direct = f"http://{process.address}"
    elsewhere = next(s for s in (create_session(cluster, "bouncing-balls") for _ in range(6))
                     if shard(s) != shard(session))
    frozen = postgres_processes(cluster)

    async def run():
        async with connect(f"ws://{process.address}/ws/sessions/{session['id']}") as ws:
            await receive_until_async(ws, lambda m: m["type"] == "frame", 10, "a frame")
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            try:
                # More listings than the process has event loops (2): on the event loops, they
                # would hold up every one of them.
                listings = [asyncio.create_task(asyncio.to_thread(request, direct + "/api/sessions", timeout=60))
                            for _ in range(4)]
                # Upgrades for a session another process holds: this one asks the store for it.
                upgrades = [asyncio.create_task(upgrade_status(f"ws://{process.address}/ws/sessions/{elsewhere['id']}",
                                                               60))
                            for _ in range(4)]
                # NB: within seconds of the freeze, before the live session's lease nears its end.
                frames = await frame_ticks(ws, 0.5)
                assert len(frames) >= 2 and frames == sorted(frames), "the live session's frames go on"
                status, _, _ = await asyncio.to_thread(request, direct + "/css/playfield.css", timeout=10)
                assert status == 200, "a static file while the listings and upgrades wait"
                await ws.send(json.dumps({"type": "ping", "id": "p"}))
                await receive_until_async(ws, lambda m: m["type"] == "pong", 10, "the session socket's pong")
                assert not any(listing.done() for listing in listings), "the listings wait for the database"
                assert not any(upgrade.done() for upgrade in upgrades), "the upgrades wait for the database"
            finally:
                for pid in frozen:
                    os.kill(pid, signal.SIGCONT)
            return ([status for status, _, _ in await asyncio.gather(*listings)],
                    await asyncio.gather(*upgrades))

    statuses, upgraded = asyncio.run(run())
    assert statuses == [200] * 4, statuses
    # NB: the session is its own process's, which renews its lease: here it is held elsewhere.
    assert upgraded == [503] * 4, upgraded
    for each in cluster.processes:
        wait_until(lambda: request(f"http://{each.address}/healthz")[2]["status"] == "ok", 60,
                   f"process {each.shard} healthy again")


def test_postgresql_restarted_under_load(cluster):
    kinds = session_kinds(cluster)
    sessions = [create_session(cluster, kinds[i % len(kinds)]) for i in range(6)]
    # NB: nginx shuns a process for its fail_timeout after one stalled (the test before); a
    # client retries meanwhile, as this one does.
    wait_until(lambda: all(request(f"{cluster.url}/api/sessions/{s['id']}")[0] == 200 for s in sessions),
               30, "every session reachable through nginx")

    async def load_and_restart():
        driving = asyncio.create_task(drive(cluster, sessions, 6.0, random.Random(3)))
        await asyncio.sleep(1)
        await asyncio.to_thread(cluster.postgres.stop)
        degraded = await asyncio.to_thread(
            wait_until, lambda: request(cluster.url + "/healthz")[2]["status"] == "degraded", 20,
            "/healthz to say degraded while PostgreSQL is away")
        await asyncio.sleep(1)
        await asyncio.to_thread(cluster.postgres.start)
        return degraded, await driving

    degraded, sent = asyncio.run(load_and_restart())
    assert degraded
    for process in cluster.processes:
        wait_until(lambda: request(f"http://{process.address}/healthz")[2]["status"] == "ok", 60,
                   f"process {process.shard} healthy again")
    for session in sessions:
        assert len(logged_inputs(cluster, session)) == sent[session["id"]], "every acknowledged input kept"
        ticks = asyncio.run(watch_ticks(cluster, session))
        assert ticks[-1] > ticks[0]


def test_postgresql_away_longer_than_a_lease(cluster):
    """PostgreSQL stopped for longer than a lease, under load: the sessions go on stepping in
    memory (nobody can adopt them while it is away), frames keep flowing to a spectator, every
    process's /healthz says degraded with the queue of writes waiting, and every input
    acknowledged meanwhile is in the log once PostgreSQL is back, each tick written once."""
    sessions = [create_session(cluster, "bouncing-balls") for _ in range(4)]
    wait_until(lambda: all(request(f"{cluster.url}/api/sessions/{s['id']}")[0] == 200 for s in sessions),
               30, "every session reachable through nginx")
    away = clusters.LEASE_SECONDS + 3

    async def run():
        acked = {s["id"]: [] for s in sessions}
        errors = []
        frames = []

        async def read(ws, session, spectator=False):
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "ack":
                    acked[session["id"]].append(message["id"])
                elif message["type"] == "error":
                    errors.append((session["id"], message))
                elif spectator and message["type"] == "frame":
                    frames.append((time.monotonic(), message["tick"]))

        controllers = [await connect(f"{cluster.ws_url}/ws/sessions/{s['id']}?token={s['token']}", max_queue=None)
                       for s in sessions]
        spectator = await connect(f"{cluster.ws_url}/ws/sessions/{sessions[0]['id']}", max_queue=None)
        readers = [asyncio.create_task(read(ws, s)) for ws, s in zip(controllers, sessions)]
        readers.append(asyncio.create_task(read(spectator, sessions[0], spectator=True)))
        sent = {s["id"]: 0 for s in sessions}

        async def send_for(seconds):
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                for ws, session in zip(controllers, sessions):
                    n = sent[session["id"]]
                    await ws.send(json.dumps({"type": "add-ball", "x": 50 + n / 4, "y": 40, "vx": 1, "vy": 1,
                                              "id": n}))
                    sent[session["id"]] = n + 1
                await asyncio.sleep(0.2)

        try:
            await send_for(1.5)
            await asyncio.to_thread(cluster.postgres.stop)
            stopped = time.monotonic()
            await send_for(clusters.LEASE_SECONDS + 1.5)
            healths = [request(f"http://{p.address}/healthz")[2] for p in cluster.processes]
            during = {s["id"]: sent[s["id"]] for s in sessions}
            await send_for(away - (time.monotonic() - stopped))
            await asyncio.to_thread(cluster.postgres.start)
            await send_for(1.5)
            deadline = Deadline(30, "the acks of every input sent")
            while sum(map(len, acked.values())) < sum(sent.values()) and not errors:
                await asyncio.sleep(min(0.05, deadline.left()))
        finally:
            for ws in controllers + [spectator]:
                await ws.close()
            for reader in readers:
                reader.cancel()
        return stopped, acked, sent, during, errors, frames, healths

    stopped, acked, sent, during, errors, frames, healths = asyncio.run(run())
    assert not errors, errors
    for session in sessions:
        assert acked[session["id"]] == list(range(sent[session["id"]])), "every input acknowledged, in order"
        assert during[session["id"]] > 20, "inputs were sent while PostgreSQL was away"
    # Past the lease (and its margin) with PostgreSQL still away, the spectator's session steps on.
    late = [tick for at, tick in frames if stopped + clusters.LEASE_SECONDS + 1 <= at <= stopped + away - 0.5]
    assert len(late) >= 10, f"frames past the lease while PostgreSQL was away: {late}"
    assert late == sorted(late) and late[-1] > late[0], late
    for health in healths:
        assert health["status"] == "degraded", health
        assert "sessions go on" in health["leases"], health["leases"]
    assert sum(h["pendingWrites"]["inputs"] for h in healths) > 0, "the writes wait in the queue"

    for process in cluster.processes:
        wait_until(lambda: request(f"http://{process.address}/healthz")[2]["status"] == "ok", 60,
                   f"process {process.shard} healthy again")
    for session in sessions:
        logged = wait_until(lambda: len(entries := logged_inputs(cluster, session)) >= sent[session["id"]]
                            and entries, 20, "every acknowledged input in the log")
        assert [i["input"]["x"] for i in logged] == [50 + n / 4 for n in range(sent[session["id"]])], \
            "every acknowledged input is in the log, in order"
        # NB: exactly the inputs acknowledged, once each, in tick order: no second holder wrote.
        ticks = [i["tick"] for i in logged]
        assert ticks == sorted(ticks), "the log is in tick order"
    # The sessions were never handed over: still live, still stepping.
    for session in sessions:
        ticks = asyncio.run(watch_ticks(cluster, session))
        assert ticks[-1] > ticks[0]


def test_past_the_bound_of_waiting_writes_new_inputs_are_refused(cluster):
    """PostgreSQL away and the queue of writes at its bound (`--pending-bytes 2048`, one process
    of its own): every input acknowledged is queued and reaches the log when PostgreSQL is
    back; the inputs after the bound is reached get `storage-backlog`, naming the option, and
    /healthz says degraded with the queue's depth. (`cluster`: skipped, saying why, without PostgreSQL or nginx.)"""
    small = clusters.Cluster(1, extra=["--pending-bytes", "2048"])
    small.ws_url = "ws://" + small.url[len("http://"):]
    try:
        session = create_session(small, "bouncing-balls")

        async def run():
            acked, refused = [], []
            async with connect(f"{small.ws_url}/ws/sessions/{session['id']}?token={session['token']}",
                               max_queue=None) as ws:
                await asyncio.to_thread(small.postgres.stop)
                for n in range(40):
                    await ws.send(json.dumps({"type": "add-ball", "x": 50 + n, "y": 40, "vx": 1, "vy": 1,
                                              "id": n}))
                    await asyncio.sleep(0.05)
                deadline = Deadline(20, "an answer to every input")
                while len(acked) + len(refused) < 40:
                    message = json.loads(await asyncio.wait_for(ws.recv(), deadline.left()))
                    if message["type"] == "ack":
                        acked.append(message["id"])
                    elif message["type"] == "error":
                        refused.append(message)
                health = request(f"http://{small.processes[0].address}/healthz")[2]
                await asyncio.to_thread(small.postgres.start)
            return acked, refused, health

        acked, refused, health = asyncio.run(run())
        # NB: an input is counted once applied, so a slow tick may let a few more in; never fewer.
        assert len(acked) >= 5 and acked == list(range(len(acked))), acked
        assert [m["id"] for m in refused] == list(range(len(acked), 40))
        assert {m["error"] for m in refused} == {"storage-backlog"}
        assert "--pending-bytes" in refused[0]["message"], refused[0]
        assert "cannot be written" in refused[0]["message"], refused[0]
        assert health["status"] == "degraded", health
        assert health["pendingWrites"]["inputs"] == len(acked), health["pendingWrites"]
        assert health["pendingWrites"]["byteBound"] == 2048
        assert health["pendingWrites"]["refusedInputs"] == len(refused)
        wait_until(lambda: request(f"http://{small.processes[0].address}/healthz")[2]["status"] == "ok", 60,
                   "the process healthy again")
        logged = wait_until(lambda: len(entries := logged_inputs(small, session)) >= len(acked) and entries, 20,
                            "the acknowledged inputs in the log")
        assert [i["input"]["x"] for i in logged] == [50 + n for n in acked], "every acknowledged input, once"
    finally:
        small.stop()
