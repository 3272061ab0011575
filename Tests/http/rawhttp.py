"""Raw-socket HTTP/1.1 client pieces for the robustness suite: send exact bytes, read exact
responses (with their framing checked), and tell a closed connection from a silent one."""
import socket
import time
import zlib


class Response:
    """One parsed response: status, headers (lowercased names, in order) and body bytes."""

    def __init__(self, version, status, reason, headers, body, raw_head):
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.raw_head = raw_head

    def header(self, name):
        """The first value of `name`, or None."""
        name = name.lower()
        for key, value in self.headers:
            if key == name:
                return value
        return None

    def values(self, name):
        name = name.lower()
        return [value for key, value in self.headers if key == name]

    def tokens(self, name):
        """The comma-separated, lowercased list elements of every `name` field."""
        return [t.strip().lower() for v in self.values(name) for t in v.split(",") if t.strip()]

    def media_type(self):
        value = self.header("content-type") or ""
        return value.split(";")[0].strip().lower()

    def decoded_body(self):
        if (self.header("content-encoding") or "").lower() == "gzip":
            return zlib.decompress(self.body, 16 + zlib.MAX_WBITS)
        return self.body

    def __repr__(self):
        return f"<Response {self.status} {self.reason!r} {len(self.body)} bytes>"


class Closed(Exception):
    """The server closed the connection before a whole response arrived."""

    def __init__(self, partial=b""):
        super().__init__(f"connection closed (after {len(partial)} bytes: {partial[:80]!r})")
        self.partial = partial


class HTTP09(Exception):
    """The server answered without a status line: an HTTP/0.9 simple response."""

    def __init__(self, body):
        super().__init__(f"HTTP/0.9 response of {len(body)} bytes")
        self.body = body


class Connection:
    """A TCP connection with a read buffer, for sending raw bytes and reading responses."""

    def __init__(self, host, port, timeout=5.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.timeout = timeout
        self.eof = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("latin-1")
        self.sock.sendall(data)

    def shutdown_write(self):
        self.sock.shutdown(socket.SHUT_WR)

    def _fill(self, deadline):
        """Reads more bytes into the buffer; False at end of file."""
        if self.eof:
            return False
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no response in time")
        self.sock.settimeout(remaining)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        except socket.timeout:
            raise TimeoutError("no response in time") from None
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    def _read_line(self, deadline, limit=65536):
        while b"\n" not in self.buffer:
            if len(self.buffer) > limit:
                raise ValueError("response line too long")
            if not self._fill(deadline):
                raise Closed(self.buffer)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.rstrip(b"\r")

    def _read_exact(self, count, deadline):
        while len(self.buffer) < count:
            if not self._fill(deadline):
                raise Closed(self.buffer)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_response(self, method="GET", timeout=None, skip_interim=True):
        """Reads one response to a request made with `method`; 1xx are skipped unless asked."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            response = self._read_one(method, deadline)
            if not (skip_interim and 100 <= response.status < 200 and response.status != 101):
                return response

    def _read_one(self, method, deadline):
        while not self.buffer:
            if not self._fill(deadline):
                raise Closed(b"")
        if not self.buffer.startswith(b"HTTP/"[: len(self.buffer)]):
            while self._fill(deadline):
                pass
            raise HTTP09(self.buffer)
        status_line = self._read_line(deadline)
        parts = status_line.decode("latin-1").split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/"):
            raise ValueError(f"bad status line {status_line!r}")
        version, status = parts[0], int(parts[1])
        reason = parts[2] if len(parts) > 2 else ""
        headers = []
        raw_head = status_line + b"\r\n"
        while True:
            line = self._read_line(deadline)
            raw_head += line + b"\r\n"
            if not line:
                break
            name, sep, value = line.decode("latin-1").partition(":")
            if not sep:
                raise ValueError(f"bad header line {line!r}")
            headers.append((name.strip().lower(), value.strip()))
        response = Response(version, status, reason, headers, b"", raw_head)
        if method == "HEAD" or 100 <= status < 200 or status in (204, 304):
            return response
        if "chunked" in response.tokens("transfer-encoding"):
            body = b""
            while True:
                size_line = self._read_line(deadline)
                size = int(size_line.split(b";")[0].strip(), 16)
                if size == 0:
                    while self._read_line(deadline):
                        pass
                    break
                body += self._read_exact(size, deadline)
                self._read_line(deadline)
            response.body = body
        elif response.header("content-length") is not None:
            response.body = self._read_exact(int(response.header("content-length")), deadline)
        else:
            while self._fill(deadline):
                pass
            response.body, self.buffer = self.buffer, b""
        return response

    def closed_by_peer(self, timeout=2.0):
        """Whether the server closes the connection (after any unread bytes) within `timeout`."""
        deadline = time.monotonic() + timeout
        try:
            while self._fill(deadline):
                pass
            return True
        except TimeoutError:
            return False
        except OSError:
            return True


def request(method="GET", target="/", version="HTTP/1.1", host="localhost", headers=(), body=b""):
    """Builds request bytes; `host=None` leaves out the Host field."""
    lines = [f"{method} {target} {version}"]
    if host is not None:
        lines.append(f"Host: {host}")
    lines += [f"{name}: {value}" for name, value in headers]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head + (body.encode() if isinstance(body, str) else body)
