"""Small HTTP and WebSocket helpers for the integration tests."""
import asyncio
import json
import time
import urllib.error
import urllib.request


def request(url, method="GET", body=None, headers=None, timeout=10):
    """Returns (status, headers, parsed JSON or raw bytes)."""
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json"} if data is not None else {}
    all_headers.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            status, head, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, error.headers, error.read()
    try:
        return status, head, json.loads(raw) if raw else None
    except ValueError:
        return status, head, raw


def create_session(server, kind="bouncing-balls", config=None):
    status, _, body = request(server.url + "/api/sessions", "POST", {"kind": kind, "config": config or {}})
    assert status == 201, body
    return body


async def drain(ws, seconds):
    """Every message `ws` sends within `seconds`, parsed as JSON."""
    end = time.monotonic() + seconds
    messages = []
    while (left := end - time.monotonic()) > 0:
        try:
            messages.append(json.loads(await asyncio.wait_for(ws.recv(), left)))
        except asyncio.TimeoutError:
            break
    return messages
