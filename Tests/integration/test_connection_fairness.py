"""Issue 22, findings 3, 8, 9 and 10: connections are capped per address group, a full server
closes the heaviest group's idlest connection instead of refusing everyone else, input-log
pages and the input log itself are bounded in bytes.

Every 127.0.0.x is its own client by default (the abuse harness relies on it); each test picks
its own addresses. No test asserts a time: each wait has a whole-wait deadline."""
import contextlib
import json
import socket

import pytest
from websockets.exceptions import ConnectionClosed

from websockets.sync.client import connect

from deadline import Deadline, receive_until, wait_until
from helpers import create_session, request, send_commands


def open_from(server, source):
    """A TCP connection to the server from `source`."""
    sock = socket.create_connection((server.host, server.port), timeout=10, source_address=(source, 0))
    return sock


def read_response(sock, deadline):
    """One whole HTTP response (head and Content-Length body) as (status, text); (None, '')
    when the server closed the connection first."""
    data = b""
    while b"\r\n\r\n" not in data:
        sock.settimeout(deadline.left())
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return None, ""
        if not chunk:
            return None, ""
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    length = next((int(line.split(":", 1)[1]) for line in lines[1:]
                   if line.lower().startswith("content-length:")), 0)
    while len(body) < length:
        sock.settimeout(deadline.left())
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), body.decode(errors="replace")


