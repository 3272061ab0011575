#!/usr/bin/env python3
"""Autobahn-style conformance cases for a WebSocket echo endpoint (RFC 6455, RFC 7692).

Usage:
    python3 Tests/conformance/ws_conformance.py ws://127.0.0.1:8080/ws/echo
    python3 Tests/conformance/ws_conformance.py --reference     # against Python websockets
    python3 Tests/conformance/ws_conformance.py URL --cases 6.4 --verbose

The endpoint must echo every text and binary message with the same opcode. The cases follow
the layout of the Autobahn fuzzing client: handshake (0), framing (1), ping/pong (2),
reserved bits (3), opcodes (4), fragmentation (5), UTF-8 (6), close (7), limits (9),
auto-fragmentation (10), permessage-deflate payloads (12) and its parameter matrix (13).

The checks are the strict reading of the RFCs, as the Autobahn report's "OK": invalid input
must fail the connection with the right close code (1002, 1007, 1009), text must fail at the
first invalid byte (6.4.x), and after the close handshake the server must close the TCP
connection. Every case prints PASS or FAIL with a reason; the exit status is non-zero when any
case fails.

With --reference, the script starts an echo server built on the `websockets` package on a free
port and runs against it, which checks the script itself. The reference is known to differ from
the Playfield contract in a few cases (listed in REFERENCE_DEVIATIONS); those are reported but
do not change the exit status in that mode.

Under pytest, set WS_CONFORMANCE_URL to test a server, or leave it unset to test the reference.
"""

import argparse
import base64
import hashlib
import os
import random
import socket
import struct
import sys
import threading
import time
import zlib
from urllib.parse import urlsplit

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CONT, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
TAIL = b"\x00\x00\xff\xff"

# Cases where the Python `websockets` reference knowingly differs from the Playfield contract.
REFERENCE_DEVIATIONS = {
    "0.3": "websockets answers an unsupported version with 400, not 426",
    "6.4.1": "websockets decodes text only once the message is complete, so it fails late",
    "6.4.2": "websockets decodes text only once the message is complete, so it fails late",
    "6.4.3": "websockets decodes text only once the message is complete, so it fails late",
    "6.4.4": "websockets decodes text only once the message is complete, so it fails late",
    "7.1.5": "websockets fails a close inside a fragmented message with 1002; Autobahn wants 1000",
    "9.3.1": "websockets refuses a message split into thousands of 64-byte fragments (1009)",
    "9.4.1": "websockets refuses a message split into thousands of 64-byte fragments (1009)",
    "9.9.6": "websockets holds compressed frames to max_size before inflating them",
    "13.3": "websockets declines server_max_window_bits=8 (zlib cannot deflate with 8 bits)",
    "13.5": "websockets declines server_max_window_bits=8 (zlib cannot deflate with 8 bits)",
}


class CaseFailure(Exception):
    """A case's expectation was not met."""


class Settings:
    def __init__(self, url, timeout=5.0, max_size=1 << 20, count=100, verbose=False):
        parts = urlsplit(url)
        if parts.scheme != "ws":
            raise SystemExit("only ws:// URLs are supported")
        self.url = url
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.path = (parts.path or "/") + (("?" + parts.query) if parts.query else "")
        self.timeout = timeout
        self.max_size = max_size
        self.count = count
        self.verbose = verbose


# ---------------------------------------------------------------------------------------------
# A small strict client.


class Deflate:
    """permessage-deflate on the client side, from the server's response parameters."""

    def __init__(self, params):
        self.server_no_context = "server_no_context_takeover" in params
        self.client_no_context = "client_no_context_takeover" in params
        self.server_bits = int(params.get("server_max_window_bits") or 15)
        self.client_bits = int(params.get("client_max_window_bits") or 15)
        self.decoder = None
        self.encoder = None

    def compress(self, data):
        if self.encoder is None or self.client_no_context:
            # zlib cannot deflate with 8 bits; 9 bits never reaches back past 250 bytes.
            self.encoder = zlib.compressobj(6, zlib.DEFLATED, -max(9, self.client_bits))
        out = self.encoder.compress(data) + self.encoder.flush(zlib.Z_SYNC_FLUSH)
        if not out.endswith(TAIL):
            raise CaseFailure("client deflate produced no sync-flush tail")
        return out[:-4]

    def decompress(self, data, max_size):
        if self.decoder is None or self.server_no_context:
            self.decoder = zlib.decompressobj(-self.server_bits)
        try:
            out = self.decoder.decompress(data + TAIL, max_size + 1)
        except zlib.error as error:
            raise CaseFailure(f"server sent corrupt compressed data: {error}")
        if len(out) > max_size or self.decoder.unconsumed_tail:
            raise CaseFailure("server sent a message larger than the limit")
        return out


def parse_extensions(value):
    """Sec-WebSocket-Extensions -> [(name, {param: value or None})]; quoted values unquoted."""
    result = []
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        parts = [p.strip() for p in item.split(";")]
        params = {}
        for part in parts[1:]:
            if "=" in part:
                key, val = part.split("=", 1)
                val = val.strip().strip('"')
            else:
                key, val = part, None
            key = key.strip().lower()
            if key in params:
                raise CaseFailure(f"duplicate extension parameter {key}")
            params[key] = val
        result.append((parts[0].lower(), params))
    return result


