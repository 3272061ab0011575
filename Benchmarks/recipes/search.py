#!/usr/bin/env python3
"""How fast the recipe book's full-text search answers over 10,000 recipes (issue 33: at most
10 ms).

    .venv/bin/python Benchmarks/recipes/search.py [--binary .build/release/playfield]
        [--recipes 10000] [--queries 300]

Starts a fresh server (port 0, a new SQLite database) with room for the book, fills one book
with `--recipes` generated recipes (seeded, so every run has the same book) through book-export
imports of 500 at a time, then asks `GET /api/recipes?q=WORDS` for `--queries` queries over
one kept-alive connection: one recipe's name, common words, two words, prefixes, and words no
recipe has. Each answer is the first page of the list (100 recipes, `more` says whether there
are others). Prints the median, 95th percentile and largest time per answer (request sent to the last
byte read, JSON parsed), each kind's median and how many recipes it matched, and the load
average, since the machine may be shared.
"""
import argparse
import http.client
import json
import os
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402

FOODS = ("chicken beef pork lamb salmon tofu lentil chickpea rice pasta noodle potato tomato "
         "onion garlic ginger carrot spinach kale mushroom pepper zucchini aubergine pumpkin "
         "apple pear plum cherry lemon lime orange almond walnut hazelnut oat barley quinoa "
         "butter cheese yogurt cream egg flour sugar honey chocolate vanilla cinnamon cumin "
         "paprika basil thyme rosemary parsley coriander mint chili coconut miso").split()
DISHES = "soup stew salad curry cake bread pie tart risotto gratin roast bake stir-fry".split()
STYLES = "spicy creamy smoky crispy quick easy rustic summer winter festive classic".split()
UNITS = ["g", "ml", "cups", "tbsp", "tsp", ""]
VERBS = "chop slice whisk simmer roast bake fry stir fold season rest serve".split()


def recipe(generator, number):
    main, second = generator.sample(FOODS, 2)
    name = f"{generator.choice(STYLES).title()} {main} and {second} {generator.choice(DISHES)} {number}"
    ingredients = [
        f"{generator.randint(1, 500)} {generator.choice(UNITS)} {food}".replace("  ", " ")
        for food in [main, second, *generator.sample(FOODS, generator.randint(3, 9))]
    ]
    steps = [
        {"@type": "HowToStep",
         "text": f"{generator.choice(VERBS).title()} the {generator.choice(FOODS)} and "
                 f"{generator.choice(VERBS)} for {generator.randint(2, 60)} minutes."}
        for _ in range(generator.randint(3, 8))
    ]
    return {"@context": "https://schema.org", "@type": "Recipe", "name": name,
            "description": f"A {generator.choice(STYLES)} {generator.choice(DISHES)} with {main}.",
            "recipeIngredient": ingredients, "recipeInstructions": steps,
            "recipeYield": f"{generator.randint(1, 8)} servings", "totalTime": "PT45M",
            "keywords": ", ".join(generator.sample(STYLES, 2))}


def call(connection, method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    return response.status, json.loads(data) if data else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=None)
    parser.add_argument("--recipes", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    server = Playfield(
        "--recipes-per-book", str(args.recipes), "--recipe-imports-per-minute", "1000",
        binary=args.binary)
    try:
        host, port = server.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        generator = random.Random(33)
        names = []
        token = None
        started = time.monotonic()
        for first in range(0, args.recipes, 500):
            batch = [{"recipe": recipe(generator, n), "tags": [generator.choice(DISHES)]}
                     for n in range(first, min(args.recipes, first + 500))]
            names += [entry["recipe"]["name"] for entry in batch]
            body = json.dumps({"playfield": "recipe-book", "version": 1, "recipes": batch})
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            status, answer = call(connection, "POST", "/api/recipes/import?save=1", body, headers)
            assert status == 201, answer
            token = token or answer["book"]["token"]
        print(f"filled one book with {args.recipes} recipes in {time.monotonic() - started:.1f} s")
        auth = {"Authorization": f"Bearer {token}"}
        kinds = {
            "one recipe": lambda: "%20".join(generator.choice(names).split()[:-1]),
            "common word": lambda: generator.choice(FOODS),
            "two words": lambda: f"{generator.choice(FOODS)}%20{generator.choice(DISHES)}",
            "prefix": lambda: generator.choice(FOODS)[:3],
            "no match": lambda: f"zz{generator.randint(0, 999)}",
        }
        times, by_kind = [], {kind: ([], []) for kind in kinds}
        for index in range(args.queries + 20):
            kind = list(kinds)[index % len(kinds)]
            path = "/api/recipes?q=" + kinds[kind]()
            begin = time.perf_counter()
            status, answer = call(connection, "GET", path, headers=auth)
            elapsed = (time.perf_counter() - begin) * 1000
            assert status == 200, answer
            if index < 20:
                continue  # warm-up
            times.append(elapsed)
            by_kind[kind][0].append(elapsed)
            by_kind[kind][1].append(len(answer["recipes"]))
        times.sort()
        print(f"{len(times)} searches over {args.recipes} recipes, one connection:")
        print(f"  median {statistics.median(times):.2f} ms, p95 "
              f"{times[int(len(times) * 0.95) - 1]:.2f} ms, max {times[-1]:.2f} ms")
        for kind, (spent, counts) in by_kind.items():
            print(f"  {kind:12} median {statistics.median(spent):.2f} ms, "
                  f"{statistics.median(counts):.0f} recipes answered (median)")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
