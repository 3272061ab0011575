"""An admission the exact count across the cluster refuses leaves no park behind.

A create or a return from storage that needs a place made on its process asks the cluster first
(counting the owner's live sessions on every process), parks one idle session, admits, then
counts again exactly. Between the two counts another process may admit a session of the same
owner: the exact count refuses, and before, the session parked for the refused admission stayed
parked for nothing (its owner, another client here, lost a live session). Now it comes back.

The race is made deterministic, not timed: process `a` runs with the test-only
`--test-hold-admission PATH`; while the test holds the file PATH, an admission on `a` that parked
a session stops between the two counts (writing PATH.held) until the test removes PATH; the test
has process `b` admit the owner's session meanwhile. Every wait is bounded.

Starts PostgreSQL and two processes itself (test_partition's `behind_proxy`, no nginx); skipped,
saying why, only when PostgreSQL's binaries are missing (`make test-deps`).
"""
import concurrent.futures

import pytest

from deadline import wait_until
from helpers import request
from test_cluster_parking import OTHERS, OWNER, PER_CLIENT, create, leased
from test_partition import Partition, behind_proxy, query

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
def two_processes(tmp_path):
    """PostgreSQL, process `a` with room for 3 live sessions and its admissions held at the
    file it is given, and `b` with the default room, both at `PER_CLIENT` sessions per client;
    and that file's path (not there: nothing is held)."""
    per_client = ("--sessions-per-client", str(PER_CLIENT))
    gate = tmp_path / "hold"
    a_extras = (*per_client, "--max-sessions", "3", "--test-hold-admission", str(gate))
    with behind_proxy(Partition, direct=True, extras=(a_extras, per_client)) as (proxy, (a, b)):
        yield proxy.postgres, a, b, gate


def parked_sessions(process):
    status, _, body = request(process.url + "/healthz")
    assert status == 200, body
    return body["parkedSessions"]


def held_while(gate, asking, meanwhile):
    """Runs `asking()` with the process's admissions held at `gate`: once it stops between the
    two counts, runs `meanwhile()`, lets it go on, and returns what `asking()` returned."""
    gate.write_text("hold\n")
    held = gate.with_name(gate.name + ".held")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        answer = pool.submit(asking)
        try:
            wait_until(held.exists, 20, "the admission held between the two counts")
            meanwhile()
        finally:
            gate.unlink()
        return answer.result(timeout=40)


def assert_brought_back(postgres, a, answer, others, parks, parked):
    """`answer` is the exact count's refusal, `a` parked one more session for it (`parks` in
    all), and that one is back: `parked` stay parked there, and every one of `others` is live
    (its lease held). Before, the one parked for the refused admission stayed parked too."""
    status, _, body = answer
    assert status == 429, body
    assert "counted across every process" in body["error"], body
    log = a.server.read_log()
    assert log.count("parked: idle and unwatched") == parks, log
    assert parked_sessions(a) == parked, log
    assert "back: the admission it was parked for was refused" in log, log
    for other in others:
        assert leased(postgres, other), other


def test_a_create_refused_by_the_exact_count_leaves_no_park(two_processes):
    postgres, a, b, gate = two_processes
    others = [create(a, client)["id"] for client in OTHERS]  # NB: `a` is full now
    create(b, OWNER)  # one place of the owner's quota left, counted across the processes
    assert parked_sessions(a) == 0

    def owner_creates_on_a():
        return request(a.url + "/api/sessions", "POST", {"kind": "maze"}, headers=OWNER,
                       timeout=40)

    # The early count passes (one place left), `a` parks another client's idle session for
    # the owner's new one, and meanwhile the owner takes its last place on `b`.
    answer = held_while(gate, owner_creates_on_a, lambda: create(b, OWNER))
    # Before, that session stayed parked for nothing (parkedSessions 1); now it is back.
    assert_brought_back(postgres, a, answer, others, parks=1, parked=0)


def test_a_return_refused_by_the_exact_count_leaves_no_park(two_processes):
    """The same for a return from storage: the owner's session parked on `a` is asked for
    while `a` is full of other clients' idle sessions; one is parked for it, and meanwhile the
    owner takes its last place on `b`."""
    postgres, a, b, gate = two_processes
    parked = create(a, OWNER)["id"]
    others = [create(a, client)["id"] for client in OTHERS[:2]]  # NB: `a` is full now
    mine = create(a, OWNER)  # its first one is parked for it
    assert parked_sessions(a) == 1
    status, _, body = request(f"{a.url}/api/sessions/{mine['id']}", "DELETE",
                              headers={**OWNER, "Authorization": f"Bearer {mine['token']}"})
    assert status == 204, body
    others.append(create(a, OTHERS[2])["id"])  # `a` is full again, of others' idle sessions
    wait_until(lambda: not leased(postgres, parked), 20, "the parked session's lease given up")
    create(b, OWNER)  # one place of the owner's quota left
    parks_before = a.server.read_log().count("parked: idle and unwatched")

    def owner_asks_on_a():
        return request(f"{a.url}/api/sessions/{parked}", headers=OWNER, timeout=40)

    answer = held_while(gate, owner_asks_on_a, lambda: create(b, OWNER))
    status, _, body = answer
    if status == 429:
        # Before, the session parked for the return stayed parked too (parkedSessions 2).
        assert_brought_back(postgres, a, answer, others, parks=parks_before + 1, parked=1)
        return
    # NB: `a` holds the returning session's lease from before its first count, so `b` counts it
    # and makes room by parking the owner's own idle session there; whether `a`'s exact count
    # still sees that one live depends on when `b`'s release lands (a wait of the store, not of
    # this test): then no admission was too many, and the return is let in. It took the place
    # made for it (that park stays), and the owner holds no more live sessions than it may.
    assert status == 200, body
    assert a.server.read_log().count("parked: idle and unwatched") == parks_before + 1
    assert parked_sessions(a) == 1
    assert "to make room" in b.server.read_log()
    owner_live = ("SELECT count(*) FROM sessions WHERE lease_owner IS NOT NULL "
                  f"AND owner_client LIKE '{OWNER['X-Forwarded-For']}%'")
    wait_until(lambda: int(query(postgres, owner_live)) <= PER_CLIENT, 20,
               "the owner back within its live sessions across the cluster")


def test_an_address_bound_refused_by_the_exact_count_leaves_no_park(two_processes):
    """The same at the address's bound: two clients behind one address, a browser family on
    `a` (its `playfield_client` cookie, which only `a` knows) and the bare address on `b`.
    With `a`'s room of 3, the address's share there is `PER_CLIENT` live sessions, counted
    across the processes."""
    postgres, a, b, gate = two_processes
    status, headers, _ = request(a.url + "/", headers=OWNER)
    assert status == 200
    family = {**OWNER, "Cookie": headers["Set-Cookie"].split(";", 1)[0]}
    others = [create(a, client)["id"] for client in OTHERS]  # NB: `a` is full now
    create(b, OWNER)  # the address's one place left (the family holds none)
    assert parked_sessions(a) == 0

    def family_creates_on_a():
        return request(a.url + "/api/sessions", "POST", {"kind": "maze"}, headers=family,
                       timeout=40)

    # Meanwhile the address's other client takes its last place on `b`.
    answer = held_while(gate, family_creates_on_a, lambda: create(b, OWNER))
    assert "address" in answer[2]["error"], answer
    assert_brought_back(postgres, a, answer, others, parks=1, parked=0)
