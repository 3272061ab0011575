"""Server CPU of the costliest client messages and requests within the declared bounds (wave 4,
session 7; docs/reliability.md "One message's cost, handler by handler").

    .venv/bin/python Benchmarks/abuse/message_costs.py BINARY [SUBSTRING...]

Starts BINARY on port 18561 with a temporary database, then for each case (only those whose
name contains a SUBSTRING, if given) sends N messages or requests and prints the server's CPU
(user + system, from /proc, 10 ms resolution) per message, with the last answer. Socket cases
stop the session first and end with a ping, so the count covers parsing, applying and answering.
"""
import asyncio, json, sys, time, subprocess, tempfile, urllib.request, http.client, os
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
BIN = sys.argv[1]; ONLY = sys.argv[2:]
port = 18561
d = tempfile.mkdtemp()
p = subprocess.Popen([BIN, "serve", "--port", str(port), "--database", d + "/db.sqlite",
    "--shopping-changes-per-minute", "100000", "--recipe-imports-per-minute", "100000"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(100):
    try: urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz"); break
    except Exception: time.sleep(0.1)
def cpu():
    s = open(f"/proc/{p.pid}/stat").read().split(); return (int(s[13]) + int(s[14])) / 100
def req(method, path, body=None, ctype="application/json", headers={}):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    h = {"Content-Type": ctype, **headers}
    c.request(method, path, body, h); r = c.getresponse(); data = r.read(); c.close(); return r.status, data
def create(kind, config={}, clock=None):
    b = {"kind": kind, "config": config}
    if clock: b["clock"] = clock
    s, data = req("POST", "/api/sessions", json.dumps(b)); assert s == 201, (s, data); return json.loads(data)
results = []
def report(name, n, c0, note=""):
    c = cpu() - c0; results.append((name, n, c * 1000 / n, note))
    print(f"{name:55s} n={n:4d} {c*1000/n:9.2f} ms/msg {note}", flush=True)

async def ws_case(name, path, msgs, n, answers=True, note="", setup=None):
    async with connect(f"ws://127.0.0.1:{port}{path}", max_size=None, open_timeout=30) as ws:
        session = "/ws/sessions/" in path
        if session: await ws.send('{"type":"stop"}')
        await asyncio.sleep(0.3)
        while True:
            try: await asyncio.wait_for(ws.recv(), 0.2)
            except asyncio.TimeoutError: break
        c0 = cpu(); last = None
        for i in range(n):
            await ws.send(msgs(i) if callable(msgs) else msgs)
        # wait until quiet
        t = time.time(); got = 0
        if session: await ws.send('{"type":"ping","id":"END"}')
        while time.time() - t < 120:
            try: last = await asyncio.wait_for(ws.recv(), 1.0); got += 1
            except ConnectionClosed as closed:
                last = f"closed {closed.rcvd.code if closed.rcvd else None}"; break
            except asyncio.TimeoutError:
                if not session: break
                continue
            if session and '"END"' in last: break
        report(name, n, c0, note + f" replies={got} last={str(last)[:100]!r}")

def sel(name): return not ONLY or any(o in name for o in ONLY)
MB = 1 << 20
async def main():
    maze = create("maze")
    mpath = f"/ws/sessions/{maze['id']}?token={maze['token']}"
    big = "x" * (MB - 100)
    cases = [
        ("session ping small", mpath, json.dumps({"type": "ping", "id": 1}), 200),
        ("session ping id 1MB string", mpath, json.dumps({"type": "ping", "id": big}), 20),
        ("session ping id 1MB of \\u escapes", mpath, '{"type":"ping","id":"' + "\\u00e9" * (MB // 6 - 10) + '"}', 20),
        ("session ping id deep 64", mpath, '{"type":"ping","id":' + "[" * 63 + "]" * 63 + "}", 200),
        ("session ping id 80k keys", mpath, json.dumps({"type": "ping", "id": {f"k{i}": 0 for i in range(80000)}}), 10),
        ("session ping id 5k keys (60 KB)", mpath, json.dumps({"type": "ping", "id": {f"k{i}": 0 for i in range(5000)}}), 100),
        ("session ping id 300k-element array", mpath, json.dumps({"type": "ping", "id": [0] * 300000}), 10),
        ("session ping t 1MB digits number", mpath, '{"type":"ping","t":1' + "1" * (MB - 50) + "}", 10),
        ("session ping t 1MB fraction digits", mpath, '{"type":"ping","t":0.' + "1" * (MB - 50) + "}", 10),
        ("session tilt 80k unknown fields", mpath, json.dumps({"type": "tilt", "x": 0, "y": 0, **{f"k{i}": 0 for i in range(80000)}}), 10),
        ("session toggle id 64 chars", mpath, lambda i: json.dumps({"type": "toggle", "row": 2, "col": 3, "id": "a" * 64}), 200),
        ("session unknown type 1MB", mpath, json.dumps({"type": big}), 20),
        ("session step count 600 (stopped)", mpath, None, 0),
    ]
    for name, path, msg, n in cases:
        if sel(name) and msg is not None: await ws_case(name, path, msg, n)
    # paintbrush
    if sel("paint"):
        pb = create("paintbrush", {"maxPoints": 250000, "maxStrokes": 10000})
        ppath = f"/ws/sessions/{pb['id']}?token={pb['token']}"
        pts = [float(i % 600) for i in range(512)]
        stroke = lambda i: json.dumps({"type": "stroke", "author": "a", "stroke": i, "color": "#ffffff", "radius": 10, "points": pts})
        await ws_case("paint stroke 256 pts (new strokes)", ppath, stroke, 900)
        await ws_case("paint undo (900 strokes on canvas)", ppath, json.dumps({"type": "undo", "author": "a"}), 400)
        await ws_case("paint stroke 256 pts continuing", ppath, lambda i: json.dumps({"type": "stroke", "author": "b", "stroke": 1, "color": "#ffffff", "radius": 10, "points": pts}), 900)
        await ws_case("paint undo of one 900-batch stroke", ppath, json.dumps({"type": "undo", "author": "b"}), 1)
    # shopping
    if sel("shop"):
        s, data = req("POST", "/api/recipes/import?save=1", json.dumps({"@context": "https://schema.org", "@type": "Recipe", "name": "Soup", "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}), "application/ld+json")
        token = json.loads(data)["book"]["token"]
        spath = f"/ws/recipes/shopping?token={token}"
        lines = lambda i: json.dumps({"type": "add", "items": [{"name": f"{i}-{n:03} " + "x" * 190, "amount": 1, "unit": "g", "aisle": "a" * 40} for n in range(500)]})
        await ws_case("shop add 500 x 190-char names (growing list)", spath, lines, 10)
        await ws_case("shop check unknown 200k key", spath, json.dumps({"type": "check", "key": "k" * 200000, "checked": True}), 20)
        await ws_case("shop clear", spath, json.dumps({"type": "clear"}), 20)
        # The worst within --shopping-message-bytes (256 KiB), and past it (closed with 1009).
        await ws_case("shop check 20k junk keys (250 KB)", spath, json.dumps({"type": "check", "key": "none", **{f"k{i}": 0 for i in range(20000)}}), 20)
        await ws_case("shop check 80k junk keys (1 MB)", spath, json.dumps({"type": "check", "key": "none", **{f"k{i}": 0 for i in range(80000)}}), 1)
    # compare: bounded as a session socket (--session-message-bytes, 64 KiB)
    if sel("compare"):
        s, data = req("POST", "/api/compare", json.dumps({"kind": "bouncing-balls", "seed": 1, "variants": [{}, {"restitution": 0.5}]}))
        group = json.loads(data); assert s == 201, (s, data)
        cpath = f"/ws/compare/{group['id']}?token={group['token']}"
        junk = lambda n: json.dumps({"type": "pause", **{f"k{i}": 0 for i in range(n)}})
        await ws_case("compare pause", cpath, json.dumps({"type": "pause"}), 200)
        await ws_case("compare pause 5k junk keys (60 KB)", cpath, junk(5000), 100)
        await ws_case("compare pause 80k junk keys (1 MB)", cpath, junk(80000), 1)
    # HTTP
    def http_case(name, method, path, body, n, ctype="application/json", headers={}):
        if not sel(name): return
        c0 = cpu(); st = None
        for i in range(n): st, data = req(method, path, body(i) if callable(body) else body, ctype, headers)
        report(name, n, c0, f"status={st} {data[:80]!r}")
    http_case("http create maze", "POST", "/api/sessions", json.dumps({"kind": "maze"}), 20)
    http_case("http create 64KiB config junk keys", "POST", "/api/sessions", json.dumps({"kind": "maze", "config": {f"k{i}": 0 for i in range(5000)}})[:65000], 20)
    http_case("http maze PUT 250x250 cells", "PUT", "/api/mazes/test", json.dumps({"cells": ["." * 250] * 250}), 10)
    http_case("http highscores 60KB name", "POST", "/api/highscores", json.dumps({"name": "x" * 60000, "score": 3}), 10)
    for q in ["soup", "a* OR b* OR c* OR d* OR e* OR f* OR g* OR h*", '"' + " ".join(["a*"] * 200) + '"', "NEAR(" + " ".join(["a*"] * 50) + ", 1)", "x" * 8000, " OR ".join(f"{chr(97+i%26)}*" for i in range(1000))]:
        import urllib.parse
        http_case(f"http search q={q[:30]!r}", "GET", "/api/recipes?q=" + urllib.parse.quote(q), None, 10)
    # recipe import pathological HTML
    def page(body): return ("<html><head><title>t</title></head><body>" + body + "</body></html>").encode()
    imp = "/api/recipes/import"
    http_case("import 1MB deep nesting div", "POST", imp, page("<div>" * 200000), 3, "text/html")
    http_case("import 1MB 30k <li>", "POST", imp, page("<h2>Ingredients</h2><ul>" + "<li>1 cup flour</li>" * 50000 + "</ul><h2>Method</h2><p>mix</p>"), 3, "text/html")
    http_case("import one tag of 80k attributes", "POST", imp, page("<div " + " ".join(f"a{i}=\"v\"" for i in range(80000)) + ">x</div>"), 3, "text/html")
    http_case("import 200-attribute tags, 1MB", "POST", imp, page(("<p " + "a " * 200 + ">x</p>") * 2400), 3, "text/html")
    http_case("import many JSON-LD blocks", "POST", imp, page('<script type="application/ld+json">{"@type":"Recipe","name":"x","recipeIngredient":["1 egg"]}</script>' * 10000), 3, "text/html")
    http_case("import long entity run", "POST", imp, page("<p>" + "&amp;" * 200000 + "</p>"), 3, "text/html")
    http_case("import nested lists", "POST", imp, page("<ul><li>" * 50000), 3, "text/html")
    http_case("import JSON-LD huge ingredient list", "POST", imp, json.dumps({"@context": "https://schema.org", "@type": "Recipe", "name": "x", "recipeIngredient": ["1 cup flour"] * 60000, "recipeInstructions": "x"}).encode(), 3, "application/ld+json")
    http_case("import JSON-LD @graph 20k", "POST", imp, json.dumps({"@context": "https://schema.org", "@graph": [{"@type": "Thing", "name": "x"}] * 30000 + [{"@type": "Recipe", "name": "x", "recipeIngredient": ["1 egg"]}]}).encode(), 3, "application/ld+json")
    http_case("import text 1MB one line", "POST", imp, page("<p>" + "word " * 200000 + "</p>"), 3, "text/html")
    http_case("import many headings", "POST", imp, page("<h2>Ingredients</h2><p>1 egg</p>" * 25000), 3, "text/html")
try: asyncio.run(main())
finally: p.terminate(); p.wait()
