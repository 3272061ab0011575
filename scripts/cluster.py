#!/usr/bin/env python3
"""Playfield on several processes: one PostgreSQL database, N `playfield serve --shard` processes,
nginx in front (docs/deployment.md says why it is built this way).

    scripts/cluster.py nginx-config --port 8080 --dir /var/lib/playfield-nginx \\
        a=127.0.0.1:9001 b=127.0.0.1:9002 c=127.0.0.1:9003 > nginx.conf
    scripts/cluster.py run [--port 8080] [--processes 3]        # what `make cluster` runs

`run` makes a temporary folder, starts PostgreSQL there (initdb, a free port), the processes on
free ports and nginx on `--port`, prints `Playfield cluster listening on http://127.0.0.1:PORT`
once all answer, and then supervises them: a Playfield process, nginx or PostgreSQL that exits
is started again (on the same port, after a back-off that doubles while it keeps dying young),
with a line on standard output saying so. Only Ctrl-C (SIGINT) or SIGTERM stops the cluster: the
processes, nginx and PostgreSQL, then the folder. The cluster tests
(Tests/integration/test_cluster*.py) start their clusters with the same classes.
"""
import argparse
import glob
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The one way to start `playfield serve` (and its BINARY: PLAYFIELD_BIN or the release build).
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import BINARY, Playfield  # noqa: E402
SHARD_NAMES = "abcdefghijklmnopqrstuvwxyz"
# How long a session lease lasts unless renewed (StorageJournal.leaseSeconds).
LEASE_SECONDS = 6

# The paths that name a session or a compare group (its id begins with the shard that made it,
# and holds it: `a.ID`).
SESSION_PATHS = r"^/(?:api/sessions|ws/sessions|ws/replays|sessions|ws/compare)/"


def nginx_config(shards, port, directory, listen="127.0.0.1"):
    """nginx's configuration for `shards` ({name: "HOST:PORT"}), listening on `listen:port`,
    with its pid, logs, temporary files and tile cache in `directory`."""
    everyone = "\n".join(
        f"    server {address} max_fails=3 fail_timeout=10s;" for address in shards.values())
    per_shard = []
    for name, address in shards.items():
        # The shard's own process first; the others stand in (in a fixed order, so that every
        # request for the session goes to the same one) when it is down or says another
        # process holds the session (503).
        # NB: a 503 counts as a failure to nginx; max_fails=0 keeps a backup that said "held
        # by another process" (a 503) from being shut out for fail_timeout.
        backups = "\n".join(
            f"    server {other} backup max_fails=0;" for n, other in shards.items() if n != name)
        per_shard.append(
            f"  upstream playfield_shard_{name} {{\n    zone playfield_shard_{name} 64k;\n"
            f"    server {address} max_fails=1 fail_timeout=5s;\n{backups}\n    keepalive 16;\n  }}")
    shard_upstreams = "\n".join(per_shard)
    # Each process's /metrics at /metrics/NAME, to that process only (a scraper asks each).
    metrics = "\n".join(
        f"    location = /metrics/{name} {{\n      proxy_pass http://{address}/metrics;\n"
        f"      proxy_next_upstream off;\n    }}" for name, address in shards.items())
    routes = "\n".join(f'    "~{SESSION_PATHS}{name}\\." playfield_shard_{name};' for name in shards)
    # (A book's links too: replacing or revoking them closes the devices that came with them.)
    routes += "\n    /ws/recipes/shopping playfield_shopping;\n    /api/recipes/links playfield_shopping;"
    return f"""# Playfield behind nginx: written by scripts/cluster.py for {len(shards)} processes
# ({", ".join(f"{n}={a}" for n, a in shards.items())}). See docs/deployment.md.
worker_processes 2;
daemon off;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 4096; }}

http {{
  access_log off;
  client_body_temp_path {directory}/body;
  proxy_temp_path {directory}/proxy;
  fastcgi_temp_path {directory}/fastcgi;
  uwsgi_temp_path {directory}/uwsgi;
  scgi_temp_path {directory}/scgi;
  # Tiles never change for one URL, so a cached tile costs no Playfield process anything.
  proxy_cache_path {directory}/tiles levels=1:2 keys_zone=playfield_tiles:16m max_size=512m
                   inactive=1d use_temp_path=off;

  # A WebSocket upgrade is passed on; other requests keep the upstream connection alive.
  map $http_upgrade $playfield_connection {{
    default upgrade;
    ""      "";
  }}
  # A session's requests go to the shard its id names; everything else (and an id of no
  # shard here, which gets its 404 from any process) to any process.
  map $uri $playfield_upstream {{
{routes}
    default playfield_all;
  }}

  # Anything that is not a session: any process.
  # (zone: every worker shares what it learns of the processes being down.)
  upstream playfield_all {{
    zone playfield_all 64k;
{everyone}
    keepalive 32;
  }}
  # Cold work (tile renders, sphere packings, recipe imports): each client address to one process (the next
  # one on the ring while it is down), so that the per-client and per-address limits of that
  # process are the client's across the cluster (docs/deployment.md, "Quotas").
  upstream playfield_by_address {{
    zone playfield_by_address 64k;
    hash $remote_addr consistent;
{everyone}
    keepalive 32;
  }}
  # The live shopping lists: every book's devices on one process (the next one on the ring
  # while it is down), since a book's devices share one live list (ShoppingHub) and reach it
  # through links of different tokens, which nothing here can map to their book.
  upstream playfield_shopping {{
    zone playfield_shopping 64k;
    hash "shopping" consistent;
{everyone}
    keepalive 4;
  }}
{shard_upstreams}

  server {{
    listen {listen}:{port};
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $playfield_connection;
    proxy_set_header X-Forwarded-For $remote_addr;
    # A process that takes connections but does not answer (stopped, or stuck) is given up
    # after 8 s and left alone for 10 s (fail_timeout); WebSockets below may stay quiet far
    # longer, and a tile may take its full --tile-wait.
    proxy_connect_timeout 2s;
    proxy_read_timeout 8s;
    proxy_buffering off;
    # A process that is down, or that answers 503 (a session another process holds, or full),
    # hands the request to the next; POST included (a refused POST did nothing).
    proxy_next_upstream error timeout http_502 http_503 non_idempotent;
    proxy_next_upstream_timeout 30s;

    location /tiles/ {{
      proxy_pass http://playfield_by_address;
      proxy_buffering on;
      proxy_cache playfield_tiles;
      proxy_cache_valid 200 1d;
      proxy_cache_lock on;
      proxy_read_timeout 30s;
      add_header X-Cache-Status $upstream_cache_status always;
    }}
    location /api/spheres {{
      proxy_pass http://playfield_by_address;
    }}
    # Recipe imports (and the pages fetched for them): their per-client quotas are a process's.
    location = /api/recipes/import {{
      proxy_pass http://playfield_by_address;
    }}
    # /metrics: any one process's (Prometheus' text format); /metrics/NAME: process NAME's.
    location = /metrics {{
      proxy_pass http://playfield_all;
    }}
{metrics}
    location /ws/ {{
      proxy_pass http://$playfield_upstream;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
    }}
    location / {{
      proxy_pass http://$playfield_upstream;
    }}
  }}
}}
"""


