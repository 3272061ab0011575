"""The client's tests run against the real server: `.build/release/playfield` of this checkout
(or `PLAYFIELD_BIN`), started on a free port with a fresh database."""
import pathlib
import sys

import pytest

from playfield_client import Client

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The repository's test helpers (Tests/launcher.py starts the server; Tests/deadline.py: bounds
# on whole waits).
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402


class Server(Playfield):
    """`playfield serve` on `port` (0: any free one) with the database `database`."""

    def __init__(self, port=0, database=None, args=()):
        super().__init__(*args, port=port, database=database)


@pytest.fixture(scope="session")
def server():
    running = Server()
    yield running
    assert running.process.poll() is None, "the server died during the tests"
    running.stop()


@pytest.fixture
def client(server):
    return Client(server.url)


@pytest.fixture
def start_server():
    """Starts servers a test may stop and restart; stops them afterwards."""
    started = []

    def start(**options):
        started.append(Server(**options))
        return started[-1]

    yield start
    for running in started:
        running.stop()