def get(sock, path, deadline):
    """A keep-alive GET on an open connection."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return read_response(sock, deadline)


def held_connections(server, source, count, deadline):
    """`count` kept-alive connections from `source`, each having had one answer (so the server
    has surely taken them)."""
    held = []
    for _ in range(count):
        sock = open_from(server, source)
        status, _ = get(sock, "/healthz", deadline)
        assert status == 200
        held.append(sock)
    return held


def closed_by_server(sock, deadline):
    """Whether the server has closed `sock` (end of file or reset) within the deadline."""
    sock.settimeout(deadline.left())
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_another_address_still_connects_while_one_holds_its_most(start_playfield):
    server = start_playfield("--connections-per-address", "8")
    deadline = Deadline(30, "the per-address connection cap")
    held = held_connections(server, "127.0.0.2", 8, deadline)
    try:
        ninth = open_from(server, "127.0.0.2")
        status, text = read_response(ninth, deadline)
        ninth.close()
        assert status == 503 and "too many connections from your address" in text
        for source in ("127.0.0.3", "127.0.0.1"):
            other = open_from(server, source)
            assert get(other, "/healthz", deadline)[0] == 200
            other.close()
        # The held ones still work, and a freed place is taken again.
        assert get(held[0], "/healthz", deadline)[0] == 200
        held.pop().close()
        again = None
        while again is None:  # the close reaches the server on its own time
            sock = open_from(server, "127.0.0.2")
            status, _ = get(sock, "/healthz", deadline)
            if status == 200:
                again = sock
            else:
                sock.close()
        held.append(again)
    finally:
        for sock in held:
            sock.close()


def test_a_header_slowloris_from_one_address_leaves_room_for_others(start_playfield):
    server = start_playfield("--connections-per-address", "6", "--header-timeout", "1")
    deadline = Deadline(40, "the slowloris")
    slow, refused, timed_out, answered = [], 0, 0, 0
    try:
        # The attacker fills its share with heads that never end and reconnects after each 408.
        while timed_out < 6 or answered < 6:
            while len(slow) < 7:
                sock = open_from(server, "127.0.0.2")
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
                slow.append(sock)
            for sock in list(slow):
                sock.settimeout(0.05)
                try:
                    data = sock.recv(4096)
                except socket.timeout:
                    continue
                except ConnectionResetError:
                    data = b""
                if b" 503 " in data[:20]:
                    assert b"from your address" in data
                    refused += 1
                elif b" 408 " in data[:20]:
                    timed_out += 1
                slow.remove(sock)
                sock.close()
            # Meanwhile another address is always answered.
            other = open_from(server, "127.0.0.3")
            assert get(other, "/healthz", deadline)[0] == 200
            other.close()
            answered += 1
            deadline.left()
        assert refused >= 1, "the attacker's 7th connection is refused, not everyone's"
    finally:
        for sock in slow:
            sock.close()


def test_a_full_server_closes_the_heaviest_addresses_idlest_connection(start_playfield):
    server = start_playfield("--max-connections", "12", "--connections-per-address", "10")
    deadline = Deadline(30, "eviction")
    heavy = held_connections(server, "127.0.0.2", 10, deadline)
    light = held_connections(server, "127.0.0.3", 2, deadline)
    try:
        # Full: a newcomer is answered, and the heavy address's idlest connection (the one
        # that finished a request longest ago: its first) makes room.
        newcomer = open_from(server, "127.0.0.4")
        assert get(newcomer, "/healthz", deadline)[0] == 200
        assert closed_by_server(heavy[0], deadline)
        for sock in heavy[1:] + light:
            assert get(sock, "/healthz", deadline)[0] == 200, "only the idlest one went"
        # The heavy address, still the heaviest, is refused a new one rather than evicting.
        extra = open_from(server, "127.0.0.2")
        status, text = read_response(extra, deadline)
        extra.close()
        assert status == 503 and "too many connections" in text
        newcomer.close()
    finally:
        for sock in heavy + light:
            sock.close()


def test_a_trusted_proxy_is_not_capped_as_one_address(start_playfield):
    plain = start_playfield("--connections-per-address", "2")
    proxied = start_playfield("--connections-per-address", "2", "--trusted-proxy", "127.0.0.5")
    deadline = Deadline(30, "trusted proxy")
    held = held_connections(proxied, "127.0.0.5", 4, deadline)
    held += held_connections(plain, "127.0.0.5", 2, deadline)
    try:
        third = open_from(plain, "127.0.0.5")
        assert read_response(third, deadline)[0] == 503
        third.close()
    finally:
        for sock in held:
            sock.close()


def test_a_bad_trusted_proxy_is_refused_with_a_clear_error(playfield_binary):
    import subprocess
    result = subprocess.run([str(playfield_binary), "serve", "--trusted-proxy", "nginx"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "--trusted-proxy must be an IP address" in result.stderr


def all_pages(server, session):
    """Every input-log page from the start, following `more`."""
    pages, after = [], 0
    deadline = Deadline(30, "reading the input log")
    while True:
        status, _, page = request(
            server.url + f"/api/sessions/{session['id']}/inputs?after={after}&token={session['token']}")
        assert status == 200, page
        pages.append(page["inputs"])
        if not page["more"]:
            return pages
        assert page["inputs"], "a page that says more has inputs"
        after = page["inputs"][-1]["tick"]
        deadline.left()


def tilt(index):
    return {"type": "tilt", "x": (index % 10) / 10, "y": 0}


def size(inputs):
    """Bytes of the inputs as compact JSON, about as the server logs them."""
    return sum(len(json.dumps(i["input"], separators=(",", ":"))) for i in inputs)


def test_the_input_log_has_a_byte_cap(start_playfield):
    server = start_playfield("--input-log-bytes", "1000")
    session = create_session(server, "maze")
    acked, full = send_commands(server, session, [tilt(i) for i in range(80)])
    assert 0 < len(acked) < 80 and len(acked) + len(full) == 80
    assert max(acked) < min(f["id"] for f in full), "once full, nothing more is taken"
    assert "bytes of input" in full[0]["message"]
    # Acked inputs are logged at the next tick: wait (bounded) until all are.
    logged = wait_until(
        lambda: (found := [i for page in all_pages(server, session) for i in page])
        and len(found) >= len(acked) and found, 20, "the acked inputs in the log")
    assert len(logged) == len(acked)
    assert size(logged) <= 1100, "what is logged stays near the cap (the server counts its own JSON)"


def test_input_pages_are_bounded_in_bytes_and_lose_nothing(start_playfield):
    server = start_playfield("--input-page-bytes", "1024")
    session = create_session(server, "maze")
    # Stopped, each `step` applies the ten tilts sent before it at one tick: 20 ticks of 10.
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "stop"}))
        tick = receive_until(ws, lambda m: m["type"] == "status" and not m["running"], 30,
                             "the stopped status")["tick"]
        for batch in range(20):
            for i in range(10):
                ws.send(json.dumps({**tilt(batch * 10 + i), "id": batch * 10 + i}))
            ws.send(json.dumps({"type": "step"}))
            tick = receive_until(ws, lambda m: m["type"] == "frame" and m["tick"] > tick, 30,
                                 f"the frame of step {batch}")["tick"]
    pages = all_pages(server, session)
    ticks = [i["tick"] for page in pages for i in page]
    assert len(ticks) == 200 and ticks == sorted(ticks) and len(set(ticks)) == 20
    assert len(pages) >= 4
    for page, following in zip(pages, pages[1:]):
        assert size(page) <= 1024 + 50, "within the bound (the server counts its own JSON)"
        assert page[-1]["tick"] < following[0]["tick"], "pages end at whole ticks"
        next_tick = [i for i in following if i["tick"] == following[0]["tick"]]
        assert size(page) + size(next_tick) > 1024 - 50, "and hold as many whole ticks as fit"


def test_an_evicted_websocket_is_told_to_try_again_later(start_playfield):
    server = start_playfield("--max-connections", "4", "--connections-per-address", "4")
    deadline = Deadline(30, "WebSocket eviction")
    with contextlib.ExitStack() as stack:
        sockets = []
        for _ in range(3):
            sock = open_from(server, "127.0.0.2")
            ws = stack.enter_context(
                connect(f"{server.ws_url}/ws/echo", sock=sock, open_timeout=deadline.left()))
            ws.send("hello")
            assert ws.recv(timeout=deadline.left()) == "hello"
            sockets.append(ws)
        light = held_connections(server, "127.0.0.3", 1, deadline)
        stack.callback(light[0].close)
        # Full: the newcomer gets in, and the heavy address's idlest WebSocket (its first) is
        # closed with 1013, try again later.
        newcomer = open_from(server, "127.0.0.4")
        assert get(newcomer, "/healthz", deadline)[0] == 200
        newcomer.close()
        with pytest.raises(ConnectionClosed) as closed:
            sockets[0].recv(timeout=deadline.left())
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        for ws in sockets[1:]:
            ws.send("still here")
            assert ws.recv(timeout=deadline.left()) == "still here"


def get_as(sock, path, cookie, deadline):
    """A keep-alive GET on an open connection, with a client family's cookie."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nCookie: {cookie}\r\n\r\n".encode())
    return read_response(sock, deadline)