def missing_tools():
    """Why a cluster cannot start here (PostgreSQL's server binaries or nginx are missing), or
    None: the cluster tests skip with it."""
    try:
        Postgres.binaries()
    except FileNotFoundError as error:
        return str(error)
    if not os.access(shutil.which("nginx") or "/usr/sbin/nginx", os.X_OK):
        return "nginx is missing: run `make test-deps`, which installs it"
    return None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_taken(port, host="127.0.0.1"):
    """Why nginx could not listen on `host`:`port` (another program does), or None. Bound as
    nginx binds it (SO_REUSEADDR): a port left in TIME_WAIT is free."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return (f"port {port} on {host} is not free ({error.strerror}): stop what listens there, "
                    f"or choose another port (`make cluster PORT=8081`)")
    return None


def get(url, timeout=2):
    """(status, body) of a GET, or (None, error) when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError as error:
        return None, str(error)


def wait_for(condition, seconds, what):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what}: not within {seconds} s")


# A watchdog (`watch`): argv is the parent's pid, the watched process's pid and its stop command
# (JSON). It polls both twice a second: the watched process gone, it ends; the parent gone (or
# this watchdog handed to another parent), it runs the stop command and ends.
WATCHDOG = """
import json, os, subprocess, sys, time
parent, watched, stop = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
while alive(watched):
    if os.getppid() != parent or not alive(parent):
        subprocess.run(stop, timeout=60, capture_output=True)
        break
    time.sleep(0.5)
"""


