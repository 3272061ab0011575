"""Issue 22, finding 11: a file-size limit is a write error, not death, and /healthz says a
read-only database is degraded before any write fails."""
import asyncio
import json
import os
import resource
import shutil
import sqlite3
import stat
import tempfile
import time

from websockets.asyncio.client import connect

from deadline import Deadline
from helpers import create_session, request


def test_a_file_size_limit_is_a_write_error_not_death(start_playfield):
    limit = 1 << 20

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    server = start_playfield(preexec_fn=small_files)
    session = create_session(server, "paintbrush", {"maxPoints": 250_000, "maxStrokes": 10_000})
    points = [float(i % 640) for i in range(512)]

    async def paint():
        url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
        async with connect(url, max_queue=None) as ws:
            for number in range(1, 1200):
                await ws.send(json.dumps({"type": "stroke", "author": "big", "stroke": number,
                                          "color": "#ffffff", "radius": 3, "points": points}))
                if number % 50 == 0:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)

    asyncio.run(paint())  # about 3.5 MB of inputs for a database that may not pass 1 MiB
    deadline = Deadline(30, "the storage writer's failure")
    while True:
        assert server.alive(), "SIGXFSZ killed the server:\n" + server.read_log()[-2000:]
        status, _, health = request(server.url + "/healthz")
        if health["status"] == "degraded":
            break
        time.sleep(min(0.25, deadline.left()))
    assert status == 200 and "storage" in health
    assert server.alive()


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_a_read_only_database_degrades_health(start_playfield):
    # NB: root writes any file whatever its mode, so the server runs as nobody here. Nobody may
    # not read the checkout (a clone in a private folder), so its pages go along in copies.
    directory = tempfile.mkdtemp(prefix="playfield-ro-")
    os.chmod(directory, 0o777)
    try:
        folders = []
        for name in ("Public", "Templates"):
            copy = os.path.join(directory, name)
            shutil.copytree(os.path.join(ROOT, name), copy)
            folders += [f"--{name.lower()}", copy]
        for path, names, files in os.walk(directory):
            for name in names + files:
                os.chmod(os.path.join(path, name), 0o755)
        database = os.path.join(directory, "playfield.db")
        server = start_playfield(
            *folders, database=database,
            prefix=("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"))
        health = request(server.url + "/healthz")[2]
        assert health["status"] == "ok", health
        os.chmod(database, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        health = request(server.url + "/healthz")[2]
        assert health["status"] == "degraded"
        assert "read-only" in health["databaseFile"]
        created = request(server.url + "/api/sessions", "POST", {"kind": "maze"})[2]
        assert created["durable"] is False and "read-only" in created["warning"]
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def page_size(database):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as file:
        return file.execute("PRAGMA page_size").fetchone()[0]


def test_a_new_database_file_has_16_kib_pages(start_playfield):
    server = start_playfield()
    create_session(server, "maze")
    assert page_size(server.database) == 16384
    assert os.path.getsize(server.database + "-wal") < 1 << 20


def test_an_older_file_with_4_kib_pages_keeps_them_and_works(start_playfield):
    directory = tempfile.mkdtemp(prefix="playfield-4k-")
    try:
        database = os.path.join(directory, "playfield.db")
        with sqlite3.connect(database) as old:  # as earlier builds made it
            old.execute("PRAGMA page_size = 4096")
            old.execute("PRAGMA auto_vacuum = INCREMENTAL")
            old.execute("PRAGMA journal_mode = WAL")
            old.execute("CREATE TABLE kept (x)")
        server = start_playfield(database=database)
        session = create_session(server, "maze")
        status, _, stored = request(f"{server.url}/api/sessions/{session['id']}")
        assert status == 200 and stored["id"] == session["id"]
        server.stop()
        server = start_playfield(database=database)
        assert request(f"{server.url}/api/sessions/{session['id']}")[0] == 200
        assert page_size(database) == 4096
    finally:
        shutil.rmtree(directory, ignore_errors=True)
