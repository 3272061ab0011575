"""Answers an address does not read hold back its next requests (`--queued-bytes-per-address`,
HTTP as well as WebSocket): past the bound, a request waits before it is handed over until the
peers read or go, so one client cannot pile up answers in the server's memory on many
connections it never reads. Other addresses are not held back. (Before, 250 connections of one
address each asking for a 238 KB recipe and reading none kept about 57 MiB in the server
once the kernel's send buffers were full; with a 1 MiB input-log page each it would be about
250 MiB, by reasoning.)"""
import http.client
import json
import socket

from prometheus_client.parser import text_string_to_metric_families

from deadline import Deadline, wait_until
from test_recipe_api import SOUP, ld

BOUND = 65536


def from_other_address(server, path):
    """GET `path` from 127.0.0.2, not the address held back: (status, body)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=20,
                                            source_address=("127.0.0.2", 0))
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def figures(server):
    """playfield_queued_bytes and playfield_requests_waiting_for_readers."""
    status, body = from_other_address(server, "/metrics")
    assert status == 200, body
    found = {family.name: family.samples[0].value
             for family in text_string_to_metric_families(body.decode())
             if family.name in ("playfield_queued_bytes", "playfield_requests_waiting_for_readers")}
    return found["playfield_queued_bytes"], found["playfield_requests_waiting_for_readers"]


def connect(server):
    """A connection from 127.0.0.1 with a small receive buffer (so that what it does not read
    stays queued in the server rather than in the kernel)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(20)
    sock.connect((server.host, server.port))
    return sock


def send_get(server, sock, path):
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())


def read_answer(sock, deadline, head=b""):
    """Reads one whole answer (Content-Length framed): (status, body)."""
    while b"\r\n\r\n" not in head:
        sock.settimeout(deadline.left())
        chunk = sock.recv(65536)
        assert chunk, head
        head += chunk
    head, body = head.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    body = bytearray(body)
    while len(body) < length:
        sock.settimeout(deadline.left())
        chunk = sock.recv(1 << 20)
        assert chunk, len(body)
        body += chunk
    return int(head.split(b" ")[1]), bytes(body)


def stall(server):
    """A connection that asked for the 7.6 MB export and read only its first bytes, once the
    server counts what it queued for it past the bound."""
    sock = connect(server)
    send_get(server, sock, "/api/recipes/export")
    first = sock.recv(4096)
    assert first.startswith(b"HTTP/1.1 200"), first
    wait_until(lambda: figures(server)[0] > BOUND, 30, "the export counted as queued")
    return sock, first


def held_back(server):
    """A connection of the same address whose request for the book's list waits."""
    sock = connect(server)
    send_get(server, sock, "/api/recipes")
    wait_until(lambda: figures(server)[1] == 1, 30, "the list's request counted as waiting")
    # NB: it waits (counted above), so nothing has come back.
    sock.setblocking(False)
    try:
        assert sock.recv(1) == b"", "an answer came while the address's answers were unread"
    except BlockingIOError:
        pass
    return sock


def test_an_address_that_does_not_read_waits_before_its_next_request_is_handled(start_playfield):
    server = start_playfield("--queued-bytes-per-address", str(BOUND),
                             "--recipe-imports-per-minute", "1000")
    big = dict(SOUP, description="simmer " * 34_000)  # about 238 KB stored
    for batch in range(8):  # 32 recipes, about 7.6 MB: more than the kernel's buffers take
        book = {"playfield": "recipe-book", "version": 1, "recipes": [
            {"recipe": dict(big, name=f"Soup {batch * 4 + n}"), "tags": []} for n in range(4)]}
        assert ld(server, book, "?save=1")[0] == 201

    stalled, first = stall(server)
    waiting = held_back(server)
    # Another address is not held back.
    status, body = from_other_address(server, "/api/demos")
    assert status == 200 and b"recipes" in body
    # Read to the end, the export is whole; then the waiting request is answered.
    deadline = Deadline(60, "the export, then the list")
    status, body = read_answer(stalled, deadline, first)
    assert status == 200 and len(json.loads(body)["recipes"]) == 32
    waiting.setblocking(True)
    status, body = read_answer(waiting, deadline)
    assert status == 200 and len(json.loads(body)["recipes"]) == 32
    wait_until(lambda: figures(server) == (0, 0), 30, "nothing queued or waiting")

    # A peer that hangs up without reading lets the waiting request go too.
    stalled, _ = stall(server)
    waiting = held_back(server)
    stalled.close()  # NB: with unread bytes in its buffer: a reset
    waiting.setblocking(True)
    status, body = read_answer(waiting, Deadline(60, "the list after the hang-up"))
    assert status == 200 and len(json.loads(body)["recipes"]) == 32
    wait_until(lambda: figures(server) == (0, 0), 30, "nothing queued or waiting")
    stalled.close()
    waiting.close()
