"""A create whose COMMIT went through but whose answer was lost (the connection to PostgreSQL
dropped in between) is stored, and treated as stored: not run in memory only while its row
exists. Before, it was marked memory-only (`durable: false`, `/healthz` degraded): never written
again nor deleted, and back at the next restart with none of its inputs.

A shopping-list write whose UPDATE went through but whose answer was lost is counted as
stored: its changes are never applied again. Before, the write was repeated over the list it
had replaced, refused (the store holds the new list), and its changes applied again to the
store's list: "add 1 apple" became 2 apples on every device and in the store. That is so even
when another process has stored a change of its own over the lost write before the retry (the
store then holds none of this process's lists, but its writes' IDs: `shopping_writes`); before,
that case still made 2 apples.

Starts PostgreSQL and one process (two for the shared-store case) itself (scripts/cluster.py), the process reaching PostgreSQL
through a TCP proxy (test_partition's) that drops the answer to the COMMIT of the first
transaction that inserts a session, or to the first UPDATE of a shopping list (a statement on
its own: committed before its answer is sent); skipped, saying why, only when PostgreSQL's
binaries are missing (`make test-deps`).
"""
import json
import time

import pytest
from websockets.sync.client import connect

from deadline import Deadline, receive_until, wait_until
from helpers import request
from test_partition import Partition, behind_proxy, query
from test_recipe_shopping_order import saved_book

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


class LostCommit(Partition):
    """Passes everything, but once armed, resets the connection that sent the COMMIT of a
    transaction inserting a session, in place of passing on PostgreSQL's answer to it (the
    COMMIT done, its answer lost)."""

    armed = False
    lost = 0

    def passes(self, pair, source, data):
        upstream = source is pair["sockets"][1]
        with self.lock:
            if not upstream and self.armed and b"INSERT INTO sessions" in data:
                pair["inserting"] = True
            if not upstream and pair.get("inserting") and b"COMMIT\x00" in data:
                pair["committing"] = True
            if upstream and pair.get("committing") and b"COMMIT\x00" in data:
                self.armed = False
                self.lost += 1
                return False
        return True


def test_a_create_whose_commit_answer_was_lost_is_stored_not_memory_only():
    with behind_proxy(LostCommit, direct=False) as (proxy, (process,)):
        with proxy.lock:
            proxy.armed = True
        status, _, created = request(process.url + "/api/sessions", "POST", {"kind": "maze"})
        assert proxy.lost == 1, "the answer to the create's COMMIT was lost"
        assert status == 201, created
        assert created.get("durable") is True, created.get("warning")
        status, _, health = request(process.url + "/healthz")
        assert health.get("memoryOnlySessions") == 0, health
        # It is stored as any other: its delete reaches the store.
        status, _, _ = request(
            f"{process.url}/api/sessions/{created['id']}?token={created['token']}", "DELETE")
        assert status == 204
        status, _, _ = request(f"{process.url}/api/sessions/{created['id']}")
        assert status == 404


class LostShoppingAnswer(Partition):
    """Passes everything, but once armed, resets the connection that sent the UPDATE of a
    book's shopping list, in place of passing on PostgreSQL's answer to it (`UPDATE 1`: the
    statement, run on its own, committed before the answer was sent). With `refuse`, every new
    connection is refused from then until `heal()`, so that the process's link cannot repeat the
    statement at once: the write fails, and is tried again later."""

    armed = False
    refuse = False
    lost = 0

    def passes(self, pair, source, data):
        upstream = source is pair["sockets"][1]
        with self.lock:
            if not upstream and self.armed and b"UPDATE recipe_books SET shopping" in data:
                pair["updating"] = True
            if upstream and pair.get("updating") and b"UPDATE 1\x00" in data:
                self.armed = False
                self.lost += 1
                if self.refuse:
                    self.cut_at = time.monotonic()
                return False
        return True


def stored_amounts(postgres):
    """The book's shopping list as the store holds it, read with psql: {name: amount}."""
    (shopping,) = query(postgres, "SELECT shopping FROM recipe_books").splitlines()  # one book
    return {item["name"]: item["amount"] for item in json.loads(shopping)}


def amounts(message):
    return {item["name"]: item["amount"] for item in message["items"]}


def add(device, name):
    device.send(json.dumps({"type": "add", "items": [
        {"name": name, "amount": 1, "unit": "", "aisle": "other"}]}))


def apple_lost(process, proxy, device):
    """`device`, on `process`, adds 1 apple while the answer to the list's UPDATE is lost; with
    `proxy.refuse`, until `process` has logged that write failed (to be tried again later)."""
    with proxy.lock:
        proxy.armed = True
    add(device, "apple")
    receive_until(device, lambda m: m["type"] == "list" and amounts(m) == {"apple": 1}, 10,
                  "the apple acknowledged")
    wait_until(lambda: proxy.lost == 1, 20, "the answer to the list's UPDATE dropped")
    if proxy.refuse:
        wait_until(lambda: "could not be stored; trying again" in process.server.read_log(),
                   20, "the failed write logged")


