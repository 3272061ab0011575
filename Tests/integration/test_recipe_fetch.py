"""Issue 33: import by URL (`POST /api/recipes/import?url=URL` with no body). The server fetches
the page itself, refusing private, loopback and link-local addresses after DNS and on every
redirect (only hosts named by --recipe-fetch-allow-host are exempt), with a size cap, a timeout
and a per-client limit of fetches at once; every failure is a clear error and stores nothing."""
import http.client
import http.server
import json
import threading
import urllib.parse

import pytest

from deadline import Deadline
from helpers import request

PAGE = b"""<!doctype html><html><head><title>Site</title>
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Recipe", "name": "Fetched flapjacks",
 "image": "/img/flapjacks.jpg", "recipeYield": "12",
 "recipeIngredient": ["250 g oats", "125 g butter"],
 "recipeInstructions": "Melt the butter. Stir in the oats. Bake 25 minutes."}
</script></head><body><h1>Flapjacks</h1></body></html>"""


class Site:
    """A local HTTP server with a recipe page and hostile answers around it."""

    def __init__(self):
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.slow_arrivals = 0
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send(self, status, body=b"", kind="text/html; charset=utf-8", headers=()):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                path = urllib.parse.urlsplit(self.path).path
                port = site.port
                if path == "/recipe":
                    self.send(200, PAGE)
                elif path == "/moved":
                    self.send(301, headers=[("Location", "/recipe")])
                elif path == "/to-metadata":
                    self.send(302, headers=[("Location", "http://169.254.169.254/latest/meta-data/")])
                elif path == "/to-localhost":
                    self.send(302, headers=[("Location", f"http://localhost:{port}/recipe")])
                elif path == "/to-ipv6-loopback":
                    self.send(307, headers=[("Location", f"http://[::1]:{port}/recipe")])
                elif path == "/loop":
                    self.send(302, headers=[("Location", "/loop")])
                elif path == "/big":
                    self.send(200, PAGE + b"<p>" + b"x" * 8192 + b"</p>")
                elif path == "/deep":
                    self.send(200, b"<html><body>" + b"<div>" * 300_000 + PAGE + b"</div>" * 300_000)
                elif path == "/malformed":
                    self.send(200, b'<script type="application/ld+json">{"@type": "Recipe", "name": oops</script>')
                elif path == "/text":
                    self.send(200, b"just text", "text/plain")
                elif path == "/slow":
                    site.slow_arrivals += 1
                    site.arrived.set()
                    site.release.wait(60)
                    self.send(200, PAGE)
                else:
                    self.send(404, b"not here")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site():
    made = Site()
    yield made
    made.close()


def by_url(server, url, query=""):
    target = server.url + "/api/recipes/import?url=" + urllib.parse.quote(url, safe="") + query
    return request(target, "POST", None, timeout=20)


