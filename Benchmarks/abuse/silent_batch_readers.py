"""Many /ws/batch connections that flood steps and never read, from several addresses: the
server's RSS before, after 20 s of flooding, and after they close (docs/reliability.md,
"Abuse paths beyond the attacks").

    .venv/bin/python Benchmarks/abuse/silent_batch_readers.py ADDRESSES CONNECTIONS_EACH

Uses 127.0.0.20 and up as the addresses, and the release binary (or PLAYFIELD_BIN)."""
import base64, json, os, socket, struct, sys, time, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

ADDRESSES = int(sys.argv[1]); PER = int(sys.argv[2])

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1]) // 1024

def post(server, body, src):
    # urllib cannot bind a source; use http.client
    import http.client
    c = http.client.HTTPConnection(server.host, server.port, source_address=(src, 0), timeout=30)
    c.request("POST", "/api/sessions", json.dumps(body), {"Content-Type": "application/json"})
    r = c.getresponse(); data = json.loads(r.read()); c.close(); return r.status, data

def frame(text):
    p = text.encode(); n = len(p)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + struct.pack(">H", n)
    return head + b"\0\0\0\0" + p

server = Playfield()
try:
    base_rss = rss(server.process.pid)
    socks = []
    pad = " " * 200
    burst = b"".join(frame(f'{{"type":"step","id":{i},"count":1}}{pad}') for i in range(1, 20000))
    for a in range(ADDRESSES):
        src = f"127.0.0.{20 + a}"
        status, session = post(server, {"kind": "holes", "clock": "on-demand", "config": {}}, src)
        assert status == 201, session
        attach = frame(json.dumps({"type": "attach", "id": 0, "session": session["id"], "token": session["token"]}))
        for c in range(PER):
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((src, 0)); s.connect((server.host, server.port))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall((f"GET /ws/batch HTTP/1.1\r\nHost: {server.host}:{server.port}\r\nUpgrade: websocket\r\n"
                       f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head: head += s.recv(1)
            if not head.startswith(b"HTTP/1.1 101"):
                print("refused", head.split(b"\r\n")[0]); s.close(); break
            s.sendall(attach); s.setblocking(False); socks.append([s, burst])
    print("connections", len(socks), "rss before flood", base_rss, "MiB")
    t0 = time.time()
    while time.time() - t0 < 20:
        progress = 0
        for entry in socks:
            s, data = entry
            if not data: continue
            try:
                n = s.send(data[:1 << 16]); entry[1] = data[n:]; progress += n
            except (BlockingIOError, InterruptedError): pass
            except OSError as e: entry[1] = b""
        if progress == 0: time.sleep(0.2)
    health = json.loads(urllib.request.urlopen(server.url + "/healthz").read())
    print("after 20 s flood: rss", rss(server.process.pid), "MiB; unsent MiB", sum(len(d) for _, d in socks) >> 20,
          "; stepJobs", health.get("stepJobs", {}).get("finished"), "alive", server.alive())
    time.sleep(5)
    print("5 s later rss", rss(server.process.pid))
    for s, _ in socks: s.close()
    time.sleep(3)
    print("closed: rss", rss(server.process.pid), "alive", server.alive())
finally:
    server.stop()