def added_once(process, proxy, refuse):
    """A device adds 1 apple while the answer to the list's UPDATE is lost (and, with `refuse`,
    the store unreachable for a while after), then 1 bread; once the store holds two changes
    made after both, the device's list and the store's have each once."""
    proxy.refuse = refuse
    token = saved_book(process)
    with connect(f"{process.ws_url}/ws/recipes/shopping?token={token}") as device:
        receive_until(device, lambda m: m["type"] == "list", 10, "the list")
        apple_lost(process, proxy, device)
        if refuse:
            # A change while the write that landed is thought failed: the next write goes over
            # the list the failed one replaced, and is refused.
            add(device, "bread")
            receive_until(device, lambda m: m["type"] == "list" and "bread" in amounts(m), 10,
                          "the bread acknowledged")
            proxy.heal()
        else:
            add(device, "bread")
        # NB: a refused write applies the changes again to the list in memory before it writes
        # that list: once the store holds a change, every list before it in memory has been
        # made, and a change after that shows the device the list as it is now.
        for last_change in ("cheese", "dates"):
            add(device, last_change)
            deadline = Deadline(30, f"{last_change} stored")
            while last_change not in (stored := stored_amounts(proxy.postgres)):
                time.sleep(min(0.1, deadline.left()))
        last = receive_until(device, lambda m: m["type"] == "list" and "dates" in amounts(m),
                             20, "the last change acknowledged")
    each_once = {"apple": 1, "bread": 1, "cheese": 1, "dates": 1}
    assert amounts(last) == each_once, "the device's list"
    assert stored == each_once, "the store's list"
    assert proxy.lost == 1


def test_a_shopping_write_whose_answer_was_lost_and_repeated_at_once_applies_its_changes_once():
    """The process's link to the store repeats the UPDATE at once on a new connection; the
    repeat is refused (the store holds the new list already)."""
    with behind_proxy(LostShoppingAnswer, direct=False) as (proxy, (process,)):
        added_once(process, proxy, refuse=False)
        assert "could not be stored" not in process.server.read_log()


def test_a_shopping_write_whose_answer_was_lost_and_tried_again_later_applies_its_changes_once():
    """The link cannot reach the store for a while: the write is reported failed, a change comes
    meanwhile, and the next write (over the list the failed one replaced) is refused."""
    with behind_proxy(LostShoppingAnswer, direct=False) as (proxy, (process,)):
        added_once(process, proxy, refuse=True)


def test_a_lost_shopping_write_that_another_process_built_on_applies_its_changes_once():
    """Process `a` (behind the proxy) stores "add 1 apple"; the answer is lost and the store is
    unreachable for `a` until the test heals the proxy. Meanwhile process `b` (direct), with a
    device of the same book, reads the apple and stores "add 1 pear" over it. Then `a` tries
    again: refused, it finds its lost write among the writes that built the store's list, and
    applies nothing again. Before, the store's list was none of `a`'s, so `a` applied "add 1
    apple" again: 2 apples on every device and in the store."""
    with behind_proxy(LostShoppingAnswer, direct=True) as (proxy, (a, b)):
        proxy.refuse = True
        token = saved_book(a)
        with connect(f"{a.ws_url}/ws/recipes/shopping?token={token}") as on_a:
            receive_until(on_a, lambda m: m["type"] == "list", 10, "the list on a")
            apple_lost(a, proxy, on_a)
            # NB: `a` cannot reach the store until the heal below: b's change surely comes first.
            with connect(f"{b.ws_url}/ws/recipes/shopping?token={token}") as on_b:
                receive_until(on_b, lambda m: m["type"] == "list" and amounts(m) == {"apple": 1},
                              10, "a's lost write read on b")
                add(on_b, "pear")
                deadline = Deadline(30, "b's pear stored")
                while "pear" not in stored_amounts(proxy.postgres):
                    time.sleep(min(0.1, deadline.left()))
                assert stored_amounts(proxy.postgres) == {"apple": 1, "pear": 1}
                proxy.heal()
                # a's retry is refused; a takes the store's list (it has not seen the pear).
                seen = receive_until(on_a, lambda m: m["type"] == "list" and "pear" in amounts(m),
                                     30, "b's pear on a")
                assert amounts(seen) == {"apple": 1, "pear": 1}, "the list a's devices get"
                # A last change on a, once stored, follows everything a wrote before it.
                add(on_a, "cheese")
                deadline = Deadline(30, "a's cheese stored")
                while "cheese" not in (stored := stored_amounts(proxy.postgres)):
                    time.sleep(min(0.1, deadline.left()))
                last_a = receive_until(on_a, lambda m: m["type"] == "list" and "cheese" in amounts(m),
                                       20, "the cheese on a")
                last_b = receive_until(on_b, lambda m: m["type"] == "list" and "cheese" in amounts(m),
                                       20, "the cheese on b")
    each_once = {"apple": 1, "pear": 1, "cheese": 1}
    assert amounts(last_a) == each_once, "a's device"
    assert amounts(last_b) == each_once, "b's device"
    assert stored == each_once, "the store's list"
    assert proxy.lost == 1
