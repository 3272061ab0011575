"""Small HTTP and WebSocket helpers for the integration tests."""
import asyncio
import http.client
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


def raw(server, method, path, headers, body=None, address=None, timeout=10):
    """One request with exactly these headers (urllib would add its own), to `address` (the
    server's own by default: a server listening on every address is reached on 127.0.0.1)."""
    connection = http.client.HTTPConnection(address or server.host, server.port, timeout=timeout)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response.headers, data


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


def send_commands(server, session, messages):
    """Sends `messages` on the session's channel, each with its index as id; returns (acked
    ids, log-full errors). Any other error fails the test."""
    from websockets.sync.client import connect
    from deadline import receive_until
    acked, full = [], []
    url = f"{server.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    last = len(messages) - 1
    with connect(url) as ws:
        for index, message in enumerate(messages):
            ws.send(json.dumps({**message, "id": index}))
        seen = []
        receive_until(ws, lambda m: m.get("id") == last and m["type"] in ("ack", "error"),
                      30, "the last command's answer", seen)
    for message in seen:
        if message.get("type") == "ack":
            acked.append(message["id"])
        elif message.get("type") == "error" and "id" in message:
            assert message["error"] == "log-full", message
            full.append(message)
    return acked, full
