"""A database this process cannot use is refused at start with one clear line and exit code 1:
a second process on a SQLite file another one serves (issue 23, item 3), and a PostgreSQL URL
that is wrong or unreachable (issue 25)."""
import socket
import subprocess


def serve(binary, database, seconds=60):
    """Runs `playfield serve` on a free port with `database`; it must exit by itself."""
    return subprocess.run([str(binary), "serve", "--port", "0", "--database", database],
                          capture_output=True, text=True, timeout=seconds)


def critical_lines(result):
    """The lines of its log that say it cannot start."""
    return [line for line in result.stderr.splitlines() if "cannot start" in line]


def test_a_second_server_on_one_sqlite_file_refuses_to_start(start_playfield, playfield_binary):
    first = start_playfield()
    second = serve(playfield_binary, first.database)
    assert second.returncode == 1, second.stderr
    assert second.stdout == "", "it never announced that it listens"
    lines = critical_lines(second)
    assert len(lines) == 1, second.stderr
    assert f"the database {first.database} is in use by another Playfield process" in lines[0]
    assert f"pid {first.process.pid} on host " in lines[0], "the message names who holds it"
    assert first.url in lines[0], "and what it serves"
    # The first server did not notice; once it stops, the file is free for the next one.
    assert first.alive()
    assert first.stop() == 0
    after = start_playfield(database=first.database)
    assert after.alive()


def closed_port():
    """A local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_or_wrong_postgresql_url_is_one_line_and_exit_code_1(playfield_binary):
    cases = [
        (f"postgresql://playfield@127.0.0.1:{closed_port()}/playfield", "cannot connect to PostgreSQL"),
        ("postgresql://playfield@[not-a-host/playfield", "PostgreSQL"),
        ("postgresql://playfield@127.0.0.1:99999/playfield", "PostgreSQL"),
    ]
    for url, message in cases:
        result = serve(playfield_binary, url)
        assert result.returncode == 1, (url, result.stderr)
        assert result.stdout == ""
        lines = critical_lines(result)
        assert len(lines) == 1 and message in lines[0], (url, result.stderr)
        assert "Fatal error" not in result.stderr and "Stack dump" not in result.stderr
