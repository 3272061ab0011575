"""`playfield serve` refuses a bad limit with one line and exit code 64, and `--help` lists every
limit with its default (issue 21: each limit declared once); `playfield demos` lists the demos."""
import json
import subprocess
import urllib.request


def run(binary, *arguments):
    return subprocess.run([str(binary), *arguments], capture_output=True, text=True, timeout=30)


def test_a_bad_limit_is_one_line_and_exit_code_64(playfield_binary):
    cases = [
        (["serve", "--max-sessions", "0"], "--max-sessions must be a whole number from 1 to 100000, not 0"),
        (["serve", "--tile-wait", "-2"], "--tile-wait must be more than 0 and at most 3600 seconds, not -2"),
        (["serve", "--inputs-per-session", "many"], "--inputs-per-session must be a whole number"),
        (["--sphere-queue=0"], "--sphere-queue must be a whole number from 1 to 10000000, not 0"),
        (["serve", "--no-such-limit", "1"], "unknown option --no-such-limit"),
        (["serve", "--port", "http"], "'--port <port>'"),
        # NB: test-only (test_cluster_parking_race), and only on a shared store.
        (["serve", "--test-hold-admission", "hold"], "--test-hold-admission is for tests only"),
    ]
    for arguments, message in cases:
        result = run(playfield_binary, *arguments)
        assert result.returncode == 64, (arguments, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], (arguments, lines)
        assert result.stdout == ""


def test_help_lists_every_limit_with_its_default(playfield_binary):
    result = run(playfield_binary, "serve", "--help")
    assert result.returncode == 0
    for line in ["--max-sessions (default 256)", "--inputs-per-session (default 200000)",
                 "--tile-wait (default 10 seconds)", "--sphere-queue (default 64)",
                 "--header-timeout (default 10 seconds)", "--families-per-address (default 4)",
                 "--input-log-bytes-per-client (default "]:
        assert line in result.stdout, line
    assert "--test-hold-admission" not in result.stdout, "a test-only option is not offered"


def test_demos_prints_what_the_server_lists(playfield_binary, playfield):
    """`playfield demos` (what tests and scripts read before a server runs) is `GET /api/demos`,
    every demo of the registry in gallery order, sessions flagged."""
    result = run(playfield_binary, "demos")
    assert result.returncode == 0 and result.stderr == ""
    printed = json.loads(result.stdout)
    with urllib.request.urlopen(playfield.url + "/api/demos", timeout=10) as response:
        assert printed == json.load(response)
    names = [demo["name"] for demo in printed["demos"]]
    assert len(names) == len(set(names)) and {"maze", "mandelbrot"} <= set(names)
    assert [demo["session"] for demo in printed["demos"] if demo["name"] in ("maze", "mandelbrot")] \
        == [True, False]
