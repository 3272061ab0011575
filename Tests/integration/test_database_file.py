"""Issue 17, finding 9: deleting or replacing the database file under a running server is
noticed: /healthz is degraded, new sessions say they are not durable, the log says why."""
import os
import shutil

from helpers import request


def test_a_deleted_database_file_degrades_health(start_playfield):
    server = start_playfield()
    status, _, health = request(server.url + "/healthz")
    assert health["status"] == "ok" and health["databaseFile"] == "database file ok"
    assert request(server.url + "/api/sessions", "POST", {"kind": "maze"})[2]["durable"] is True

    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(server.database + suffix):
            os.remove(server.database + suffix)
    status, _, health = request(server.url + "/healthz")
    assert status == 200
    assert health["status"] == "degraded"
    assert "deleted" in health["databaseFile"]
    status, _, created = request(server.url + "/api/sessions", "POST", {"kind": "maze"})
    assert status == 201
    assert created["durable"] is False
    assert "deleted" in created["warning"]
    assert "the database file was deleted while open" in server.read_log()


def test_a_replaced_database_file_degrades_health(start_playfield, tmp_path):
    server = start_playfield()
    copy = tmp_path / "copy.db"
    shutil.copy(server.database, copy)
    os.replace(copy, server.database)
    health = request(server.url + "/healthz")[2]
    assert health["status"] == "degraded"
    assert "replaced" in health["databaseFile"]
    assert "the database file was replaced while open" in server.read_log()