def by_url_from(server, source, url):
    """`by_url` from the local address `source`: a client of its own."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=60,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/api/recipes/import?url=" + urllib.parse.quote(url, safe=""))
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def stored(server):
    return request(server.url + "/api/recipes")[2]["recipes"]


def test_private_and_metadata_addresses_are_refused(start_playfield, site):
    server = start_playfield()
    for url in [site.url("/recipe"), f"http://localhost:{site.port}/recipe",
                f"http://[::1]:{site.port}/recipe", "http://169.254.169.254/latest/meta-data/",
                "http://10.0.0.1/", "http://0.0.0.0:80/", "http://[fe80::1]/"]:
        status, _, error = by_url(server, url, "&save=1")
        assert status == 403 and "non-public address" in error["error"], (url, error)
    assert stored(server) == []


def test_an_allowed_test_host_imports_and_saves(start_playfield, site):
    server = start_playfield("--recipe-fetch-allow-host", "127.0.0.1")
    status, _, recipe = by_url(server, site.url("/recipe"))
    assert status == 200, recipe
    assert recipe["name"] == "Fetched flapjacks"
    assert recipe["recipeIngredient"] == ["250 g oats", "125 g butter"]
    assert recipe["image"] == site.url("/img/flapjacks.jpg")  # relative to the fetched URL
    assert stored(server) == []
    status, _, saved = by_url(server, site.url("/moved"), "&save=1&tag=bakes")
    assert status == 201, saved
    assert saved["name"] == "Fetched flapjacks" and saved["tags"] == ["bakes"]
    assert [r["id"] for r in stored(server)] == [saved["id"]]


def test_redirects_to_private_addresses_are_refused(start_playfield, site):
    server = start_playfield("--recipe-fetch-allow-host", "127.0.0.1")
    for path in ["/to-metadata", "/to-localhost", "/to-ipv6-loopback"]:
        status, _, error = by_url(server, site.url(path), "&save=1")
        assert status == 403 and "non-public address" in error["error"], (path, error)
    status, _, error = by_url(server, site.url("/loop"), "&save=1")
    assert status == 502 and "redirects more than 5 times" in error["error"], error
    assert stored(server) == []


def test_bad_urls_and_pages_get_clear_errors_and_store_nothing(start_playfield, site):
    server = start_playfield("--recipe-fetch-allow-host", "127.0.0.1", "--recipe-fetch-bytes", "4096")
    cases = [
        ("ftp://example.com/recipe", 400, "http:// or https://"),
        ("file:///etc/passwd", 400, "http:// or https://"),
        ("not a url", 400, "http:// or https://"),
        ("http://user:pw@127.0.0.1/", 400, "http:// or https://"),
        (site.url("/big"), 422, "--recipe-fetch-bytes"),
        (site.url("/text"), 422, "text/plain"),
        (site.url("/missing"), 502, "HTTP 404"),
    ]
    for url, code, words in cases:
        status, _, error = by_url(server, url, "&save=1")
        assert status == code and words in error["error"], (url, error)
    assert stored(server) == []


def test_slow_pages_time_out_and_fetches_at_once_are_charged(start_playfield, site):
    server = start_playfield(
        "--recipe-fetch-allow-host", "127.0.0.1", "--recipe-fetch-timeout", "3",
        "--recipe-fetches-per-client", "1")
    answers = []
    first = threading.Thread(target=lambda: answers.append(by_url(server, site.url("/slow"), "&save=1")))
    first.start()
    assert site.arrived.wait(10)
    status, head, error = by_url(server, site.url("/recipe"))
    assert status == 429 and "--recipe-fetches-per-client" in error["error"], error
    assert int(head["Retry-After"]) >= 1
    first.join(20)
    status, _, error = answers[0]
    assert status == 504 and "--recipe-fetch-timeout" in error["error"], error
    assert stored(server) == []


def test_one_address_holds_at_most_half_of_the_fetches(start_playfield, site):
    """A slow site holds a fetch until the timeout. An address whose imports all point at one
    gets half of `--recipe-fetches`; its others wait for its own, and another client's import
    is fetched at once beside them."""
    server = start_playfield("--recipe-fetch-allow-host", "127.0.0.1", "--recipe-fetches", "2",
                             "--recipe-fetch-timeout", "60")
    held = []
    slow = [threading.Thread(target=lambda: held.append(by_url_from(server, "127.0.0.2", site.url("/slow"))))
            for _ in range(2)]
    for thread in slow:
        thread.start()
    try:
        assert site.arrived.wait(20), "the first slow fetch reaches the site"
        status, recipe = by_url_from(server, "127.0.0.1", site.url("/recipe"))
        assert status == 200 and recipe["name"] == "Fetched flapjacks", recipe
        assert site.slow_arrivals == 1 and held == [], "the second slow fetch waits for the first"
    finally:
        site.release.set()
    deadline = Deadline(60, "the slow fetches answered once the site lets them go")
    for thread in slow:
        thread.join(deadline.left())
    assert sorted(status for status, _ in held) == [200, 200], held
    assert site.slow_arrivals == 2


def test_hostile_pages_by_url(start_playfield, site):
    """A 3.3 MB page (over the 1 MiB body cap, under the fetch cap) of 300,000 nested divs still
    imports; JSON-LD that does not parse is a clear error and stores nothing."""
    server = start_playfield("--recipe-fetch-allow-host", "127.0.0.1")
    status, _, recipe = by_url(server, site.url("/deep"))
    assert status == 200 and recipe["name"] == "Fetched flapjacks", recipe
    status, _, error = by_url(server, site.url("/malformed"), "&save=1")
    assert status == 422 and "JSON-LD" in error["error"], error
    assert stored(server) == []