class Client:
    """A WebSocket client that checks every server frame against RFC 6455."""

    def __init__(self, settings):
        self.s = settings
        self.sock = None
        self.buffer = b""
        self.deflate = None
        self.status = None
        self.headers = {}
        self.eof = False
        self.fragments = None  # (opcode, [payloads], compressed)

    # -- handshake --

    def request(self, extensions=None, protocols=None, raw=None, extra=None, key=None):
        """Sends an upgrade request (or `raw` bytes) and reads the response head."""
        self.sock = socket.create_connection((self.s.host, self.s.port), timeout=self.s.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.key = key or base64.b64encode(os.urandom(16)).decode()
        if raw is None:
            lines = [
                f"GET {self.s.path} HTTP/1.1",
                f"Host: {self.s.host}:{self.s.port}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                f"Sec-WebSocket-Key: {self.key}",
                "Sec-WebSocket-Version: 13",
            ]
            if extensions:
                lines.append(f"Sec-WebSocket-Extensions: {extensions}")
            if protocols:
                lines.append(f"Sec-WebSocket-Protocol: {protocols}")
            lines += extra or []
            raw = ("\r\n".join(lines) + "\r\n\r\n").encode()
        self.sock.sendall(raw)
        head = b""
        deadline = time.monotonic() + self.s.timeout
        while b"\r\n\r\n" not in head:
            if time.monotonic() > deadline:
                raise CaseFailure("no HTTP response")
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            head += chunk
        if b"\r\n\r\n" not in head:
            raise CaseFailure("connection closed before the HTTP response ended")
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        try:
            self.status = int(lines[0].split(" ")[1])
        except (IndexError, ValueError):
            raise CaseFailure(f"bad status line {lines[0]!r}")
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers.setdefault(name.strip().lower(), []).append(value.strip())
        return self.status

    def header(self, name):
        values = self.headers.get(name.lower(), [])
        return ", ".join(values) if values else None

    def open(self, extensions=None, protocols=None):
        """Completes a handshake that must succeed, and sets up permessage-deflate."""
        status = self.request(extensions=extensions, protocols=protocols)
        if status != 101:
            raise CaseFailure(f"handshake answered {status}, expected 101")
        expected = base64.b64encode(hashlib.sha1((self.key + GUID).encode()).digest()).decode()
        if self.header("Sec-WebSocket-Accept") != expected:
            raise CaseFailure("wrong Sec-WebSocket-Accept")
        if (self.header("Upgrade") or "").lower() != "websocket":
            raise CaseFailure("101 without Upgrade: websocket")
        if "upgrade" not in (self.header("Connection") or "").lower():
            raise CaseFailure("101 without Connection: Upgrade")
        value = self.header("Sec-WebSocket-Extensions")
        if value:
            accepted = parse_extensions(value)
            if len(accepted) != 1 or accepted[0][0] != "permessage-deflate":
                raise CaseFailure(f"unexpected extensions {value!r}")
            if not extensions:
                raise CaseFailure("server accepted an extension that was not offered")
            self.deflate = Deflate(accepted[0][1])
            self.deflate_params = accepted[0][1]
        return self

    # -- sending --

    def send_raw(self, data, chop=None, delay=0.0):
        try:
            if not chop:
                self.sock.sendall(data)
                return
            for start in range(0, len(data), chop):
                self.sock.sendall(data[start : start + chop])
                if delay:
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def frame(self, opcode, payload=b"", fin=True, rsv=0, mask=True, length=None):
        """A client frame: masked unless mask is False; rsv is the 3-bit RSV value."""
        first = (0x80 if fin else 0) | (rsv & 7) << 4 | opcode
        n = len(payload) if length is None else length
        mask_bit = 0x80 if mask else 0
        if n < 126:
            head = struct.pack("!BB", first, mask_bit | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", first, mask_bit | 126, n)
        else:
            head = struct.pack("!BBQ", first, mask_bit | 127, n)
        if not mask:
            return head + payload
        key = os.urandom(4)
        body = bytes(b ^ key[i & 3] for i, b in enumerate(payload)) if len(payload) < 4096 else mask_fast(payload, key)
        return head + key + body

    def send_frame(self, opcode, payload=b"", fin=True, rsv=0, mask=True, chop=None, delay=0.0):
        self.send_raw(self.frame(opcode, payload, fin, rsv, mask), chop, delay)

    def message_frames(self, opcode, payload, fragment=None, compress=None):
        """The frames of one message: compressed when deflate is on (unless compress=False),
        split into frames of `fragment` bytes."""
        compressed = self.deflate is not None and compress is not False
        data = self.deflate.compress(payload) if compressed else payload
        if not fragment or len(data) <= fragment:
            return self.frame(opcode, data, rsv=4 if compressed else 0)
        out = b""
        for start in range(0, len(data), fragment):
            last = start + fragment >= len(data)
            first = start == 0
            out += self.frame(opcode if first else CONT, data[start : start + fragment], fin=last, rsv=4 if (compressed and first) else 0)
        return out

    def send_message(self, opcode, payload, fragment=None, chop=None, delay=0.0):
        self.send_raw(self.message_frames(opcode, payload, fragment), chop, delay)

    def send_close(self, code=None, reason=b""):
        payload = b"" if code is None else struct.pack("!H", code) + reason
        self.send_frame(CLOSE, payload)

    # -- receiving --

    def _fill(self, count, deadline):
        while len(self.buffer) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                return False
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.eof = True
                return False
            self.buffer += chunk
        return True

    def read_frame(self, deadline):
        """One server frame, checked: (fin, rsv, opcode, payload), or 'eof' / 'timeout'."""
        if not self._fill(2, deadline):
            return "eof" if self.eof else "timeout"
        b0, b1 = self.buffer[0], self.buffer[1]
        n = b1 & 0x7F
        size = 2 + (2 if n == 126 else 8 if n == 127 else 0) + (4 if b1 & 0x80 else 0)
        if not self._fill(size, deadline):
            return "eof" if self.eof else "timeout"
        if b1 & 0x80:
            raise CaseFailure("server frame is masked (RFC 6455 §5.1)")
        if n == 126:
            n = struct.unpack("!H", self.buffer[2:4])[0]
        elif n == 127:
            n = struct.unpack("!Q", self.buffer[2:10])[0]
        if not self._fill(size + n, deadline):
            return "eof" if self.eof else "timeout"
        payload = self.buffer[size : size + n]
        self.buffer = self.buffer[size + n :]
        fin, rsv, opcode = bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F
        if opcode not in (CONT, TEXT, BINARY, CLOSE, PING, PONG):
            raise CaseFailure(f"server sent reserved opcode {opcode}")
        if rsv & 3 or (rsv & 4 and (self.deflate is None or opcode not in (TEXT, BINARY))):
            raise CaseFailure(f"server set RSV bits {rsv} on opcode {opcode}")
        if opcode >= CLOSE and (not fin or n > 125):
            raise CaseFailure("server sent a fragmented or long control frame")
        return fin, rsv, opcode, payload

    def read_event(self, timeout=None):
        """The next event: ('message', opcode, bytes), ('pong', b), ('close', code, reason),
        ('eof',) or ('timeout',). Server pings are answered and skipped."""
        deadline = time.monotonic() + (self.s.timeout if timeout is None else timeout)
        while True:
            frame = self.read_frame(deadline)
            if frame in ("eof", "timeout"):
                return (frame,)
            fin, rsv, opcode, payload = frame
            if opcode == PING:
                self.send_frame(PONG, payload)
                continue
            if opcode == PONG:
                return ("pong", payload)
            if opcode == CLOSE:
                if len(payload) == 1:
                    raise CaseFailure("server close frame with a 1-byte payload")
                code = struct.unpack("!H", payload[:2])[0] if payload else None
                try:
                    reason = payload[2:].decode("utf-8")
                except UnicodeDecodeError:
                    raise CaseFailure("server close reason is not UTF-8")
                return ("close", code, reason)
            if opcode == CONT:
                if self.fragments is None:
                    raise CaseFailure("server sent a continuation without a message")
                self.fragments[1].append(payload)
            else:
                if self.fragments is not None:
                    raise CaseFailure("server started a message inside another")
                self.fragments = (opcode, [payload], bool(rsv & 4))
            if not fin:
                continue
            opcode, parts, compressed = self.fragments
            self.fragments = None
            data = b"".join(parts)
            if compressed:
                data = self.deflate.decompress(data, max(self.s.max_size, 1 << 24))
            if opcode == TEXT:
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    raise CaseFailure("server sent invalid UTF-8 text")
            return ("message", opcode, data)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def mask_fast(payload, key):
    """Masks long payloads with big-integer XOR (much faster than a per-byte loop)."""
    n = len(payload)
    repeated = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big")


# ---------------------------------------------------------------------------------------------
# Expectations.


def describe(event):
    if event[0] == "message":
        kind = "text" if event[1] == TEXT else "binary"
        return f"{kind}({len(event[2])} bytes)"
    if event[0] == "pong":
        return f"pong({len(event[1])} bytes)"
    if event[0] == "close":
        return f"close({event[1]})"
    return event[0]


def collect(c, count, timeout=None):
    """Reads events until `count` messages/pongs arrived, or a close, EOF or timeout."""
    events = []
    while len(events) < count:
        event = c.read_event(timeout)
        if event[0] in ("message", "pong"):
            events.append(event)
        else:
            return events, event
    return events, None


def expect_events(c, expected, timeout=None):
    events, stop = collect(c, len(expected), timeout)
    if events != expected:
        got = ", ".join(map(describe, events)) or "nothing"
        want = ", ".join(map(describe, expected)) or "nothing"
        detail = f" then {describe(stop)}" if stop else ""
        raise CaseFailure(f"expected {want}; got {got}{detail}")
    return events


def expect_tcp_close(c, timeout=None):
    """After the close handshake the server must close the TCP connection (RFC 6455 §7.1.1)."""
    deadline = time.monotonic() + (c.s.timeout if timeout is None else timeout)
    while True:
        frame = c.read_frame(deadline)
        if frame == "eof":
            return
        if frame == "timeout":
            raise CaseFailure("server did not close the TCP connection after the close handshake")
        if frame[2] not in (PING, PONG, TEXT, BINARY, CONT):
            raise CaseFailure(f"unexpected frame (opcode {frame[2]}) after the close handshake")


def close_normally(c, codes=(1000,)):
    """We start the close handshake; the server echoes it and closes TCP."""
    c.send_close(1000)
    while True:
        event = c.read_event()
        if event[0] in ("message", "pong"):
            continue
        if event[0] != "close":
            raise CaseFailure(f"no close frame in reply to ours ({describe(event)})")
        if event[1] is not None and event[1] not in codes:
            raise CaseFailure(f"close reply with code {event[1]}, expected {codes}")
        break
    expect_tcp_close(c)


def expect_failure(c, codes, before=((),), timeout=None):
    """The server must fail the connection: a close frame with one of `codes` (after one of
    the allowed event sequences `before`), then the TCP close."""
    events = []
    while True:
        event = c.read_event(timeout)
        if event[0] in ("message", "pong"):
            events.append(event)
            continue
        break
    if tuple(events) not in [tuple(b) for b in before]:
        raise CaseFailure(f"unexpected events before the failure: {', '.join(map(describe, events))}")
    if event[0] != "close":
        raise CaseFailure(f"expected a close frame with {codes}, got {describe(event)}")
    if event[1] not in codes:
        raise CaseFailure(f"close code {event[1]}, expected {codes}")
    c.send_close(event[1])
    expect_tcp_close(c)


def expect_echo(c, opcode, payload, **send):
    c.send_message(opcode, payload, **send)
    expect_events(c, [("message", opcode, payload)])
    close_normally(c)


# ---------------------------------------------------------------------------------------------
# Cases.

CASES = []


def case(case_id, description):
    def register(function):
        CASES.append((case_id, description, function))
        return function

    return register


def add(case_id, description, function):
    CASES.append((case_id, description, function))


def opened(s, **kwargs):
    return Client(s).open(**kwargs)


def opened_deflate(s, offer="permessage-deflate"):
    c = opened(s, extensions=offer)
    if c.deflate is None:
        raise CaseFailure(f"permessage-deflate not negotiated for the offer {offer!r}")
    return c


def frame_fails(s, opcode, payload, rsv=0, fin=True, deflate=False, codes=(1002,)):
    """One bad frame must fail the connection."""
    c = opened_deflate(s) if deflate else opened(s)
    c.send_frame(opcode, payload, fin=fin, rsv=rsv)
    expect_failure(c, codes)


# Section 0: the opening handshake (RFC 6455 §4).


@case("0.1", "valid upgrade gets 101 with the right Sec-WebSocket-Accept")
def handshake_valid(s):
    c = opened(s)
    close_normally(c)


def rejected(s, statuses, **request):
    c = Client(s)
    status = c.request(**request)
    c.close()
    if status not in statuses:
        raise CaseFailure(f"answered {status}, expected one of {statuses}")
    return c


def upgrade_request(s, drop=(), add_lines=(), method="GET", version="HTTP/1.1"):
    lines = [f"{method} {s.path} {version}", f"Host: {s.host}:{s.port}", "Upgrade: websocket",
             "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    lines = [l for l in lines if not any(l.startswith(d + ":") for d in drop)] + list(add_lines)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@case("0.2", "RFC example key gives s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
def handshake_example_key(s):
    c = Client(s)
    c.request(key="dGhlIHNhbXBsZSBub25jZQ==")
    if c.status != 101 or c.header("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=":
        raise CaseFailure(f"status {c.status}, accept {c.header('Sec-WebSocket-Accept')!r}")
    c.deflate = None
    close_normally(c)


@case("0.3", "version 8 gets 426 with Sec-WebSocket-Version: 13")
def handshake_version(s):
    raw = upgrade_request(s, drop=["Sec-WebSocket-Version"], add_lines=["Sec-WebSocket-Version: 8"])
    c = rejected(s, (426,), raw=raw)
    if "13" not in (c.header("Sec-WebSocket-Version") or ""):
        raise CaseFailure("426 without Sec-WebSocket-Version: 13")


for number, (label, kwargs) in enumerate([
    ("missing Sec-WebSocket-Key", dict(drop=["Sec-WebSocket-Key"])),
    ("Sec-WebSocket-Key of 8 bytes", dict(drop=["Sec-WebSocket-Key"], add_lines=["Sec-WebSocket-Key: AAAAAAAAAAA="])),
    ("Sec-WebSocket-Key not base64", dict(drop=["Sec-WebSocket-Key"], add_lines=["Sec-WebSocket-Key: ###not#base64#####!!!"])),
    ("missing Upgrade", dict(drop=["Upgrade"])),
    ("missing Connection: Upgrade", dict(drop=["Connection"], add_lines=["Connection: keep-alive"])),
    ("POST instead of GET", dict(method="POST")),
    ("HTTP/1.0", dict(version="HTTP/1.0")),
], start=4):
    add(f"0.{number}", f"{label} is refused with 4xx",
        lambda s, kwargs=kwargs: rejected(s, (400, 403, 405, 426, 505), raw=upgrade_request(s, **kwargs)))


@case("0.11", "a subprotocol is selected from the offered ones")
def handshake_subprotocol(s):
    c = opened(s, protocols="chat, superchat")
    chosen = c.header("Sec-WebSocket-Protocol")
    if chosen not in ("chat", "superchat"):
        raise CaseFailure(f"selected subprotocol {chosen!r}")
    close_normally(c)


@case("0.12", "no subprotocol header when none is offered")
def handshake_no_subprotocol(s):
    c = opened(s)
    if c.header("Sec-WebSocket-Protocol") is not None:
        raise CaseFailure("Sec-WebSocket-Protocol sent without an offer")
    close_normally(c)


for number, (offer, accept) in enumerate([
    ("permessage-deflate; foo=bar", False),
    ("permessage-deflate; server_max_window_bits=16", False),
    ("permessage-deflate; server_max_window_bits=7", False),
    ("permessage-deflate; client_no_context_takeover=1", False),
    ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", False),
    ("permessage-deflate; server_max_window_bits=99, permessage-deflate; client_max_window_bits", True),
    ("x-unknown-extension, permessage-deflate", True),
    ('permessage-deflate; server_max_window_bits="10"', True),
], start=13):
    def negotiation(s, offer=offer, accept=accept):
        c = opened(s, extensions=offer)
        if accept and c.deflate is None:
            raise CaseFailure(f"valid offer {offer!r} was declined")
        if not accept and c.deflate is not None:
            raise CaseFailure(f"invalid offer {offer!r} was accepted")
        if accept:
            check_response(c, parse_extensions(offer))
        expect_echo(c, TEXT, b"Hello after negotiation")

    add(f"0.{number}", f"offer {offer!r} is {'accepted' if accept else 'declined'}", negotiation)


def check_response(c, offers):
    """RFC 7692 §7.1: the response must answer one of the offers without going beyond it."""
    params = c.deflate_params
    for key, value in params.items():
        if key not in ("server_no_context_takeover", "client_no_context_takeover", "server_max_window_bits", "client_max_window_bits"):
            raise CaseFailure(f"unknown parameter {key} in the response")
        if key.endswith("window_bits") and value not in [str(b) for b in range(8, 16)]:
            raise CaseFailure(f"bad {key}={value} in the response")
        if key.endswith("takeover") and value is not None:
            raise CaseFailure(f"{key} with a value in the response")
    for name, offer in offers:
        if name != "permessage-deflate":
            continue
        ok = True
        if "server_no_context_takeover" in offer and "server_no_context_takeover" not in params:
            ok = False
        if "server_max_window_bits" in offer:
            requested = offer["server_max_window_bits"]
            if not (requested or "").isdigit() or "server_max_window_bits" not in params or int(params["server_max_window_bits"]) > int(requested):
                ok = False
        if "client_max_window_bits" in params and "client_max_window_bits" not in offer:
            ok = False
        if ok:
            return
    raise CaseFailure(f"response {params} does not answer any offer")


# Section 1: framing, echo of payloads of every length class.

for kind, opcode, number in (("text", TEXT, 1), ("binary", BINARY, 2)):
    for index, length in enumerate([0, 125, 126, 127, 128, 65535, 65536], start=1):
        payload = (b"*" * length) if opcode == TEXT else bytes(i & 0xFF for i in range(length))
        add(f"1.{number}.{index}", f"{kind} message of {length} bytes is echoed",
            lambda s, o=opcode, p=payload: expect_echo(opened(s), o, p))
    payload = (b"*" * 65536) if opcode == TEXT else bytes(0xFE for _ in range(65536))
    add(f"1.{number}.8", f"{kind} message of 65536 bytes sent in chops of 997 bytes is echoed",
        lambda s, o=opcode, p=payload: expect_echo(opened(s), o, p, chop=997))


# Section 2: ping and pong.


def ping_echo(s, payload, chop=None):
    c = opened(s)
    c.send_frame(PING, payload, chop=chop, delay=0.001 if chop else 0)
    expect_events(c, [("pong", payload)])
    close_normally(c)


add("2.1", "ping without payload gets a pong", lambda s: ping_echo(s, b""))
add("2.2", "ping with a text payload gets the same pong", lambda s: ping_echo(s, b"Hello, world!"))
add("2.3", "ping with a binary payload gets the same pong", lambda s: ping_echo(s, b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff"))
add("2.4", "ping with 125 bytes gets a pong", lambda s: ping_echo(s, b"\xfe" * 125))


add("2.5", "ping with 126 bytes fails the connection with 1002", lambda s: frame_fails(s, PING, b"\xfe" * 126))


add("2.6", "ping with 125 bytes sent byte by byte gets a pong", lambda s: ping_echo(s, b"\xfe" * 125, chop=1))


@case("2.7", "unsolicited empty pong is ignored")
def pong_unsolicited(s):
    c = opened(s)
    c.send_frame(PONG, b"")
    close_normally(c)


@case("2.8", "unsolicited pong with payload is ignored")
def pong_unsolicited_payload(s):
    c = opened(s)
    c.send_frame(PONG, b"unsolicited pong payload")
    close_normally(c)


@case("2.9", "unsolicited pong, then ping: one pong for the ping")
def pong_then_ping(s):
    c = opened(s)
    c.send_frame(PONG, b"unsolicited pong payload")
    c.send_frame(PING, b"ping payload")
    expect_events(c, [("pong", b"ping payload")])
    close_normally(c)


def ten_pings(s, chop):
    c = opened(s)
    payloads = [f"payload-{i}".encode() for i in range(10)]
    for payload in payloads:
        c.send_frame(PING, payload, chop=chop)
    expect_events(c, [("pong", p) for p in payloads])
    close_normally(c)


add("2.10", "10 pings get 10 pongs in order", lambda s: ten_pings(s, None))
add("2.11", "10 pings sent byte by byte get 10 pongs in order", lambda s: ten_pings(s, 1))


# Section 3: reserved bits (no extension negotiated).


add("3.1", "text with RSV1 (no extension) fails with 1002", lambda s: frame_fails(s, TEXT, b"Hello, world!", rsv=4))


def rsv_after_echo(s, rsv, chop=None):
    c = opened(s)
    c.send_frame(TEXT, b"Hello, world!")
    c.send_frame(TEXT, b"Hello, world!", rsv=rsv, chop=chop)
    c.send_frame(PING, b"")
    echoed = [("message", TEXT, b"Hello, world!")]
    expect_failure(c, (1002,), before=(echoed, ()))


add("3.2", "text, then text with RSV2, then ping: echo, then 1002", lambda s: rsv_after_echo(s, 2))
add("3.3", "same with RSV3 (RSV1|RSV2)", lambda s: rsv_after_echo(s, 3))
add("3.4", "same with RSV4, sent byte by byte", lambda s: rsv_after_echo(s, 1, chop=1))


add("3.5", "binary with RSV1|RSV3 fails with 1002", lambda s: frame_fails(s, BINARY, bytes(range(8)), rsv=5))
add("3.6", "ping with RSV1|RSV2 fails with 1002", lambda s: frame_fails(s, PING, b"Hello, world!", rsv=6))
add("3.7", "close with all RSV bits fails with 1002", lambda s: frame_fails(s, CLOSE, struct.pack("!H", 1000), rsv=7))


# Section 4: reserved opcodes.

for section, opcodes in ((1, (3, 4, 5, 6, 7)), (2, (11, 12, 13, 14, 15))):
    for index, opcode in enumerate(opcodes, start=1):
        def reserved_opcode(s, opcode=opcode, index=index):
            c = opened(s)
            payload = b"reserved opcode payload" if index % 2 == 0 else b""
            if index >= 3:
                c.send_frame(TEXT, b"Hello, world!")
            c.send_frame(opcode, payload)
            c.send_frame(PING, b"")
            before = ((("message", TEXT, b"Hello, world!"),), ()) if index >= 3 else ((),)
            expect_failure(c, (1002,), before=before)

        add(f"4.{section}.{index}", f"reserved opcode {opcode} fails with 1002", reserved_opcode)


# Section 5: fragmentation.


def fragmented_control(s, opcode):
    c = opened(s)
    c.send_frame(opcode, b"fragment1", fin=False)
    c.send_frame(CONT, b"fragment2")
    expect_failure(c, (1002,))


add("5.1", "fragmented ping fails with 1002", lambda s: fragmented_control(s, PING))
add("5.2", "fragmented pong fails with 1002", lambda s: fragmented_control(s, PONG))


def two_fragments(s, ping=False, chop=None, delay=0.0):
    c = opened(s)
    c.send_frame(TEXT, b"fragment1", fin=False, chop=chop)
    if delay:
        time.sleep(delay)
    if ping:
        c.send_frame(PING, b"ping payload", chop=chop)
        if delay:
            time.sleep(delay)
    c.send_frame(CONT, b"fragment2", chop=chop)
    expected = ([("pong", b"ping payload")] if ping else []) + [("message", TEXT, b"fragment1fragment2")]
    expect_events(c, expected)
    close_normally(c)


add("5.3", "text in two fragments is echoed", lambda s: two_fragments(s))
add("5.4", "text in two fragments, with a pause between", lambda s: two_fragments(s, delay=0.3))
add("5.5", "text in two fragments, byte by byte", lambda s: two_fragments(s, chop=1))
add("5.6", "ping between two fragments: pong, then the echo", lambda s: two_fragments(s, ping=True))
add("5.7", "same with pauses", lambda s: two_fragments(s, ping=True, delay=0.3))
add("5.8", "same byte by byte", lambda s: two_fragments(s, ping=True, chop=1))


def stray_continuation(s, fin, chop=None, delay=0.0):
    c = opened(s)
    c.send_frame(CONT, b"non-continuation payload", fin=fin, chop=chop)
    if delay:
        time.sleep(delay)
    c.send_frame(TEXT, b"Hello, world!", chop=chop)
    expect_failure(c, (1002,))


add("5.9", "final continuation without a message fails with 1002", lambda s: stray_continuation(s, True))
add("5.10", "same with a pause", lambda s: stray_continuation(s, True, delay=0.3))
add("5.11", "same byte by byte", lambda s: stray_continuation(s, True, chop=1))
add("5.12", "non-final continuation without a message fails with 1002", lambda s: stray_continuation(s, False))
add("5.13", "same with a pause", lambda s: stray_continuation(s, False, delay=0.3))
add("5.14", "same byte by byte", lambda s: stray_continuation(s, False, chop=1))


@case("5.15", "text in two fragments, then an unstarted continuation: echo, then 1002")
def fragments_then_stray(s):
    c = opened(s)
    c.send_frame(TEXT, b"fragment1", fin=False)
    c.send_frame(CONT, b"fragment2")
    c.send_frame(CONT, b"fragment3", fin=False)
    c.send_frame(TEXT, b"fragment4")
    expect_failure(c, (1002,), before=([("message", TEXT, b"fragment1fragment2")], ()))


def repeated_strays(s, first_fin):
    c = opened(s)
    for _ in range(2):
        c.send_frame(CONT, b"fragment1", fin=first_fin)
        c.send_frame(TEXT, b"fragment2", fin=False)
        c.send_frame(CONT, b"fragment3")
    expect_failure(c, (1002,))


add("5.16", "continuation, text, continuation twice fails with 1002", lambda s: repeated_strays(s, False))
add("5.17", "same with a final first continuation", lambda s: repeated_strays(s, True))


@case("5.18", "a new text message inside a fragmented one fails with 1002")
def text_inside_text(s):
    c = opened(s)
    c.send_frame(TEXT, b"fragment1", fin=False)
    c.send_frame(TEXT, b"fragment2")
    expect_failure(c, (1002,))


def many_fragments_with_pings(s, delay):
    c = opened(s)
    c.send_frame(TEXT, b"fragment1", fin=False)
    c.send_frame(CONT, b"fragment2", fin=False)
    c.send_frame(PING, b"pongme 1!")
    time.sleep(delay)
    c.send_frame(CONT, b"fragment3", fin=False)
    c.send_frame(CONT, b"fragment4", fin=False)
    c.send_frame(PING, b"pongme 2!")
    c.send_frame(CONT, b"fragment5")
    expect_events(c, [("pong", b"pongme 1!"), ("pong", b"pongme 2!"),
                      ("message", TEXT, b"fragment1fragment2fragment3fragment4fragment5")])
    close_normally(c)


add("5.19", "five fragments with two pings and a pause", lambda s: many_fragments_with_pings(s, 0.5))
add("5.20", "same without the pause", lambda s: many_fragments_with_pings(s, 0.0))


# Section 6: UTF-8.

KOSME = "κόσμε".encode()


def utf8_case(s, payload, fragment=None):
    """Valid text is echoed; invalid text fails the connection with 1007."""
    c = opened(s)
    try:
        payload.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    if fragment is None:
        c.send_frame(TEXT, payload)
    else:
        send_fragments(c, TEXT, [payload[i : i + fragment] for i in range(0, len(payload), fragment)])
    if valid:
        expect_events(c, [("message", TEXT, payload)])
        close_normally(c)
    else:
        expect_failure(c, (1007,))


@case("6.1.1", "empty text message is echoed")
def utf8_empty(s):
    expect_echo(opened(s), TEXT, b"")


def send_fragments(c, opcode, pieces):
    """One message as frames with these payloads (an empty list sends one empty frame)."""
    pieces = pieces or [b""]
    for index, piece in enumerate(pieces):
        c.send_frame(opcode if index == 0 else CONT, piece, fin=index == len(pieces) - 1)


def fragments_echo(s, pieces):
    c = opened(s)
    send_fragments(c, TEXT, pieces)
    expect_events(c, [("message", TEXT, b"".join(pieces))])
    close_normally(c)


add("6.1.2", "three empty fragments make an empty message", lambda s: fragments_echo(s, [b"", b"", b""]))
add("6.1.3", "empty, non-empty, empty fragments", lambda s: fragments_echo(s, [b"", b"middle frame payload", b""]))


HELLO = "Hello-µ@ßöäüàá-UTF-8!!".encode()
add("6.2.1", "valid UTF-8 in one frame", lambda s: utf8_case(s, HELLO))
add("6.2.2", "valid UTF-8 in two fragments split on a character", lambda s: utf8_case(s, HELLO, fragment=12))
add("6.2.3", "valid UTF-8 one byte per fragment", lambda s: utf8_case(s, HELLO, fragment=1))
add("6.2.4", "κόσμε one byte per fragment", lambda s: utf8_case(s, KOSME, fragment=1))
BAD = KOSME + b"\xed\xa0\x80edited"
add("6.3.1", "invalid UTF-8 (a surrogate) in one frame fails with 1007", lambda s: utf8_case(s, BAD))
add("6.3.2", "same, one byte per fragment", lambda s: utf8_case(s, BAD, fragment=1))

FAST1, FAST2, FAST3 = KOSME, b"\xf4\x90\x80\x80", b"edited"


def fail_fast(s, mode):
    """Autobahn 6.4.x: the connection must fail right after the invalid part arrives, before
    the rest of the message is sent."""
    c = opened(s)
    if mode == "fragments":
        c.send_frame(TEXT, FAST1, fin=False)
        event = c.read_event(timeout=0.5)
        if event[0] != "timeout":
            raise CaseFailure(f"valid first fragment got {describe(event)}")
        c.send_frame(CONT, FAST2, fin=False)
        event = c.read_event(timeout=1.0)
        if event[0] != "close" or event[1] != 1007:
            raise CaseFailure(f"did not fail fast with 1007 after the bad fragment ({describe(event)})")
        c.send_frame(CONT, FAST3)
    elif mode == "fragments-split":
        c.send_frame(TEXT, KOSME + b"\xf4", fin=False)
        event = c.read_event(timeout=0.5)
        if event[0] != "timeout":
            raise CaseFailure(f"valid first fragment got {describe(event)}")
        c.send_frame(CONT, b"\x90", fin=False)
        event = c.read_event(timeout=1.0)
        if event[0] != "close" or event[1] != 1007:
            raise CaseFailure(f"did not fail fast with 1007 ({describe(event)})")
    else:
        payload = FAST1 + FAST2 + FAST3
        frame = c.frame(TEXT, payload)
        head = len(frame) - len(payload)
        cut = head + len(FAST1) if mode == "chops" else head + len(FAST1) + 1
        c.send_raw(frame[:cut])
        event = c.read_event(timeout=0.5)
        if event[0] != "timeout":
            raise CaseFailure(f"valid first chop got {describe(event)}")
        second = cut + (len(FAST2) if mode == "chops" else 1)
        c.send_raw(frame[cut:second])
        event = c.read_event(timeout=1.0)
        if event[0] != "close" or event[1] != 1007:
            raise CaseFailure(f"did not fail fast with 1007 inside the frame ({describe(event)})")
        c.send_raw(frame[second:])
    c.send_close(1007)
    expect_tcp_close(c)


add("6.4.1", "fail fast: the fragment with the invalid sequence fails at once", lambda s: fail_fast(s, "fragments"))
add("6.4.2", "fail fast: an invalid sequence split over two fragments", lambda s: fail_fast(s, "fragments-split"))
add("6.4.3", "fail fast: the invalid part of one frame fails before the frame ends", lambda s: fail_fast(s, "chops"))
add("6.4.4", "fail fast: the first impossible byte inside one frame", lambda s: fail_fast(s, "byte"))

UTF8_SAMPLES = [
    # (group, [sequences]) in the spirit of Markus Kuhn's UTF-8 decoder stress test.
    ("valid text", [KOSME, HELLO, "𝄞 music, € euro, ü".encode(), b"\x00", b"\x7f"]),
    ("κόσμε with a broken tail", [KOSME[:i] + b"\x80" for i in (1, 3, 5, 7, 9)] + [KOSME + b"\xce", KOSME + b"\xc0"]),
    ("first code point of each length", [b"\xc2\x80", b"\xe0\xa0\x80", b"\xf0\x90\x80\x80"]),
    ("five- and six-byte forms", [b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80"]),
    ("last code point of each length", [b"\xdf\xbf", b"\xef\xbf\xbf", b"\xf4\x8f\xbf\xbf", b"\xf7\xbf\xbf\xbf"]),
    ("other boundaries", [b"\xed\x9f\xbf", b"\xee\x80\x80", b"\xef\xbf\xbd", b"\xf4\x90\x80\x80"]),
    ("lone continuation bytes", [b"\x80", b"\xbf", b"\x80\xbf", b"\x80\xbf\x80", bytes(range(0x80, 0xC0))]),
    ("lonely start bytes", [bytes([b, 0x20]) for b in (0xC0, 0xDF, 0xE0, 0xEF, 0xF0, 0xF7, 0xF8, 0xFC)]),
    ("last byte missing", [b"\xc0", b"\xe0\x80", b"\xf0\x80\x80", b"\xdf", b"\xef\xbf", b"\xf7\xbf\xbf"]),
    ("impossible bytes", [b"\xfe", b"\xff", b"\xfe\xfe\xff\xff"]),
    ("overlong slash", [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xf8\x80\x80\x80\xaf"]),
    ("maximum overlong", [b"\xc1\xbf", b"\xe0\x9f\xbf", b"\xf0\x8f\xbf\xbf"]),
    ("overlong NUL", [b"\xc0\x80", b"\xe0\x80\x80", b"\xf0\x80\x80\x80"]),
    ("single surrogates", [b"\xed\xa0\x80", b"\xed\xad\xbf", b"\xed\xae\x80", b"\xed\xaf\xbf", b"\xed\xb0\x80", b"\xed\xbe\x80", b"\xed\xbf\xbf"]),
    ("paired surrogates", [b"\xed\xa0\x80\xed\xb0\x80", b"\xed\xaf\xbf\xed\xbf\xbf"]),
    ("noncharacters (valid)", [b"\xef\xbf\xbe", b"\xef\xbf\xbf", b"\xf0\x9f\xbf\xbe", b"\xf4\x8f\xbf\xbe", b"\xef\xb7\x90"]),
]

for group_index, (group, samples) in enumerate(UTF8_SAMPLES, start=5):
    for sample_index, sample in enumerate(samples, start=1):
        add(f"6.{group_index}.{sample_index}", f"{group}: {sample[:12].hex()}",
            lambda s, p=sample: utf8_case(s, p))
        add(f"6.{group_index}.{sample_index}f", f"{group}: {sample[:12].hex()} one byte per fragment",
            lambda s, p=sample: utf8_case(s, p, fragment=1))


# Section 7: the close handshake.


@case("7.1.1", "echo, then a normal close")
def close_after_echo(s):
    expect_echo(opened(s), TEXT, b"Hello World!")


@case("7.1.2", "a second close frame is ignored")
def close_twice(s):
    c = opened(s)
    c.send_close(1000)
    c.send_close(1000)
    event = c.read_event()
    if event[0] != "close" or event[1] not in (1000, None):
        raise CaseFailure(f"expected close(1000), got {describe(event)}")
    expect_tcp_close(c)


def close_then(s, follow):
    c = opened(s)
    c.send_close(1000)
    follow(c)
    event = c.read_event()
    if event[0] != "close" or event[1] not in (1000, None):
        raise CaseFailure(f"expected only close(1000), got {describe(event)}")
    expect_tcp_close(c)


add("7.1.3", "ping after close gets no pong", lambda s: close_then(s, lambda c: c.send_frame(PING, b"Hello World!")))
add("7.1.4", "text after close is not echoed", lambda s: close_then(s, lambda c: c.send_frame(TEXT, b"Hello World!")))


@case("7.1.5", "fragment, close, fragment: no echo, clean close")
def close_inside_message(s):
    c = opened(s)
    c.send_frame(TEXT, b"fragment1", fin=False)
    c.send_close(1000)
    c.send_frame(CONT, b"fragment2")
    event = c.read_event()
    if event[0] != "close" or event[1] not in (1000, None):
        raise CaseFailure(f"expected close(1000), got {describe(event)}")
    expect_tcp_close(c)


@case("7.1.6", "large message, close, ping: echo or not, then close, no pong")
def close_after_large(s):
    c = opened(s)
    payload = b"BAsd7&jh23" * 26214
    c.send_frame(TEXT, payload)
    c.send_close(1000)
    c.send_frame(PING, b"")
    event = c.read_event(timeout=s.timeout * 2)
    if event[0] == "message":
        if event[2] != payload:
            raise CaseFailure("echo differs")
        event = c.read_event()
    if event[0] != "close" or event[1] not in (1000, None):
        raise CaseFailure(f"expected close(1000), got {describe(event)}")
    expect_tcp_close(c)


def close_payload(s, payload, codes):
    c = opened(s)
    c.send_frame(CLOSE, payload)
    event = c.read_event()
    if event[0] != "close":
        raise CaseFailure(f"expected a close frame, got {describe(event)}")
    if event[1] not in codes:
        raise CaseFailure(f"close code {event[1]}, expected {codes}")
    expect_tcp_close(c)


add("7.3.1", "empty close gets an empty close or 1000", lambda s: close_payload(s, b"", (None, 1000)))
add("7.3.2", "close with a 1-byte payload fails with 1002", lambda s: close_payload(s, b"\x03", (1002,)))
add("7.3.3", "close 1000 is echoed", lambda s: close_payload(s, struct.pack("!H", 1000), (1000,)))
add("7.3.4", "close 1000 with a reason", lambda s: close_payload(s, struct.pack("!H", 1000) + b"Hello World!", (1000,)))
add("7.3.5", "close with a 123-byte reason", lambda s: close_payload(s, struct.pack("!H", 1000) + b"*" * 123, (1000,)))
add("7.3.6", "close with a 124-byte reason (126-byte control frame) fails with 1002",
    lambda s: close_payload(s, struct.pack("!H", 1000) + b"*" * 124, (1002,)))
add("7.5.1", "close reason with invalid UTF-8 fails with 1007",
    lambda s: close_payload(s, struct.pack("!H", 1000) + BAD, (1007,)))

for index, code in enumerate([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999], start=1):
    add(f"7.7.{index}", f"valid close code {code} is echoed",
        lambda s, code=code: close_payload(s, struct.pack("!H", code), (code, 1000)))

for index, code in enumerate([0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999], start=1):
    add(f"7.9.{index}", f"invalid close code {code} fails with 1002",
        lambda s, code=code: close_payload(s, struct.pack("!H", code), (1002,)))

add("7.13.1", "close code 5000 fails with 1002", lambda s: close_payload(s, struct.pack("!H", 5000), (1002,)))
add("7.13.2", "close code 65535 fails with 1002", lambda s: close_payload(s, struct.pack("!H", 65535), (1002,)))


# Section 9: limits (the message size limit is --max-size, 1 MiB by default).


def sized(length, opcode):
    if opcode == TEXT:
        return (b"0123456789abcdefghijklmnopqrstuvwxyz" * (length // 36 + 1))[:length]
    return random.Random(length).randbytes(length)


def big_echo(s, opcode, length, fragment=None, chop=None):
    c = opened(s)
    payload = sized(length, opcode)
    c.send_message(opcode, payload, fragment=fragment, chop=chop)
    events, stop = collect(c, 1, timeout=s.timeout * 6)
    if events != [("message", opcode, payload)]:
        raise CaseFailure(f"no echo of the {length}-byte message ({', '.join(map(describe, events)) or describe(stop)})")
    close_normally(c)


def limit_cases(s_max):
    sizes = [64 << 10, 256 << 10, s_max]
    for number, opcode in ((1, TEXT), (2, BINARY)):
        for index, length in enumerate(sizes, start=1):
            add(f"9.{number}.{index}", f"{'text' if opcode == TEXT else 'binary'} message of {length} bytes is echoed",
                lambda s, o=opcode, n=length: big_echo(s, o, min(n, s.max_size)))
    for number, opcode in ((3, TEXT), (4, BINARY)):
        for index, fragment in enumerate([64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20], start=1):
            add(f"9.{number}.{index}", f"message at the limit in fragments of {fragment} bytes is echoed",
                lambda s, o=opcode, f=fragment: big_echo(s, o, s.max_size, fragment=f))
    for number, opcode in ((5, TEXT), (6, BINARY)):
        for index, chop in enumerate([64, 128, 256, 512, 1024, 2048], start=1):
            add(f"9.{number}.{index}", f"1 MiB-class message sent in chops of {chop} bytes is echoed",
                lambda s, o=opcode, ch=chop: big_echo(s, o, min(s.max_size, 256 << 10), chop=ch))
    for number, opcode in ((7, TEXT), (8, BINARY)):
        for index, length in enumerate([0, 16, 64, 256, 1024, 4096], start=1):
            add(f"9.{number}.{index}", f"1000 messages of {length} bytes sent back to back are all echoed",
                lambda s, o=opcode, n=length: many_echo(s, o, n))


def many_echo(s, opcode, length):
    c = opened(s)
    payload = sized(length, opcode)
    data = c.message_frames(opcode, payload)
    # Written from a thread while this one reads, as a real peer does: 4 MiB sent without reading
    # deadlocks once the echoes fill both kernel buffers, and how big those grow depends on the
    # machine, not on the server.
    failed = []

    def send():
        try:
            c.send_raw(data * 1000)
        except OSError as error:
            failed.append(error)

    writer = threading.Thread(target=send, daemon=True)
    writer.start()
    events, stop = collect(c, 1000, timeout=s.timeout * 4)
    writer.join(s.timeout)
    if failed:
        raise CaseFailure(f"the server stopped reading: {failed[0]!r} after {len(events)} echoes")
    if len(events) != 1000 or any(e != ("message", opcode, payload) for e in events):
        raise CaseFailure(f"{len(events)} of 1000 echoes ({describe(stop) if stop else 'wrong content'})")
    close_normally(c)


limit_cases(1 << 20)


def over_limit(s, opcode, fragment=None, compress=False):
    c = opened_deflate(s) if compress else opened(s)
    payload = sized(s.max_size + 1, opcode)
    c.send_raw(c.message_frames(opcode, payload, fragment=fragment, compress=compress))
    expect_failure(c, (1009,), timeout=s.timeout * 4)


add("9.9.1", "text message one byte over the limit fails with 1009", lambda s: over_limit(s, TEXT))
add("9.9.2", "binary message one byte over the limit fails with 1009", lambda s: over_limit(s, BINARY))
add("9.9.3", "over-limit message in 64 KiB fragments fails with 1009", lambda s: over_limit(s, BINARY, fragment=64 << 10))
add("9.9.4", "compressed message inflating past the limit fails with 1009", lambda s: over_limit(s, BINARY, compress=True))


@case("9.9.6", "incompressible message at the limit, compressed (frame a bit larger), is echoed")
def incompressible_at_limit(s):
    c = opened_deflate(s)
    payload = random.Random(96).randbytes(s.max_size)
    c.send_message(BINARY, payload)
    events, stop = collect(c, 1, timeout=s.timeout * 6)
    if events != [("message", BINARY, payload)]:
        raise CaseFailure(f"no echo ({', '.join(map(describe, events)) or describe(stop)})")
    close_normally(c)


@case("9.9.5", "decompression bomb (64 MiB of zeros) fails with 1009")
def bomb(s):
    c = opened_deflate(s)
    encoder = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = encoder.compress(bytes(64 << 20)) + encoder.flush(zlib.Z_SYNC_FLUSH)
    c.send_frame(BINARY, body[:-4], rsv=4)
    expect_failure(c, (1009,))


# Section 10: auto-fragmentation.


@case("10.1.1", "65536-byte text message in 1300-byte fragments is echoed")
def autofragment(s):
    c = opened(s)
    payload = b"*" * 65536
    c.send_message(TEXT, payload, fragment=1300)
    expect_events(c, [("message", TEXT, payload)])
    close_normally(c)


# Sections 12 and 13: permessage-deflate.


def dataset(name):
    rng = random.Random(name)
    if name == "json":
        records = []
        while sum(map(len, records)) < 300_000:
            records.append('{"type":"frame","tick":%d,"balls":[{"x":%.3f,"y":%.3f,"vx":%.2f}],"tag":"%s"},'
                           % (len(records), rng.uniform(0, 800), rng.uniform(0, 600), rng.uniform(-3, 3), rng.choice(["maze", "holes", "balls"])))
        return "".join(records).encode(), False
    if name == "html":
        words = ["<div class=\"tile\">", "</div>", "<span>", "</span>", "Mandelbrot", "zoom", "level", "<p>", "</p>", "\n"]
        return "".join(rng.choice(words) for _ in range(60_000)).encode(), False
    if name == "text":
        words = ["Habe", "nun,", "ach!", "Philosophie,", "Juristerei", "und", "Medizin,", "Theologie", "durchaus", "studiert", "\n"]
        return (" ".join(rng.choice(words) for _ in range(50_000))).encode(), True
    # A picture-like binary: smooth gradients with noise.
    return bytes((x * 3 + (y // 7) + rng.randrange(4)) & 0xFF for y in range(512) for x in range(512)), True


DATASETS = ["json", "html", "text", "image"]
MESSAGE_SIZES = [
    (16, 0), (64, 0), (256, 0), (1024, 0), (4096, 0), (8192, 0), (16384, 0), (32768, 0), (65536, 0), (131072, 0),
    (8192, 256), (16384, 256), (32768, 256), (65536, 256), (131072, 256), (131072, 1024), (131072, 4096), (131072, 32768),
]
_data_cache = {}


def deflate_run(s, offer, data_name, length, fragment, count=None):
    """Autobahn 12/13: send compressed messages one by one; each must come back equal."""
    if data_name not in _data_cache:
        data, binary = dataset(data_name)
        _data_cache[data_name] = (data, data + data, binary)
    data, doubled, binary = _data_cache[data_name]
    c = opened_deflate(s, offer)
    check_response(c, parse_extensions(offer))
    opcode = BINARY if binary else TEXT
    pointer = 0
    for _ in range(count or s.count):
        message = doubled[pointer : pointer + length]
        pointer = (pointer + length) % len(data)
        c.send_message(opcode, message, fragment=fragment or None)
        event = c.read_event()
        if event != ("message", opcode, message):
            raise CaseFailure(f"echo of a {length}-byte message differs: {describe(event)}")
    close_normally(c)


def offer_string(request_no_context=False, request_bits=0):
    """Autobahn's PerMessageDeflateOffer with acceptNoContextTakeover and acceptMaxWindowBits."""
    offer = "permessage-deflate; client_no_context_takeover; client_max_window_bits"
    if request_no_context:
        offer += "; server_no_context_takeover"
    if request_bits:
        offer += f"; server_max_window_bits={request_bits}"
    return offer


for set_index, name in enumerate(DATASETS, start=1):
    for size_index, (length, fragment) in enumerate(MESSAGE_SIZES, start=1):
        add(f"12.{set_index}.{size_index}", f"{name}: compressed messages of {length} bytes, fragments of {fragment or 'any'}",
            lambda s, n=name, l=length, f=fragment: deflate_run(s, "permessage-deflate", n, l, f))

OFFERS = [
    offer_string(),
    offer_string(True, 0),
    offer_string(False, 8),
    offer_string(False, 15),
    offer_string(True, 8),
    offer_string(True, 15),
    ", ".join([offer_string(True, 8), offer_string(True, 0), offer_string()]),
]

for offer_index, offer in enumerate(OFFERS, start=1):
    for size_index, (length, fragment) in enumerate(MESSAGE_SIZES, start=1):
        add(f"13.{offer_index}.{size_index}", f"offer [{offer}]: {length}-byte messages, fragments of {fragment or 'any'}",
            lambda s, o=offer, l=length, f=fragment: deflate_run(s, o, "json", l, f))


@case("13.8.1", "an uncompressed message on a deflate connection is still echoed")
def uncompressed_on_deflate(s):
    c = opened_deflate(s)
    c.send_raw(c.message_frames(TEXT, b"plain text", compress=False))
    expect_events(c, [("message", TEXT, b"plain text")])
    close_normally(c)


@case("13.8.2", "RSV1 on a continuation frame fails with 1002")
def rsv1_on_continuation(s):
    c = opened_deflate(s)
    body = c.deflate.compress(b"Hello, compressed world!")
    c.send_frame(TEXT, body[:5], fin=False, rsv=4)
    c.send_frame(CONT, body[5:], rsv=4)
    expect_failure(c, (1002,))


add("13.8.3", "RSV1 on a ping fails with 1002", lambda s: frame_fails(s, PING, b"", rsv=4, deflate=True))


@case("13.8.4", "compressed text with invalid UTF-8 fails with 1007")
def compressed_bad_text(s):
    c = opened_deflate(s)
    c.send_raw(c.message_frames(TEXT, BAD))
    expect_failure(c, (1007,))


# ---------------------------------------------------------------------------------------------
# Running.


def selected(prefixes):
    if not prefixes:
        return CASES
    return [c for c in CASES if any(c[0] == p or c[0].startswith(p + ".") for p in prefixes)]


def run_case(settings, entry):
    case_id, description, function = entry
    started = time.monotonic()
    try:
        function(settings)
        return True, "", time.monotonic() - started
    except CaseFailure as failure:
        return False, str(failure), time.monotonic() - started
    except (OSError, socket.timeout) as error:
        return False, f"{type(error).__name__}: {error}", time.monotonic() - started


def deviation(case_id):
    for prefix, why in REFERENCE_DEVIATIONS.items():
        if case_id == prefix or case_id.startswith(prefix + "."):
            return why
    return None


def run(settings, prefixes=(), reference=False, stream=sys.stdout):
    passed = failed = expected = 0
    for entry in selected(prefixes):
        ok, reason, elapsed = run_case(settings, entry)
        case_id, description = entry[0], entry[1]
        why = deviation(case_id) if reference else None
        if ok:
            passed += 1
            status = "PASS"
        elif why:
            expected += 1
            status = "XFAIL"
            reason = f"{reason} (known: {why})"
        else:
            failed += 1
            status = "FAIL"
        if status != "PASS" or settings.verbose:
            print(f"{status:5} {case_id:10} {description} [{elapsed:.2f}s]{(' -- ' + reason) if reason else ''}", file=stream)
        else:
            print(f"{status:5} {case_id:10} {description}", file=stream)
        stream.flush()
    summary = f"{passed} passed, {failed} failed"
    if reference:
        summary += f", {expected} skipped"
    print(summary, file=stream)
    return failed


def start_reference():
    """An echo server on the Python `websockets` library, in a thread, on a free port."""
    import asyncio

    from websockets.asyncio.server import serve

    ready = threading.Event()
    holder = {}

    async def echo(connection):
        try:
            async for message in connection:
                await connection.send(message)
        except Exception:
            pass

    def pick(connection, offered):
        return offered[0] if offered else None

    async def main():
        async with serve(echo, "127.0.0.1", 0, select_subprotocol=pick, ping_interval=None,
                         max_size=1 << 20, compression="deflate") as server:
            holder["port"] = server.sockets[0].getsockname()[1]
            ready.set()
            await asyncio.Future()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    if not ready.wait(10):
        raise SystemExit("the reference server did not start")
    return f"ws://127.0.0.1:{holder['port']}/ws/echo"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="ws://HOST:PORT/PATH of an echo endpoint")
    parser.add_argument("--reference", action="store_true", help="test the Python websockets echo server instead")
    parser.add_argument("--cases", nargs="*", default=[], help="case ids or prefixes, e.g. 6.4 13.3 7.7.1")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each reply")
    parser.add_argument("--max-size", type=int, default=1 << 20, help="the server's message size limit in bytes")
    parser.add_argument("--count", type=int, default=100, help="messages per case in sections 12 and 13 (Autobahn: 1000)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.list:
        for case_id, description, _ in selected(args.cases):
            print(f"{case_id:10} {description}")
        print(f"{len(selected(args.cases))} cases")
        return 0
    if args.reference:
        url = start_reference()
    elif args.url:
        url = args.url
    else:
        parser.error("give a ws:// URL or --reference")
    settings = Settings(url, args.timeout, args.max_size, args.count, args.verbose)
    print(f"Testing {url}")
    failed = run(settings, args.cases, reference=args.reference)
    return 1 if failed else 0


# pytest: one test per case, against WS_CONFORMANCE_URL or the reference server.
try:
    import pytest

    @pytest.fixture(scope="module")
    def conformance_settings():
        url = os.environ.get("WS_CONFORMANCE_URL")
        return Settings(url or start_reference(), count=int(os.environ.get("WS_CONFORMANCE_COUNT", "20"))), url is None

    @pytest.mark.parametrize("case_id", [c[0] for c in CASES])
    def test_conformance(conformance_settings, case_id):
        settings, reference = conformance_settings
        entry = next(c for c in CASES if c[0] == case_id)
        ok, reason, _ = run_case(settings, entry)
        if not ok and reference and deviation(case_id):
            pytest.xfail(deviation(case_id))
        assert ok, reason
except ImportError:
    pass


if __name__ == "__main__":
    sys.exit(main())
