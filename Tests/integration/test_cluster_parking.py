"""A parked session's return that the cluster refuses parks nobody (issue 32's quotas).

A return from storage that needs a place made on its process parks one idle session there, and
the owner's live sessions on every process are counted (`clusterRefusal`). Before, the park came
first: a client holding its whole `--sessions-per-client` on process `b` asked process `a`
(full) for its session parked there; `a` parked another client's idle session to make room, and
only then did the count across the processes refuse the return: that session was parked for
nothing. Now the cluster is asked first, counting the park only for what it surely takes off the
owner's counts (here nothing: no candidate is the owner's), and nothing is parked.

Starts PostgreSQL and two processes itself (test_partition's `behind_proxy`, no nginx); skipped, saying why, only when PostgreSQL's binaries are missing (`make test-deps`).
"""
import pytest

from deadline import wait_until
from helpers import request
from test_partition import Partition, behind_proxy, query

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

PER_CLIENT = 2
OWNER = {"X-Forwarded-For": "10.9.2.1"}
OTHERS = [{"X-Forwarded-For": f"10.9.2.{n}"} for n in (2, 3, 4)]


@pytest.fixture
def two_processes():
    """PostgreSQL, process `a` with room for 3 live sessions and `b` with the default room,
    both at `PER_CLIENT` sessions per client (`a` behind a proxy that passes everything)."""
    per_client = ("--sessions-per-client", str(PER_CLIENT))
    with behind_proxy(Partition, direct=True,
                      extras=((*per_client, "--max-sessions", "3"), per_client)) as (proxy, (a, b)):
        yield proxy.postgres, a, b


def create(process, client):
    status, _, body = request(process.url + "/api/sessions", "POST", {"kind": "maze"},
                              headers=client)
    assert status == 201, body
    return body


def parks(process):
    return process.server.read_log().count("parked: idle and unwatched")


def leased(postgres, session):
    """Whether the store says a process holds `session`'s lease."""
    return query(postgres,
                 f"SELECT lease_owner IS NOT NULL FROM sessions WHERE id = '{session}'") == "t"


def test_a_return_the_cluster_refuses_parks_nobody(two_processes):
    postgres, a, b = two_processes
    parked = create(a, OWNER)["id"]
    others = [create(a, client)["id"] for client in OTHERS[:2]]  # NB: `a` is full now
    # The owner's next session there needs a place: its own first one is parked for it.
    mine = create(a, OWNER)
    assert f"session {parked} parked" in a.server.read_log()
    assert parks(a) == 1
    # That place goes, a third client takes it (`a` is full again, of other clients' idle
    # sessions), and once the parked session's lease is given up, the owner fills its quota
    # on `b`.
    status, _, body = request(f"{a.url}/api/sessions/{mine['id']}", "DELETE",
                              headers={**OWNER, "Authorization": f"Bearer {mine['token']}"})
    assert status == 204, body
    others.append(create(a, OTHERS[2])["id"])
    wait_until(lambda: not leased(postgres, parked), 20, "the parked session's lease given up")
    for _ in range(PER_CLIENT):
        create(b, OWNER)
    assert parks(b) == 0

    status, _, body = request(f"{a.url}/api/sessions/{parked}", headers=OWNER)
    assert status == 429, body
    assert "counted across every process" in body["error"], body
    # Before, one of the other clients' sessions was parked to make room first.
    assert parks(a) == 1, a.server.read_log()
    assert f"session {parked} parked" in a.server.read_log()
    for other in others:
        status, _, body = request(f"{a.url}/api/sessions/{other}")
        assert status == 200, body
    assert parks(a) == 1, "asking for them parked nobody either"


def test_a_create_the_cluster_refuses_parks_nobody(two_processes):
    """The same for a new session: `a` is full of other clients' idle sessions and the owner
    holds its whole quota on `b`. Before, `a` parked one of the others' sessions to make room,
    and only then did the count across the processes refuse the create."""
    postgres, a, b = two_processes
    others = [create(a, client)["id"] for client in OTHERS]  # NB: `a` is full now
    for _ in range(PER_CLIENT):
        create(b, OWNER)

    status, _, body = request(a.url + "/api/sessions", "POST", {"kind": "maze"}, headers=OWNER)
    assert status == 429, body
    assert "counted across every process" in body["error"], body
    assert parks(a) == 0, a.server.read_log()
    for other in others:
        status, _, body = request(f"{a.url}/api/sessions/{other}")
        assert status == 200, body
    assert parks(a) == 0, "asking for them parked nobody either"
