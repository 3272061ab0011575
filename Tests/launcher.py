"""The one way tests, benchmarks and scripts start `playfield serve`: on a free port (or a
given one), with a fresh database in a temporary folder unless told, its standard error in
`server.log` there, its address read from the listening line within a bound.

Used by Tests/conftest.py, clients/python/tests/conftest.py, Benchmarks/ and scripts/cluster.py
(each puts this folder on `sys.path`)."""
import os
import pathlib
import signal
import subprocess
import tempfile

from deadline import read_line

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = pathlib.Path(os.environ.get("PLAYFIELD_BIN", ROOT / ".build" / "release" / "playfield"))


class Playfield:
    """A running `playfield serve` process and where it listens."""

    def __init__(self, *extra, database=None, port=0, env=None, prefix=(), preexec_fn=None,
                 binary=None):
        """`extra`: more `serve` options; `prefix` runs the binary under another command
        (`setpriv ...`); `preexec_fn` runs in the child before it starts (limits); `binary`
        another build than this checkout's release one (or `PLAYFIELD_BIN`)."""
        binary = pathlib.Path(binary or BINARY)
        if not binary.exists():
            raise RuntimeError(f"{binary} is missing: run `swift build -c release` first")
        self.directory = tempfile.mkdtemp(prefix="playfield-test-")
        self.database = database or os.path.join(self.directory, "playfield.db")
        self.log_path = os.path.join(self.directory, "server.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [*prefix, str(binary), "serve", "--port", str(port), "--database", self.database,
             *extra],
            stdout=subprocess.PIPE, stderr=self.log, env={**os.environ, **(env or {})},
            preexec_fn=preexec_fn)
        try:
            line = read_line(self.process.stdout, 60, "the server's listening line").decode().strip()
        except TimeoutError:
            line = ""
        if not line.startswith("Playfield listening on http://"):
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"unexpected first line {line!r}; log: {self.read_log()}")
        self.url = line.split(" on ", 1)[1]
        self.host, port = self.url[len("http://"):].rsplit(":", 1)
        self.port = int(port)
        self.ws_url = "ws://" + self.url[len("http://"):]

    def read_log(self):
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
