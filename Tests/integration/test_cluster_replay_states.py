"""Replay-state answers are kept by the process that worked them out; in a cluster another
process may delete the session. Once it has, no process serves a kept answer for it: 404, as
for any deleted session (before, the process that kept it went on answering 200)."""
import signal
import time

import pytest

from deadline import Deadline, wait_until
from helpers import create_session, request
from test_cluster import clusters, shard, start_cluster

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


def test_a_session_deleted_by_another_process_has_no_replay_state_kept_anywhere():
    cluster = start_cluster(2, [])
    try:
        session = create_session(cluster, "bouncing-balls")
        holder = cluster.process(shard(session))
        other = next(p for p in cluster.processes if p is not holder)
        replay = f"/api/sessions/{session['id']}/replay?tick=0"
        for _ in range(2):  # worked out, then kept
            status, _, kept = request(holder.server.url + replay, timeout=30)
            assert status == 200, kept
        # The holder stops past its lease; the other process takes the session over, as nginx
        # would send it there, and deletes it.
        holder.process.send_signal(signal.SIGSTOP)
        try:
            time.sleep(clusters.LEASE_SECONDS + 1)
            url = f"{other.server.url}/api/sessions/{session['id']}"
            deadline = Deadline(30, "the other process deleting the session")
            while True:
                status, _, body = request(
                    url, "DELETE", headers={"Authorization": f"Bearer {session['token']}"})
                if status == 204:
                    break
                assert status == 503, body  # held by the stopped process a little longer
                time.sleep(min(0.2, deadline.left()))
        finally:
            holder.process.send_signal(signal.SIGCONT)
        assert request(other.server.url + replay, timeout=30)[0] == 404
        # The holder finds its lease gone and drops its copy.
        wait_until(lambda: f"session {session['id']} dropped" in holder.server.read_log(), 30,
                   "the holder dropping the session")
        status, _, body = request(holder.server.url + replay, timeout=30)
        assert status == 404, body
    finally:
        cluster.stop()
