"""Many /ws/batch connections that flood steps and never read, from several addresses: the
server's RSS before, after 20 s of flooding, and after they close (docs/reliability.md,
"Abuse paths beyond the attacks").

    .venv/bin/python Benchmarks/abuse/silent_batch_readers.py ADDRESSES CONNECTIONS_EACH

Uses 127.0.0.20 and up as the addresses, and the release binary (or PLAYFIELD_BIN)."""
import json, os, sys, time, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from bare_websocket import BareWebSocket  # noqa: E402
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

frame = BareWebSocket.text_frame

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
            bare = BareWebSocket(server.url, "/ws/batch", src, receive_buffer=4096)
            if bare.handshake() != 101:
                print("refused", bare.head.split(b"\r\n")[0]); bare.close(); break
            s = bare.socket
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
