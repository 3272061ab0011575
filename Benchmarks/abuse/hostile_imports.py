"""One address sends the slowest recipe pages it can (1 MB each, four connections) while others
import a small recipe and a real 429 KB page: how long the others wait (docs/benchmarks.md,
"Hostile imports beside a good client").

    .venv/bin/python Benchmarks/abuse/hostile_imports.py [PLAYFIELD_BIN]

The hostile pages are made here: 150,000 JSON-LD step lines, 12,000 microdata steps, 125,000
lines of "Step 1", 100,000 nested <div>s, truncated JSON-LD and 800 KB of invalid UTF-8. The
real page is the dev set's seriouseats.com page, read from ../shared when present (else a
generated one of the same size). Each importing client stays within its 60 imports a minute;
the hostile one reaches it and is then refused (429). Uses the release binary (or the path
given, or PLAYFIELD_BIN)."""
import http.client, json, os, pathlib, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests"))
from launcher import Playfield  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
REAL = ROOT.parent / "shared" / "bench" / "recipes" / "cases" / "seriouseats.com__seriouseats.html"


def json_ld(steps):
    recipe = {"@context": "https://schema.org", "@type": "Recipe", "name": "Big",
              "recipeIngredient": ["1 cup flour"], "recipeInstructions": [steps]}
    return f'<html><head><script type="application/ld+json">{json.dumps(recipe)}</script></head></html>'.encode()


def microdata(count):
    steps = "".join(f'<li itemprop="recipeInstructions">Étape the onions <b>gently</b> for {i} minutes.</li>'
                    for i in range(count))
    return (f'<html><body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Big</h1>'
            f'<ul>{steps}</ul></div></body></html>').encode()


HOSTILE = [
    json_ld("Stir\n" * 150_000),
    microdata(11_000),
    json_ld("Step 1\n" * 125_000),
    b"<div>" * 100_000,
    b'<script type="application/ld+json">{"@type":"Recipe","name":',
    b"\xff\xfe" * 400_000,
]
SMALL = (b'<script type="application/ld+json">{"@type":"Recipe","name":"Soup",'
         b'"recipeIngredient":["1 onion"],"recipeInstructions":["Boil."]}</script>')
REAL_PAGE = REAL.read_bytes() if REAL.exists() else json_ld("Simmer the stock gently.\n" * 17_000)


def connection(server, source):
    return http.client.HTTPConnection(server.host, server.port, timeout=60, source_address=(source, 0))


def send(c, body):
    c.request("POST", "/api/recipes/import?url=https://example.com/r", body=body,
              headers={"Content-Type": "text/html"})
    response = c.getresponse()
    response.read()
    return response


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    server = Playfield(binary=binary)
    stop = threading.Event()
    answers = {}

    def hostile(first):
        c, n = connection(server, "127.0.0.2"), first
        while not stop.is_set():
            try:
                status = send(c, HOSTILE[n % len(HOSTILE)]).status
            except (OSError, http.client.HTTPException) as error:
                status = type(error).__name__
                c.close()
                c = connection(server, "127.0.0.2")
            answers[status] = answers.get(status, 0) + 1
            n += 1
        c.close()

    def phase(name, body, count, source):
        waits = []
        for _ in range(count):
            c = connection(server, source)
            start = time.monotonic()
            status = send(c, body).status
            waits.append((time.monotonic() - start) * 1000)
            c.close()
            assert status == 200, (name, status)
        print(f"{name}: median {statistics.median(waits):.1f} ms, max {max(waits):.0f} ms, "
              f"RSS {rss(server.process.pid)} MiB", flush=True)

    try:
        print(f"hostile pages: {', '.join(f'{len(p) // 1000} KB' for p in HOSTILE)}; "
              f"real page {len(REAL_PAGE) // 1024} KB")
        phase("alone, small recipe", SMALL, 10, "127.0.0.1")
        phase("alone, real page", REAL_PAGE, 6, "127.0.0.3")
        threads = [threading.Thread(target=hostile, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        phase("flood, small recipe", SMALL, 16, "127.0.0.1")
        phase("flood, real page", REAL_PAGE, 10, "127.0.0.3")
        time.sleep(8)
        phase("flood later, small recipe", SMALL, 16, "127.0.0.1")
        phase("flood later, real page", REAL_PAGE, 10, "127.0.0.3")
        stop.set()
        for thread in threads:
            thread.join(120)
        time.sleep(2)
        phase("after, small recipe", SMALL, 8, "127.0.0.1")
        print(f"hostile answers: {dict(sorted(answers.items(), key=str))}")
    finally:
        stop.set()
        server.stop()


if __name__ == "__main__":
    main()
