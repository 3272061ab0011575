"""docs/protocol.md section 2: with permessage-deflate, the server compresses each message on its
own, so a tool can decode any message without the ones before it. Read as such a tool would:
raw frames off the socket, each compressed one inflated by a fresh decompressor."""
import json
import pathlib
import sys
import zlib

import pytest

from deadline import Deadline
from helpers import create_session

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "conformance"))
from ws_conformance import TEXT, Client, Settings  # noqa: E402

TAIL = b"\x00\x00\xff\xff"


def inflate_alone(payload):
    """One message's payload, inflated with no history (RFC 7692 §7.2.2: append the tail)."""
    decoder = zlib.decompressobj(-15)
    return decoder.decompress(payload + TAIL) + decoder.flush()


# Chromium's and Firefox's offer, and the bare one: neither asks for server_no_context_takeover.
@pytest.mark.parametrize("offer", ["permessage-deflate; client_max_window_bits", "permessage-deflate"])
def test_every_server_message_inflates_on_its_own(playfield, offer):
    session = create_session(playfield, "maze")
    url = f"{playfield.ws_url}/ws/sessions/{session['id']}?token={session['token']}"
    client = Client(Settings(url)).open(extensions=offer)
    assert client.deflate_params is not None
    assert "server_no_context_takeover" in client.deflate_params, "the server says so"

    def send(message):
        client.send_message(TEXT, json.dumps(message).encode())

    # Per-connection messages (hello, status, error, pong) between broadcast ones (frame,
    # event): each must stand alone, whatever came before it on the connection.
    script = [{"type": "stop"}, {"type": "ping", "id": 1}, {"type": "toggle", "row": 99, "col": 0},
              {"type": "toggle", "row": 2, "col": 3}, {"type": "step", "count": 2},
              {"type": "ping", "id": 2}, {"type": "tilt", "x": 9, "y": 0}, {"type": "start"},
              {"type": "ping", "id": 3}]
    seen, compressed = [], 0
    deadline = Deadline(30, "the messages the script asks for")

    def read():
        nonlocal compressed
        frame = client.read_frame(deadline.end)
        assert frame not in ("eof", "timeout"), f"{frame} after {[m['type'] for m in seen]}"
        deadline.left()
        fin, rsv, opcode, payload = frame
        assert fin and opcode == TEXT, (fin, opcode)
        if rsv & 4:
            compressed += 1
            payload = inflate_alone(payload)
        seen.append(json.loads(payload))

    # NB: after hello, since a pong is sent at once and hello on the next tick.
    read()
    assert seen[0]["type"] == "hello"
    for message in script:
        send(message)
    while not ({"hello", "frame", "status", "error", "pong", "event"} <= {m["type"] for m in seen}
               and len([m for m in seen if m["type"] == "pong"]) == 3):
        read()
    assert compressed >= len(seen) // 2, f"only {compressed} of {len(seen)} messages were compressed"
    client.sock.close()
