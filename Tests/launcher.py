"""The one way tests, benchmarks and scripts start `playfield serve`: on a free port (or a
given one), with a fresh database in a temporary folder unless told, its standard error in
`server.log` there, its address read from the listening line within a bound. And `demos()`,
the one list of demos (`Demo.all`, as `playfield demos` prints it) for whatever needs it
before a server runs.

Used by Tests/conftest.py, clients/python/tests/conftest.py, Benchmarks/ and scripts/cluster.py
(each puts this folder on `sys.path`)."""
import functools
import json
import os
import pathlib
import signal
import subprocess
import tempfile
import threading

from deadline import read_line

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = pathlib.Path(os.environ.get("PLAYFIELD_BIN", ROOT / ".build" / "release" / "playfield"))


class Playfield:
    """A running `playfield serve` process and where it listens."""

    def __init__(self, *extra, database=None, port=0, env=None, prefix=(), preexec_fn=None,
                 binary=None, directory=None, log_name="server.log", process_group=None,
                 timeout=60):
        """`extra`: more `serve` options; `prefix` runs the binary under another command
        (`setpriv ...`); `preexec_fn` runs in the child before it starts (limits); `binary`
        another build than this checkout's release one (or `PLAYFIELD_BIN`); `directory` the
        folder of the default database and of the log `log_name`, appended to (a fresh
        temporary one when None), so that a process started again there keeps both;
        `process_group` as `subprocess.Popen`'s (0: a group of its own, out of Ctrl-C's reach);
        `timeout` the bound in seconds on the wait for the listening line."""
        binary = pathlib.Path(binary or BINARY)
        if not binary.exists():
            raise RuntimeError(f"{binary} is missing: run `swift build -c release` first")
        self.directory = str(directory or tempfile.mkdtemp(prefix="playfield-test-"))
        self.database = database or os.path.join(self.directory, "playfield.db")
        self.log_path = os.path.join(self.directory, log_name)
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [*prefix, str(binary), "serve", "--port", str(port), "--database", self.database,
             *extra],
            stdout=subprocess.PIPE, stderr=self.log, env={**os.environ, **(env or {})},
            preexec_fn=preexec_fn, process_group=process_group)
        try:
            line = read_line(self.process.stdout, timeout, "the server's listening line")
            line = line.decode().strip()
        except TimeoutError:
            line = ""
        if not line.startswith("Playfield listening on http://"):
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self.log.close()
            raise RuntimeError(f"unexpected first line {line!r}; log: {self.read_log()}")
        # NB: anything the server prints later must not fill the pipe and block it.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.url = line.split(" on ", 1)[1]
        self.host, port = self.url[len("http://"):].rsplit(":", 1)
        self.port = int(port)
        self.ws_url = "ws://" + self.url[len("http://"):]

    def read_log(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def alive(self):
        return self.process.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=15):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


@functools.cache
def demos(binary=None):
    """Every demo this build serves, in gallery order, as `GET /api/demos` lists them
    (`playfield demos` prints that body): the one registry, for lists a test or benchmark
    needs before a server runs (its parameters)."""
    result = subprocess.run([str(binary or BINARY), "demos"], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"`playfield demos` failed ({result.returncode}): {result.stderr}")
    return json.loads(result.stdout)["demos"]


# NB: the session demos whose sessions send a frame only when a step changes the board (street
# soccer is turn-based: docs/protocol.md section 5); all others send one every tick, which is
# what a script that counts frames to count ticks needs.
FRAMES_ON_CHANGE = {"street-soccer"}


def demo_names(session=None, every_tick=False, binary=None):
    """The demos' names, in gallery order; only those that run a session (`session=True`) or
    only pages (`session=False`); with `every_tick`, only sessions that send a frame each tick."""
    return [demo["name"] for demo in demos(binary)
            if (session is None or demo["session"] == session)
            and not (every_tick and (not demo["session"] or demo["name"] in FRAMES_ON_CHANGE))]