def watch(pid, stop):
    """Starts a watchdog of process `pid` (in a session of its own, so no signal to this
    process's group reaches it) that runs the command `stop` when this process dies, however
    it dies (kill -9 of a test run or of the supervisor included), so that nothing a cluster
    started is left running; it ends by itself when `pid` ends first. Returns its Popen."""
    return subprocess.Popen(
        [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(pid or 0), json.dumps(stop)],
        start_new_session=True, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


def unwatch(watchdog):
    """Ends a watchdog `watch` started, if it runs (it would end within 0.5 s of its process)."""
    if watchdog and watchdog.poll() is None:
        watchdog.kill()
        watchdog.wait()


class Postgres:
    """A PostgreSQL server of its own in `directory` on a free port (as the `postgres` user when
    run as root, since PostgreSQL refuses root)."""

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        self.bin = self.binaries()
        self.user = None
        if os.getuid() == 0:
            import pwd
            try:
                pwd.getpwnam("postgres")
                self.user = "postgres"
            except KeyError:
                self.user = "nobody"
            shutil.chown(self.directory, self.user)
        self.data = self.directory / "data"
        self.port = free_port()
        self.run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                 "--locale=C", "--no-sync")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.directory}'\n"
                       "max_connections = 100\nshared_buffers = 32MB\n")
        self.start()
        self.run("createdb", "-h", self.directory, "-p", str(self.port), "-U", "postgres", "playfield")

    @staticmethod
    def binaries():
        folder = os.environ.get("PLAYFIELD_POSTGRES_BIN")
        found = [folder] if folder else sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                                key=lambda p: int(p.split("/")[-2]))
        found = [f for f in found if os.access(f"{f}/initdb", os.X_OK) and os.access(f"{f}/pg_ctl", os.X_OK)]
        if not found:
            raise FileNotFoundError(
                "PostgreSQL's server binaries (initdb, pg_ctl) are not in /usr/lib/postgresql/*/bin: "
                "run `make test-deps`, which installs Debian's postgresql")
        return found[-1]

    @property
    def url(self):
        return f"postgresql://postgres@127.0.0.1:{self.port}/playfield"

    def run(self, tool, *arguments, timeout=150):
        command = [f"{self.bin}/{tool}", *map(str, arguments)]
        if self.user:
            command = ["/usr/sbin/runuser", "-u", self.user, "--", *command]
        # NB: a process group of its own, so that Ctrl-C reaches the supervisor only.
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd="/",
                                process_group=0)
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed: {result.stdout}{result.stderr}")
        return result

    def start(self):
        self.run("pg_ctl", "start", "-w", "-t", "120", "-D", self.data, "-l",
                 self.directory / "server.log", "-o", f"-p {self.port}")
        self.watch()

    def watch(self):
        """A watchdog that stops this server at once (`pg_ctl stop -m immediate`) if the
        process that started it dies first."""
        stop = [f"{self.bin}/pg_ctl", "stop", "-m", "immediate", "-D", str(self.data)]
        if self.user:
            stop = ["/usr/sbin/runuser", "-u", self.user, "--", *stop]
        unwatch(getattr(self, "watchdog", None))
        self.watchdog = watch(self.pid, stop)

    def restart(self):
        """Starts the server again after it exited (a crash leaves its pid file: pg_ctl knows)."""
        self.start()

    def stop(self, mode="fast"):
        try:
            self.run("pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", self.data, timeout=90)
        finally:
            if not self.running():
                unwatch(self.watchdog)

    @property
    def pid(self):
        """The postmaster's process id, or None when it is not running."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError, IndexError):
            return None

    def running(self):
        return self.pid is not None


class Process:
    """One `playfield serve --shard NAME` on a free port (Tests/launcher.py starts it), its log
    `playfield-NAME.log` in the cluster's folder."""

    def __init__(self, shard, database, directory, extra=(), binary=None):
        self.shard = shard
        self.database = database
        self.directory = pathlib.Path(directory)
        self.extra = list(extra)
        self.binary = binary  # None: Tests/launcher.py's BINARY
        self.start()

    def start(self, port=None):
        self.port = port or free_port()
        try:
            # NB: a process group of its own, so that Ctrl-C reaches the supervisor only.
            self.server = Playfield(
                "--shard", self.shard, "--event-loops", "2", "--trusted-proxy", "127.0.0.1",
                *self.extra, database=self.database, port=self.port, directory=self.directory,
                log_name=f"playfield-{self.shard}.log", process_group=0, binary=self.binary)
        except RuntimeError as error:
            raise RuntimeError(f"process {self.shard} did not start: {error}") from None
        unwatch(getattr(self, "watchdog", None))
        self.watchdog = watch(self.process.pid, ["kill", "-KILL", str(self.process.pid)])

    @property
    def process(self):
        """The running (or exited) `subprocess.Popen`."""
        return self.server.process

    @property
    def log(self):
        return self.server.log

    def running(self):
        return self.process.poll() is None

    def restart(self):
        """Starts the process again on its port (nginx names it by its address), after it exited."""
        self.log.close()
        self.start(self.port)

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def stop(self, sig=signal.SIGTERM, timeout=15):
        self.server.stop(sig, timeout)
        unwatch(self.watchdog)