def issued_family(server, source, deadline):
    """Loads a page as a browser without the cookie would; returns the cookie it is given."""
    sock = open_from(server, source)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        sock.settimeout(deadline.left())
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    head = data.split(b"\r\n\r\n", 1)[0].decode()
    line = next(line for line in head.split("\r\n") if line.lower().startswith("set-cookie:"))
    return line.split(":", 1)[1].strip().split(";", 1)[0]


def test_one_client_family_holds_at_most_its_share_of_an_address(start_playfield):
    """A browser family (cookie) of an address holds at most --connections-per-family of the
    address's connections: past it, 503 and the connection closes; another family, and
    cookie-less requests, of the same address still get in; a closed one frees its place."""
    deadline = Deadline(60, "connections per family")
    server = start_playfield("--connections-per-address", "8", "--connections-per-family", "2")
    source = "127.0.0.61"
    tab_a, tab_b = issued_family(server, source, deadline), issued_family(server, source, deadline)
    assert tab_a != tab_b
    held = []
    for _ in range(2):
        sock = open_from(server, source)
        assert get_as(sock, "/healthz", tab_a, deadline)[0] == 200
        held.append(sock)
    third = open_from(server, source)
    status, body = get_as(third, "/healthz", tab_a, deadline)
    assert status == 503 and "too many connections from your browser" in body, (status, body)
    assert closed_by_server(third, deadline)
    third.close()
    # The held ones still work; the other family and a cookie-less script still get in.
    assert get_as(held[0], "/healthz", tab_a, deadline)[0] == 200
    other = open_from(server, source)
    assert get_as(other, "/healthz", tab_b, deadline)[0] == 200
    script = open_from(server, source)
    assert get(script, "/healthz", deadline)[0] == 200
    # A place frees when its connection closes.
    held.pop().close()
    wait_until(lambda: _answers(server, source, tab_a, deadline), 20,
               what="a place for family a after one of its connections closed")
    for sock in held + [other, script]:
        sock.close()
    assert server.alive()


def _answers(server, source, cookie, deadline):
    sock = open_from(server, source)
    try:
        return get_as(sock, "/healthz", cookie, deadline)[0] == 200
    finally:
        sock.close()


def test_connections_per_family_is_in_help_and_checked(playfield_binary):
    import subprocess
    run = lambda *arguments: subprocess.run([str(playfield_binary), *arguments],
                                            capture_output=True, text=True, timeout=30)
    assert "--connections-per-family (default 64)" in run("serve", "--help").stdout
    bad = run("serve", "--connections-per-family", "0")
    assert bad.returncode == 64
    assert "--connections-per-family must be a whole number from 1 to 1000000, not 0" in bad.stderr
