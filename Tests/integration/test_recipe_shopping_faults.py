"""Issue 33: a shopping list the store cannot read is never shown (nor stored) as empty: its
devices are told, and closed with 1013 (try again later)."""
import json
import sqlite3

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from deadline import Deadline, receive_until
from test_recipe_shopping_order import saved_book, wait_until_stored

# Long enough lines that the stored list spills into overflow pages (16 KiB pages).
NAMES = [f"line-{i:03d}-" + "x" * 180 for i in range(150)]


def corrupt_overflow_pages(database):
    """Breaks the chain of pages that holds the end of the stored list: the book's row, and
    every column before `shopping`, stay readable; reading the list fails (SQLITE_CORRUPT)."""
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    with open(database, "r+b") as f:
        data = bytearray(f.read())
        overflow = [
            start for start in range(0, len(data), page_size)
            if b"line-" in data[start:start + page_size]
            and NAMES[0].encode() not in data[start:start + page_size]]
        assert overflow, "the list did not spill into overflow pages"
        for start in overflow:
            data[start:start + 4] = b"\xff\xff\xff\xff"  # the next page: past the file's end
        f.seek(0)
        f.write(data)


def test_a_list_the_store_cannot_read_closes_its_devices_with_1013(start_playfield):
    server = start_playfield()
    token = saved_book(server)
    url = f"{server.ws_url}/ws/recipes/shopping?token={token}"
    with connect(url, max_size=None) as device:
        receive_until(device, lambda m: m["type"] == "list", 10, "the list")
        device.send(json.dumps({"type": "add", "items": [
            {"name": name, "amount": 1, "unit": "", "aisle": "other"} for name in NAMES]}))
        receive_until(device, lambda m: m["type"] == "list" and len(m["items"]) == len(NAMES),
                      10, "the change acknowledged")
    wait_until_stored(server.database, sorted(NAMES), 20)
    assert server.stop() == 0
    corrupt_overflow_pages(server.database)
    with sqlite3.connect(server.database) as db:
        assert db.execute("SELECT COUNT(*) FROM recipe_books WHERE owner_hash IS NOT NULL"
                          ).fetchone() == (1,)
        with pytest.raises(sqlite3.DatabaseError):
            db.execute("SELECT shopping FROM recipe_books").fetchone()
    db.close()

    server = start_playfield(database=server.database)
    url = f"{server.ws_url}/ws/recipes/shopping?token={token}"
    for attempt in range(2):  # a second device after the first was closed: the same
        with connect(url) as device:
            error = receive_until(device, lambda m: True, 10, "the first message")
            assert error == {"type": "error",
                             "message": "the shopping list could not be read; try again"}
            deadline = Deadline(10, "the close")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = device.recv(timeout=deadline.left())
                    assert False, f"a message after the error: {message}"
            assert closed.value.rcvd.code == 1013, closed.value
    assert "the shopping list of a book could not be read" in server.read_log()
    assert server.alive()
