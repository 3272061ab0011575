"""Three addresses export full recipe books (2,000 recipes, about 59 MB each) without pause while
another reads its mazes: how long that cheap store call waits (docs/benchmarks.md, "Book
exports and long lists beside a cheap store call").

    .venv/bin/python Benchmarks/abuse/big_exports.py [PLAYFIELD_BIN ...]

An export's request has no body, so it was estimated as a cheap call (1 ms) and could take the
store worker kept for cheap calls; its route now says 1 s (`Route.storeCost`). Each binary
given is run in turn, with books made afresh (by imports of book exports, 1 MB each). Uses
the release binary when none is given (or PLAYFIELD_BIN)."""
import http.client, json, os, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

RECIPES, RECIPE_BYTES = 2_000, 30_000
EXPORTERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
READER = "127.0.0.5"


class Client:
    """One address with its own client family cookie, over one connection at a time."""

    def __init__(self, server, source):
        self.server, self.source, self.cookie = server, source, None

    def call(self, method, path, body=None):
        c = http.client.HTTPConnection(self.server.host, self.server.port, timeout=120,
                                       source_address=(self.source, 0))
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        c.request(method, path, body=body, headers=headers)
        response = c.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie and not self.cookie:
            self.cookie = cookie.split(";")[0]
        c.close()
        return response.status, data


def fill(client):
    lines = [f"{i} g of ingredient number {i}, finely chopped" for i in range(RECIPE_BYTES // 50)]
    per = 900_000 // (RECIPE_BYTES + 200)
    for first in range(0, RECIPES, per):
        recipes = [{"recipe": {"@context": "https://schema.org", "@type": "Recipe",
                               "name": f"Recipe {n}", "recipeIngredient": lines,
                               "recipeInstructions": ["Mix.", "Bake."]}, "tags": []}
                   for n in range(first, min(RECIPES, first + per))]
        book = {"playfield": "recipe-book", "version": 1, "recipes": recipes}
        status, data = client.call("POST", "/api/recipes/import?save=1", json.dumps(book).encode())
        assert status == 201, (status, data[:200])


def run(binary):
    server = Playfield("--recipe-imports-per-minute", "100000", binary=binary)
    stop = threading.Event()
    exports = {}
    try:
        exporters = [Client(server, source) for source in EXPORTERS]
        for client in exporters:
            fill(client)
        status, data = exporters[0].call("GET", "/api/recipes/export")
        size = len(data)
        reader = Client(server, READER)

        def export(client):
            while not stop.is_set():
                status, _ = client.call("GET", "/api/recipes/export")
                exports[status] = exports.get(status, 0) + 1

        def phase(name, count):
            waits = []
            for _ in range(count):
                start = time.monotonic()
                status, _ = reader.call("GET", "/api/mazes")
                waits.append((time.monotonic() - start) * 1000)
                assert status == 200, status
                time.sleep(0.05)
            print(f"  {name}: GET /api/mazes median {statistics.median(waits):.1f} ms, "
                  f"max {max(waits):.0f} ms", flush=True)

        print(f"{binary or 'release'}: books of {RECIPES} recipes, export {size / 1e6:.1f} MB")
        phase("alone", 20)
        threads = [threading.Thread(target=export, args=(client,))
                   for client in exporters for _ in range(2)]
        for thread in threads:
            thread.start()
        time.sleep(2)
        phase("beside the exports", 60)
        stop.set()
        for thread in threads:
            thread.join(120)
        print(f"  exports answered: {dict(sorted(exports.items()))}")
    finally:
        stop.set()
        server.stop()


if __name__ == "__main__":
    for binary in sys.argv[1:] or [None]:
        run(binary)
