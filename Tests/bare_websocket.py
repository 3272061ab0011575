"""The one hand-written WebSocket client of the tests and benchmarks (RFC 6455 framing on a plain
socket), for what a library client does not allow: holding thousands of connections cheaply,
binding a source address, a small receive buffer, reading huge messages without decoding them,
flooding frames without reading the answers. Everything else uses the `websockets` library.

Used by Tests/integration/test_batch_slow_reader.py and Benchmarks/abuse/ (which put this folder
on `sys.path`). Tests/conformance/ws_conformance.py writes its own frames on purpose: it sends
what a client must not."""
import base64
import os
import socket
import struct


def split_base(base):
    """(host, port) of `http://HOST:PORT` (an IPv6 host in brackets)."""
    host, port = base.split("://", 1)[1].rstrip("/").rsplit(":", 1)
    return host.strip("[]"), int(port)


class BareWebSocket:
    """A client WebSocket on a plain blocking socket (no JSON; with `deflate` it offers
    permessage-deflate, as browsers do, and never inflates what it gets).

    `base` is the server's `http://HOST:PORT`, `source` the local address to connect from,
    `timeout` the bound in seconds on each blocking read or write (None: none), and
    `receive_buffer` a small `SO_RCVBUF` in bytes, set before connecting (a reader that never
    reads then fills it soon)."""

    def __init__(self, base, path, source=None, timeout=30, deflate=False, receive_buffer=None):
        host, port = split_base(base)
        family = socket.AF_INET6 if ":" in (source or host) else socket.AF_INET
        self.socket = socket.socket(family)
        if receive_buffer:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.socket.settimeout(timeout)
        if source:
            self.socket.bind((source, 0))
        self.socket.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        extension = "Sec-WebSocket-Extensions: permessage-deflate\r\n" if deflate else ""
        authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.socket.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: {authority}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
             f"{extension}\r\n").encode())
        self.buffer = b""
        self.status = None
        self.head = b""

    def handshake(self):
        """Reads the answer to the upgrade: its status (101 when open; 0 when none came).
        Bytes after the head stay in `buffer`, the start of the first frames."""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        self.head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        parts = self.head.split(b" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        return self.status

    def _exactly(self, count, keep=True):
        """The next `count` bytes (or None, reading and dropping them, when not `keep`)."""
        pieces, wanted = [], count
        if self.buffer:
            piece, self.buffer = self.buffer[:wanted], self.buffer[wanted:]
            wanted -= len(piece)
            if keep:
                pieces.append(piece)
        scratch = bytearray(1 << 20)
        while wanted > 0:
            received = self.socket.recv_into(scratch, min(wanted, len(scratch)))
            if received == 0:
                raise ConnectionError("closed in the middle of a frame")
            wanted -= received
            if keep:
                pieces.append(bytes(scratch[:received]))
        return b"".join(pieces) if keep else None

    def message(self, keep=True):
        """(opcode, payload) of the next whole message; payload None when not `keep`. Counts
        its size in `last_size`."""
        opcode, size, payload = None, 0, []
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exactly(8))[0]
            opcode = opcode or (first & 0x0F)
            size += length
            data = self._exactly(length, keep)
            if keep:
                payload.append(data)
            if first & 0x80:
                self.last_size = size
                return opcode, (b"".join(payload) if keep else None)

    def buffered_frame(self):
        """(opcode, payload) of the frame whole in `buffer`, taken out of it, or None while
        it is not all there: for a reader that fills `buffer` itself (with `select`)."""
        if len(self.buffer) < 2:
            return None
        length, start = self.buffer[1] & 0x7F, 2
        if length >= 126:
            start = 4 if length == 126 else 10
            if len(self.buffer) < start:
                return None
            length = struct.unpack_from("!H" if length == 126 else "!Q", self.buffer, 2)[0]
        if len(self.buffer) < start + length:
            return None
        opcode = self.buffer[0] & 0x0F
        payload, self.buffer = self.buffer[start:start + length], self.buffer[start + length:]
        return opcode, payload

    @staticmethod
    def frame(opcode, payload=b""):
        """A masked client frame."""
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        key = int.from_bytes((mask * (length // 4 + 1))[:length], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(length, "big")
        return head + mask + masked

    @staticmethod
    def text_frame(text):
        """A masked text frame of `text`."""
        return BareWebSocket.frame(0x1, text.encode())

    def send_text(self, text):
        self.socket.sendall(self.text_frame(text))

    def ping(self):
        self.socket.sendall(self.frame(0x9, b"p"))

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass
