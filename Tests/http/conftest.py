"""Targets for the robustness suite.

    pytest Tests/http                    # our release binary (.build/release/playfield)
    pytest Tests/http --nginx            # nginx serving the same site with the same bounds
    pytest Tests/http --target-url http://127.0.0.1:8080 --target-public DIR \
        --header-timeout 10 --idle-timeout 15 --body-timeout 20

By default the suite starts our release binary on a temporary copy of the test site, with short
timeouts (hidden options `--header-timeout`, `--idle-timeout`, `--body-timeout`,
`--max-connections`). `--nginx` runs the same cases against nginx (1.22 here) serving the same
site with the same bounds (see nginx.conf), to check that the expectations are those of a server
people trust. `--target-url URL --target-public DIR` points the suite at any other running
server whose public folder is DIR: the suite writes its files there and a secret beside it (in
DIR's parent), and must be told the server's timeouts.
"""
import importlib.util
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from rawhttp import Connection, request
import sitefiles

HERE = pathlib.Path(__file__).resolve().parent


def pytest_addoption(parser):
    group = parser.getgroup("robustness")
    group.addoption("--target-url", help="run against this server (e.g. http://127.0.0.1:8080)")
    group.addoption("--target-public", help="the public folder of --target-url's server")
    group.addoption("--nginx", action="store_true", help="start nginx and run against it")
    group.addoption("--header-timeout", type=float, default=1.0, help="seconds (target's)")
    group.addoption("--idle-timeout", type=float, default=1.0, help="seconds (target's)")
    group.addoption("--body-timeout", type=float, default=1.0, help="seconds (target's)")


class Target:
    """A server under test: where it listens, what it serves, and its timeouts."""

    def __init__(self, kind, host, port, public, timeouts, process=None):
        self.kind = kind
        self.host = host
        self.port = port
        self.public = pathlib.Path(public)
        self.header_timeout, self.idle_timeout, self.body_timeout = timeouts
        self.process = process

    def connect(self, timeout=5.0):
        return Connection(self.host, self.port, timeout=timeout)

    def exchange(self, data, method="GET", timeout=5.0):
        """Sends `data` on a new connection and reads one response."""
        with self.connect(timeout) as connection:
            connection.send(data)
            return connection.read_response(method)

    def get(self, target="/", headers=(), method="GET", version="HTTP/1.1"):
        return self.exchange(request(method, target, version, headers=headers), method=method)

    def answers(self):
        """Whether a plain GET of a known file still works."""
        try:
            response = self.get("/notes.txt")
        except (OSError, TimeoutError, ValueError):
            return False
        return response.status == 200 and response.body == sitefiles.FILES["notes.txt"]

    def alive(self):
        return self.process is None or self.process.poll() is None


def playfield_class():
    """`Playfield` from Tests/conftest.py: the real binary on a free port."""
    spec = importlib.util.spec_from_file_location("playfield_fixtures", HERE.parent / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Playfield


# Host names the cases send, besides localhost and IP literals.
HOSTS = ["h", "a", "b", "other", "example.com"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_listening(host, port, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {host}:{port}")


def start_nginx(directory, public, timeouts):
    port = free_port()
    header, idle, body = timeouts
    text = (HERE / "nginx.conf").read_text()
    for key, value in {
        "DIR": str(directory), "PUBLIC": str(public), "PORT": str(port),
        "HEADER_TIMEOUT": f"{int(header * 1000)}ms", "IDLE_TIMEOUT": f"{int(idle * 1000)}ms",
        "BODY_TIMEOUT": f"{int(body * 1000)}ms",
    }.items():
        text = text.replace(f"@{key}@", value)
    config = directory / "nginx.conf"
    config.write_text(text)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen(
        [nginx, "-c", str(config), "-p", str(directory)],
        stdout=subprocess.DEVNULL, stderr=open(directory / "stderr.log", "wb"))
    wait_until_listening("127.0.0.1", port)
    return process, port


@pytest.fixture(scope="session")
def target(request, start_target):
    return start_target()


@pytest.fixture(scope="session")
def start_target(request, tmp_path_factory):
    """Starts (or describes) the server under test; extra Playfield options may be given."""
    options = request.config.option
    timeouts = (options.header_timeout, options.idle_timeout, options.body_timeout)
    started = []

    def start(*extra):
        if options.target_url:
            if extra:
                pytest.skip("needs a server started with special options")
            if not options.target_public:
                raise pytest.UsageError("--target-url needs --target-public")
            sitefiles.build(options.target_public)
            host, port = options.target_url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
            return Target("external", host, int(port), options.target_public, timeouts)
        if options.nginx:
            # nginx's workers run as nobody: give them a world-readable folder.
            directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-nginx-"))
            directory.chmod(0o755)
            started.append(lambda: shutil.rmtree(directory, ignore_errors=True))
        else:
            directory = tmp_path_factory.mktemp("site")
        public = sitefiles.build(directory / "public")
        if options.nginx:
            if extra:
                pytest.skip("needs a Playfield option nginx has no equivalent for")
            process, port = start_nginx(directory, public, timeouts)
            target = Target("nginx", "127.0.0.1", port, public, timeouts, process)
            started.append(lambda: (process.terminate(), process.wait(10)))
            return target
        server = playfield_class()(
            "--public", str(public), "--header-timeout", str(timeouts[0]),
            "--idle-timeout", str(timeouts[1]), "--body-timeout", str(timeouts[2]),
            # The cases name short hosts (h, a, other, example.com): answer to them as nginx does.
            *[flag for name in HOSTS for flag in ("--allow-host", name)], *extra,
            database=str(directory / "playfield.db"))
        started.append(server.stop)
        return Target("playfield", server.host, server.port, public, timeouts, server.process)

    yield start
    for stop in reversed(started):
        stop()


@pytest.fixture(autouse=True)
def still_serving(request):
    """After every case the server must still be running and answer a normal request."""
    yield
    if "target" not in request.fixturenames:
        return
    target = request.getfixturevalue("target")
    assert target.alive(), "the server process died"
    assert target.answers(), "the server no longer answers a normal request"
