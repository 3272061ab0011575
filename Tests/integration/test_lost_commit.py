"""A create whose COMMIT went through but whose answer was lost (the connection to PostgreSQL
dropped in between) is stored, and treated as stored: not run in memory only while its row
exists. Before, it was marked memory-only (`durable: false`, `/healthz` degraded): never written
again nor deleted, and back at the next restart with none of its inputs.

Starts PostgreSQL and one process itself (scripts/cluster.py), the process reaching PostgreSQL
through a TCP proxy (test_partition's) that drops the answer to the COMMIT of the first
transaction that inserts a session; skipped, saying why, only when PostgreSQL's binaries are
missing (`make test-deps`).
"""
import pytest

from helpers import request
from test_partition import Partition, behind_proxy

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


class LostCommit(Partition):
    """Passes everything, but once armed, resets the connection that sent the COMMIT of a
    transaction inserting a session, in place of passing on PostgreSQL's answer to it (the
    COMMIT done, its answer lost)."""

    armed = False
    lost = 0

    def passes(self, pair, source, data):
        upstream = source is pair["sockets"][1]
        with self.lock:
            if not upstream and self.armed and b"INSERT INTO sessions" in data:
                pair["inserting"] = True
            if not upstream and pair.get("inserting") and b"COMMIT\x00" in data:
                pair["committing"] = True
            if upstream and pair.get("committing") and b"COMMIT\x00" in data:
                self.armed = False
                self.lost += 1
                return False
        return True


def test_a_create_whose_commit_answer_was_lost_is_stored_not_memory_only():
    with behind_proxy(LostCommit, direct=False) as (proxy, (process,)):
        with proxy.lock:
            proxy.armed = True
        status, _, created = request(process.url + "/api/sessions", "POST", {"kind": "maze"})
        assert proxy.lost == 1, "the answer to the create's COMMIT was lost"
        assert status == 201, created
        assert created.get("durable") is True, created.get("warning")
        status, _, health = request(process.url + "/healthz")
        assert health.get("memoryOnlySessions") == 0, health
        # It is stored as any other: its delete reaches the store.
        status, _, _ = request(
            f"{process.url}/api/sessions/{created['id']}?token={created['token']}", "DELETE")
        assert status == 204
        status, _, _ = request(f"{process.url}/api/sessions/{created['id']}")
        assert status == 404
