"""The client's tests run against the real server: `.build/release/playfield` of this checkout
(or `PLAYFIELD_BIN`), started on a free port with a fresh database."""
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

from playfield_client import Client

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The repository's test helpers (Tests/deadline.py: bounds on whole waits).
sys.path.insert(0, str(ROOT / "Tests"))
from deadline import read_line  # noqa: E402
BINARY = pathlib.Path(os.environ.get("PLAYFIELD_BIN", ROOT / ".build" / "release" / "playfield"))


class Server:
    """`playfield serve` on `port` (0: any free one) with the database `database`."""

    def __init__(self, port=0, database=None, args=()):
        if not BINARY.exists():
            raise RuntimeError(f"{BINARY} is missing: run `swift build -c release` first")
        self.directory = tempfile.mkdtemp(prefix="playfield-client-")
        self.database = database or os.path.join(self.directory, "playfield.db")
        self.log = open(os.path.join(self.directory, "server.log"), "wb")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--database", self.database, *args],
            stdout=subprocess.PIPE, stderr=self.log)
        try:
            line = read_line(self.process.stdout, 60, "the server's listening line").decode().strip()
        except TimeoutError:
            line = ""
        if not line.startswith("Playfield listening on http://"):
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line.split(" on ", 1)[1]
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


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
