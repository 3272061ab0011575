"""One address asks for a 238 KB recipe on many connections and reads none of the answers: the
server's peak RSS, and what it counts as queued and waiting (docs/benchmarks.md, "Answers an
address does not read").

    .venv/bin/python Benchmarks/abuse/unread_answers.py [CONNECTIONS]

On loopback the kernel grows a socket's send buffer to `net.ipv4.tcp_wmem`'s maximum (4 MiB),
which takes each answer whole and leaves nothing in the server; a remote peer's small window
does not. To see what a server on a network holds, lower it for the run and set it back:

    sysctl -w net.ipv4.tcp_wmem="4096 16384 65536"   # then "4096 16384 4194304"

Uses the release binary (or PLAYFIELD_BIN); metrics are read from 127.0.0.2."""
import collections, http.client, json, os, socket, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

CONNECTIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 250


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024


def call(server, method, path, body=None, source="127.0.0.1"):
    c = http.client.HTTPConnection(server.host, server.port, source_address=(source, 0), timeout=60)
    c.request(method, path, body, {"Content-Type": "application/ld+json"} if body else {})
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data


server = Playfield()
try:
    pid = server.process.pid
    soup = {"@context": "https://schema.org", "@type": "Recipe", "name": "Soup",
            "recipeIngredient": ["1 onion"], "recipeInstructions": ["Simmer."],
            "description": "simmer " * 34_000}
    status, data = call(server, "POST", "/api/recipes/import?save=1", json.dumps(soup))
    assert status == 201, data
    rid = json.loads(data)["id"]
    start = rss(pid)
    sockets = []
    for _ in range(CONNECTIONS):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((server.host, server.port))
        s.sendall(f"GET /api/recipes/{rid} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())
        sockets.append(s)
        time.sleep(0.02)
    peak = rss(pid)
    for _ in range(5):
        time.sleep(1)
        peak = max(peak, rss(pid))
    _, metrics = call(server, "GET", "/metrics", source="127.0.0.2")
    figures = {line.split()[0]: line.split()[1] for line in metrics.decode().splitlines()
               if line.startswith(("playfield_queued_bytes", "playfield_requests_waiting"))}
    print(f"{CONNECTIONS} connections that never read: RSS {start} MiB before, peak {peak} MiB; "
          f"{figures or 'no queued figures (an older build)'}")
    seen = collections.Counter()
    for s in sockets:
        s.settimeout(0.2)
        try:
            seen[s.recv(4096).split(b"\r\n")[0].decode()] += 1
        except OSError:
            seen["nothing yet"] += 1
    print("first line of each answer, read after:", dict(seen))
finally:
    server.stop()
