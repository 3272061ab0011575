"""Helpers the browser tests share: sessions over the HTTP API, demo pages that have drawn,
canvas pixels, and a host page served from another origin."""
import contextlib
import http.server
import json
import threading
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def create_session(server, kind, config=None):
    """Creates a session over the HTTP API; returns its JSON (id, token, urls...)."""
    body = json.dumps({"kind": kind, "config": config or {}}).encode()
    request = urllib.request.Request(
        server.url + "/api/sessions", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 201
        return json.load(response)


def open_demo(watched, url, **kwargs):
    """Opens a demo (or replay) page and waits until it has drawn from a few frames."""
    page = watched(**kwargs)
    page.page.goto(url)
    wait_for_drawing(page)
    return page


def wait_for_drawing(page):
    # NB: a bound on the whole wait, not an expectation: with both cores busy (load 27) a page
    # of test_demos' first test had not connected and drawn within 10 s.
    page.page.wait_for_function(
        "() => window.playfield?.hello && window.playfield.frames.received > 0"
        " && window.playfield.status.drawn.rate() > 0", timeout=30_000)
    # A few frames more where the model sends them: a model whose steps change nothing visible
    # (street soccer between moves) sends none after the joiner's first.
    try:
        page.page.wait_for_function("() => window.playfield.frames.received > 3", timeout=1_000)
    except PlaywrightTimeout:
        pass


def newest_tick(page):
    return page.page.evaluate("() => window.playfield.frames.newest?.tick")


def wait_for_tick_after(page, tick, timeout=10_000):
    page.page.wait_for_function(f"() => (window.playfield.frames.newest?.tick ?? -1) > {tick}", timeout=timeout)


def wait_for_pixel(page, selector, x, y, colour, timeout=10_000):
    """Waits until the canvas at (x, y) CSS px has `colour` ("#rrggbb")."""
    page.page.wait_for_function(
        """([selector, x, y, colour]) => {
          const c = document.querySelector(selector);
          const r = c.getBoundingClientRect();
          const d = c.getContext('2d').getImageData(
            Math.floor(x * c.width / r.width), Math.floor(y * c.height / r.height), 1, 1).data;
          return '#' + ((1 << 24) | (d[0] << 16) | (d[1] << 8) | d[2]).toString(16).slice(1) === colour;
        }""", arg=[selector, x, y, colour], timeout=timeout)


# Holes with one ball and one hole beside the start: the ball falls in at once, game over.
QUICK_GAME_OVER = {"balls": 1, "holes": [[0.9, 0.9]], "holeRadius": 40, "maxHoleRadius": 40}


def open_game_over(watched, server, role="control"):
    """A new holes session whose game is over at once, open as `role` ("control" or "watch")."""
    session = create_session(server, "holes", QUICK_GAME_OVER)
    page = open_demo(watched, server.url + session["urls"][role])
    page.page.wait_for_function("() => window.playfield.frames.newest?.gameOver === true")
    return page


@contextlib.contextmanager
def host_site(html, folders=None):
    """Serves `html` at / from another origin (a second port on loopback), and the files of
    each folder in `folders` (`{"/leaflet/": path}`) below its prefix."""
    page = html.encode()
    types = {".css": "text/css", ".js": "text/javascript"}

    class Host(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body, kind = page, "text/html; charset=utf-8"
            for prefix, folder in (folders or {}).items():
                if self.path.startswith(prefix):
                    file = folder / self.path[len(prefix):].split("?")[0]
                    body, kind = file.read_bytes(), types.get(file.suffix, "application/octet-stream")
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
