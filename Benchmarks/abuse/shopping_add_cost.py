"""Server CPU of one big shopping-list change (wave 4, session 7; docs/reliability.md "Shopping-list
changes flat out").

    .venv/bin/python Benchmarks/abuse/shopping_add_cost.py BINARY [COUNT]

Starts BINARY on port 18559 with a temporary database and `--shopping-changes-per-minute
100000`, saves a recipe (which makes a book), opens its shopping list and sends COUNT (30) adds of
500 lines of 200-character names one after another, each answered by the list. Prints the round
trips and the server's CPU (user + system, from /proc) over the whole run, start-up included.
"""
import asyncio, json, sys, time, subprocess, tempfile, urllib.request, http.client
from websockets.asyncio.client import connect
BIN, port = sys.argv[1], 18559
d = tempfile.mkdtemp()
p = subprocess.Popen([BIN, "serve", "--port", str(port), "--database", d + "/db.sqlite", "--shopping-changes-per-minute", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(100):
    try: urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz"); break
    except Exception: time.sleep(0.1)
c = http.client.HTTPConnection("127.0.0.1", port); c.request("POST", "/api/recipes/import?save=1", json.dumps({"@context": "https://schema.org", "@type": "Recipe", "name": "Soup", "recipeIngredient": ["1 onion"], "recipeInstructions": "Simmer."}), {"Content-Type": "application/ld+json"})
token = json.loads(c.getresponse().read())["book"]["token"]
lines = [{"name": f"{n:03} " + "x" * 190, "amount": 1, "unit": "g", "aisle": "a" * 40} for n in range(500)]
async def main():
    async with connect(f"ws://127.0.0.1:{port}/ws/recipes/shopping?token={token}", max_size=None) as ws:
        await ws.recv(); times = []
        for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
            lines[0]["amount"] = 1; t = time.perf_counter(); await ws.send(json.dumps({"type": "add", "items": lines})); await ws.recv(); times.append((time.perf_counter() - t) * 1000)
        return sorted(times)
t = asyncio.run(main()); cpu = open(f"/proc/{p.pid}/stat").read().split(); p.terminate(); p.wait()
print(f"{BIN}: 500-line add round trip ms median {t[len(t)//2]:.1f} min {t[0]:.1f} max {t[-1]:.1f}; server cpu {(int(cpu[13])+int(cpu[14]))/100:.2f} s for {len(t)}")