class Nginx:
    def __init__(self, shards, port, directory):
        self.directory = pathlib.Path(directory)
        self.port = port
        self.binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.access(self.binary, os.X_OK):
            raise FileNotFoundError("nginx is missing: run `make cluster` as root, or `make test-deps`, "
                                    "which install it")
        (self.directory / "nginx.conf").write_text(nginx_config(shards, port, self.directory))
        self.start()

    def start(self):
        self.log = open(self.directory / "nginx.out", "ab")
        self.log_start = self.log.tell()
        # NB: a process group of its own, so that Ctrl-C reaches the supervisor only.
        self.process = subprocess.Popen([self.binary, "-c", str(self.directory / "nginx.conf"),
                                         "-p", str(self.directory)], stdout=self.log, stderr=self.log,
                                        process_group=0)
        unwatch(getattr(self, "watchdog", None))
        # NB: its process group (its workers with it: they outlive a master killed alone).
        self.watchdog = watch(self.process.pid, ["kill", "-KILL", "--", f"-{self.process.pid}"])

    def running(self):
        return self.process.poll() is None

    def answering(self, url):
        """Whether nginx answers `url`'s /healthz; RuntimeError, with the first error nginx
        wrote, when it has exited instead (a port taken since it was checked, a bad config)."""
        if not self.running():
            raise RuntimeError(f"nginx exited at its start: {self.complaint() or 'it wrote nothing'}")
        return get(url + "/healthz")[0] == 200

    def complaint(self):
        """The first error nginx wrote since its last start (its last line when none is marked
        `[emerg]`), or None."""
        self.log.flush()
        with open(self.directory / "nginx.out", "rb") as written:
            written.seek(self.log_start)
            lines = written.read().decode(errors="replace").strip().splitlines()
        return next((line for line in lines if "[emerg]" in line), lines[-1] if lines else None)

    def restart(self):
        self.log.close()
        self.start()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        unwatch(self.watchdog)
        self.log.close()


class Cluster:
    """PostgreSQL, `count` Playfield processes (shards a, b, c, …) and nginx, in a temp folder."""

    def __init__(self, count=3, port=None, extra=(), binary=None):
        binary = pathlib.Path(binary or BINARY)
        if not binary.exists():
            raise FileNotFoundError(f"{binary} is missing: run `swift build -c release --product playfield`")
        if port and (taken := port_taken(port)):
            raise RuntimeError(taken)
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="playfield-cluster-"))
        os.chmod(self.directory, 0o755)
        self.postgres = None
        self.processes = []
        self.nginx = None
        try:
            (self.directory / "pg").mkdir()
            self.postgres = Postgres(self.directory / "pg")
            for name in SHARD_NAMES[:count]:
                self.processes.append(Process(name, self.postgres.url, self.directory, extra, binary))
            (self.directory / "nginx").mkdir()
            self.port = port or free_port()
            self.nginx = Nginx({p.shard: p.address for p in self.processes}, self.port,
                               self.directory / "nginx")
            wait_for(lambda: self.nginx.answering(self.url), 30, "nginx answering /healthz")
        except BaseException:
            self.stop()
            raise

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def process(self, shard):
        return next(p for p in self.processes if p.shard == shard)

    def stop(self):
        if self.nginx:
            self.nginx.stop()
        # NB: every process is told at once, then waited for: a Ctrl-C takes seconds, not 3 × that.
        for process in self.processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGTERM)
        for process in self.processes:
            process.stop()
        if self.postgres:
            try:
                self.postgres.stop()
            except Exception:  # NB: stopping is best effort; the folder goes anyway
                pass
        if not os.environ.get("PLAYFIELD_KEEP_CLUSTER"):  # NB: set it to read the logs after
            shutil.rmtree(self.directory, ignore_errors=True)


