"""Issue 36, what a new user and other people's tools hit first: opening the server by a host
name, `make run ALLOW_HOST`, `serve --help`, the lock file in `git status`, gzipped tile
counts and a cacheable `/oembed`."""
import gzip
import pathlib
import socket
import subprocess
import urllib.parse

import pytest

import helpers

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def raw(server, method, path, headers, body=None):
    """One request with exactly these headers, to the server's loopback address."""
    return helpers.raw(server, method, path, headers, body, address="127.0.0.1", timeout=30)


def create(server, host):
    return raw(server, "POST", "/api/sessions", {"Host": host, "Content-Type": "application/json"},
               b'{"kind":"maze"}')


def test_bound_to_every_address_the_machines_own_names_open_sessions(start_playfield):
    # README: `make run PORT=9000 HOST=0.0.0.0`, then the page opened by the machine's name.
    server = start_playfield("--host", "0.0.0.0")
    name = socket.gethostname().lower()
    assert name and name != "localhost"
    short = name.split(".")[0]
    for host in [name, f"{name}:{server.port}", f"{short}.local:{server.port}", f"{short.upper()}:{server.port}"]:
        status, _, body = create(server, host)
        assert status == 201, (host, body)
    # Still a guard against DNS rebinding: a name an attacker holds gets 421.
    assert create(server, f"rebind.example:{server.port}")[0] == 421
    assert "sessions answer the Host names" in server.read_log()


def test_bound_to_loopback_the_machines_name_is_refused(playfield):
    # Only a server that listens on the network answers the names the network knows it by.
    assert create(playfield, f"{socket.gethostname()}:{playfield.port}")[0] == 421


def test_the_421_says_which_name_and_how_to_allow_it(playfield):
    status, headers, body = create(playfield, f"rebind.example:{playfield.port}")
    assert status == 421
    # JSON on an API route, as its other errors: the page shows the reason (api.js).
    assert headers["Content-Type"] == "application/json"
    import json
    message = json.loads(body)["error"]
    assert "--allow-host rebind.example" in message and "ALLOW_HOST=rebind.example" in message
    assert "DNS rebinding" in message
    # A page that holds state answers in text, with the same reason.
    status, headers, body = raw(playfield, "GET", "/sessions", {"Host": "rebind.example"})
    assert status == 421 and b"--allow-host rebind.example" in body


def test_subdomains_of_localhost_are_answered(playfield):
    assert create(playfield, f"playfield.localhost:{playfield.port}")[0] == 201


def test_make_run_passes_allow_host(tmp_path):
    result = subprocess.run(["make", "-n", "run", "ALLOW_HOST=a.example b.example", "HOST=0.0.0.0"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    command = " ".join(result.stdout.replace("\\\n", " ").split())
    assert "serve --host 0.0.0.0" in command
    assert "--allow-host a.example --allow-host b.example" in command


def test_the_lock_file_is_ignored_by_git():
    # A server leaves playfield.db.lock beside playfield.db; `git status` must not show it.
    result = subprocess.run(["git", "check-ignore", "-q", "--no-index", "playfield.db.lock"], cwd=ROOT,
                            timeout=30)
    assert result.returncode == 0


def test_help_shows_the_common_options_first_and_the_exit_codes(playfield_binary):
    result = subprocess.run([str(playfield_binary), "serve", "--help"], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    where = {name: next(i for i, line in enumerate(lines) if line.lstrip().startswith(name))
             for name in ["--host", "--port", "--allow-host", "--database", "EXIT CODES:", "LIMITS"]}
    assert where["--host"] < 10 and where["--port"] < 12, lines[:12]
    assert where["--host"] < where["--port"] < where["--database"] < where["EXIT CODES:"] < where["LIMITS"]
    codes = lines[where["EXIT CODES:"] + 1:where["LIMITS"]]
    assert [line.split()[0] for line in codes if line[:3].strip().isdigit()] == ["0", "1", "64"]
    # `help serve` is the same text.
    again = subprocess.run([str(playfield_binary), "help", "serve"], capture_output=True, text=True, timeout=30)
    assert again.stdout == result.stdout


def test_exit_code_1_when_the_address_is_taken(playfield, playfield_binary, tmp_path):
    # The code the help promises for "cannot start".
    result = subprocess.run(
        [str(playfield_binary), "serve", "--port", str(playfield.port), "--database", str(tmp_path / "x.db")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""


def test_counts_are_gzipped_for_a_client_that_takes_gzip(playfield):
    path = "/tiles/mandelbrot/3/2/3.counts?iter=300"
    status, plain_headers, plain = raw(playfield, "GET", path, {"Host": "127.0.0.1"})
    assert status == 200 and len(plain) == 262_160
    assert plain_headers.get("Content-Encoding") is None
    assert plain_headers["Vary"] == "Accept-Encoding"
    status, headers, packed = raw(playfield, "GET", path, {"Host": "127.0.0.1", "Accept-Encoding": "gzip, br"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed) == plain
    assert len(packed) < len(plain) / 3
    # Each coding has its own validator (RFC 9110 §8.8.3), and each revalidates.
    assert headers["ETag"] != plain_headers["ETag"]
    assert raw(playfield, "GET", path, {"Host": "127.0.0.1", "Accept-Encoding": "gzip",
                                        "If-None-Match": headers["ETag"]})[0] == 304
    assert raw(playfield, "GET", path, {"Host": "127.0.0.1", "If-None-Match": headers["ETag"]})[0] == 200
    # `gzip;q=0` refuses it; a PNG is never gzipped again.
    assert raw(playfield, "GET", path, {"Host": "127.0.0.1", "Accept-Encoding": "gzip;q=0"})[1].get(
        "Content-Encoding") is None
    png = raw(playfield, "GET", "/tiles/mandelbrot/3/2/3.png", {"Host": "127.0.0.1", "Accept-Encoding": "gzip"})
    assert png[0] == 200 and png[1].get("Content-Encoding") is None and png[2][:4] == b"\x89PNG"


@pytest.mark.parametrize("format", ["json", "xml"])
def test_oembed_answers_may_be_cached(playfield, format):
    page = urllib.parse.quote(f"{playfield.url}/demos/maze", safe="")
    status, headers, body = raw(playfield, "GET", f"/oembed?url={page}&format={format}",
                                {"Host": f"127.0.0.1:{playfield.port}"})
    assert status == 200, body
    assert headers["Cache-Control"] == "public, max-age=86400"
    assert b"86400" in body  # cache_age, oEmbed's own field
