"""Shared fixtures for the Python tests: the real `playfield` binary on a free port
(launcher.py starts it)."""
import signal

import pytest

from launcher import BINARY, ROOT, Playfield  # noqa: F401  (Playfield: for other modules too)


@pytest.fixture(scope="session")
def playfield_binary():
    """The `playfield` executable the tests run."""
    if not BINARY.exists():
        raise RuntimeError(f"{BINARY} is missing: run `swift build -c release` first")
    return BINARY


@pytest.fixture(scope="session")
def playfield():
    server = Playfield()
    yield server
    assert server.alive(), "the server died during the tests:\n" + server.read_log()
    server.stop()


@pytest.fixture
def start_playfield():
    """Starts extra servers (for restarts and kills); stops them after the test."""
    started = []

    def start(*extra, **kwargs):
        server = Playfield(*extra, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop(signal.SIGKILL)