class Supervisor:
    """Starts again whatever of a cluster exits (a Playfield process, nginx, PostgreSQL), until
    told to stop. The first restart of a part that ran `STEADY` seconds or more comes after
    `FIRST_DELAY`; each time it dies younger, the delay doubles, up to `MAX_DELAY`. Each death
    and each restart is a line on `out`."""

    FIRST_DELAY = 0.5
    MAX_DELAY = 30.0
    STEADY = 60.0

    def __init__(self, cluster, out=sys.stdout, clock=time.monotonic):
        self.cluster = cluster
        self.out = out
        self.clock = clock
        parts = [(f"process {p.shard}", p) for p in cluster.processes]
        parts += [("nginx", cluster.nginx), ("PostgreSQL", cluster.postgres)]
        now = clock()
        # name: [part, started at, delay of the next restart, when it is due (None: running)]
        self.parts = {name: [part, now, 0.0, None] for name, part in parts}

    def say(self, line):
        print(f"cluster: {line}", file=self.out, flush=True)

    def check(self):
        """Notes the parts that exited since, and starts again those whose back-off is over."""
        now = self.clock()
        for name, state in self.parts.items():
            part, started, delay, due = state
            if due is None:
                if part.running():
                    continue
                young = now - started < self.STEADY
                delay = min(max(delay * 2, self.FIRST_DELAY), self.MAX_DELAY) if young else self.FIRST_DELAY
                state[2], state[3] = delay, now + delay
                self.say(f"{name} exited{self.how(part)}; starting it again in {delay:g} s")
            elif now >= due:
                try:
                    part.restart()
                except (OSError, RuntimeError, subprocess.SubprocessError) as error:
                    delay = min(max(delay * 2, self.FIRST_DELAY), self.MAX_DELAY)
                    state[2], state[3] = delay, self.clock() + delay
                    self.say(f"{name} did not start ({error}); trying again in {delay:g} s")
                    continue
                state[1], state[3] = self.clock(), None
                self.say(f"{name} running again{self.where(part)}")

    @staticmethod
    def how(part):
        process = getattr(part, "process", None)
        if process is None or process.returncode is None:
            return ""
        code = process.returncode
        if code < 0:
            try:
                return f" (killed by {signal.Signals(-code).name})"
            except ValueError:
                return f" (killed by signal {-code})"
        # NB: nginx says why it stopped (a port taken since, a file it cannot write).
        told = getattr(part, "complaint", lambda: None)()
        return f" (status {code}: {told})" if told else f" (status {code})"

    @staticmethod
    def where(part):
        if isinstance(part, Postgres):
            return f" (pid {part.pid}, port {part.port})"
        address = f", {part.address}" if isinstance(part, Process) else ""
        return f" (pid {part.process.pid}{address})"

    def run(self, stopping, period=0.2):
        """Checks every `period` seconds until `stopping()` says so."""
        for name, (part, *_) in self.parts.items():
            self.say(f"{name} started{self.where(part)}")
        while not stopping():
            self.check()
            time.sleep(period)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    config = commands.add_parser("nginx-config", help="write nginx's configuration for N processes")
    config.add_argument("--port", type=int, default=8080)
    config.add_argument("--listen", default="127.0.0.1")
    config.add_argument("--dir", default="/var/lib/playfield-nginx",
                        help="folder for nginx's pid, logs, temporary files and tile cache")
    config.add_argument("shards", nargs="+", metavar="NAME=HOST:PORT")
    run = commands.add_parser("run", help="start PostgreSQL, the processes and nginx until Ctrl-C")
    run.add_argument("--port", type=int, default=8080)
    run.add_argument("--processes", type=int, default=3)
    arguments = parser.parse_args()

    if arguments.command == "nginx-config":
        shards = {}
        for item in arguments.shards:
            name, _, address = item.partition("=")
            if not re.fullmatch(r"[a-z0-9]{1,16}", name) or not address:
                parser.error(f"a process is NAME=HOST:PORT with NAME of a-z and 0-9, not {item!r}")
            shards[name] = address
        sys.stdout.write(nginx_config(shards, arguments.port, arguments.dir, arguments.listen))
        return 0

    if not 1 <= arguments.processes <= len(SHARD_NAMES):
        parser.error(f"--processes must be from 1 to {len(SHARD_NAMES)}")
    stop = []
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.append(True))
    try:
        cluster = Cluster(arguments.processes, arguments.port)
    except (FileNotFoundError, RuntimeError, TimeoutError) as error:
        print(f"cluster: cannot start: {error}", file=sys.stderr)
        return 1
    try:
        print(f"Playfield cluster listening on {cluster.url} (folder {cluster.directory})", flush=True)
        Supervisor(cluster).run(lambda: bool(stop))
        print("cluster: stopping", flush=True)
    finally:
        cluster.stop()
    print("cluster: stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
