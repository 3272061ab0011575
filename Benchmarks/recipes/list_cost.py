"""What a recipe list costs the store worker: `GET /api/recipes` over a book of the largest
recipes a book takes (docs/benchmarks.md, "What a recipe list costs").

    .venv/bin/python Benchmarks/recipes/list_cost.py [PLAYFIELD_BIN ...]

Fills a book with 250 recipes of about 250 KB each (`--recipe-bytes`'s bound), then times lists
of 24, 100 and 1,000 recipes (the median of 7 of each, one after another), on each binary given
in turn, with a fresh database each. Uses the release binary when none is given."""
import http.client, json, os, statistics, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

RECIPES, RECIPE_BYTES = 250, 250_000


def call(server, method, path, body=None, cookie=None):
    c = http.client.HTTPConnection(server.host, server.port, timeout=120)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = cookie
    c.request(method, path, body=body, headers=headers)
    response = c.getresponse()
    data = response.read()
    made = response.getheader("Set-Cookie")
    c.close()
    return response.status, data, (made.split(";")[0] if made else cookie)


def run(binary):
    server = Playfield("--recipe-imports-per-minute", "100000", binary=binary)
    try:
        lines = [f"{i} g of ingredient number {i}, finely chopped"
                 for i in range(RECIPE_BYTES // 50)]
        cookie = None
        for n in range(RECIPES):
            recipe = {"recipe": {"@context": "https://schema.org", "@type": "Recipe",
                                 "name": f"Recipe {n}", "description": "A dish.",
                                 "image": f"https://example.com/{n}.jpg", "totalTime": "PT1H",
                                 "recipeYield": "4", "recipeIngredient": lines,
                                 "recipeInstructions": ["Mix.", "Bake."]}, "tags": ["big"]}
            book = {"playfield": "recipe-book", "version": 1, "recipes": [recipe]}
            status, data, cookie = call(server, "POST", "/api/recipes/import?save=1",
                                        json.dumps(book).encode(), cookie)
            assert status == 201, (status, data[:200])
        print(f"{binary or 'release'}: a book of {RECIPES} recipes of {RECIPE_BYTES // 1000} KB")
        for limit in (24, 100, 1000):
            times = []
            for _ in range(7):
                start = time.monotonic()
                status, data, _ = call(server, "GET", f"/api/recipes?limit={limit}", cookie=cookie)
                times.append((time.monotonic() - start) * 1000)
                assert status == 200, (status, data[:200])
            listed = len(json.loads(data)["recipes"])
            print(f"  limit={limit}: {listed} listed, median {statistics.median(times):.1f} ms, "
                  f"max {max(times):.1f} ms", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    for binary in sys.argv[1:] or [None]:
        run(binary)
