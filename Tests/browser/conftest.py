"""The browser harness: headless Chromium (Debian's package) driven by Playwright.

Every page a test opens is watched: a console error, an uncaught exception or a failed
request fails the test. Screenshots land in out/screenshots/ for a person to look at.
"""
import os
import pathlib

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "out" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _server_module():
    """Tests/conftest.py, whose `Playfield` starts the server (NB: loaded by path, since this
    file is also named conftest)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("playfield_server", ROOT / "Tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Chromium:
    """Playwright's driver and its Chromium, alive only while browser tests run: started for
    the first one, stopped after the last of a row of them (`pytest_runtest_teardown`).

    NB: between its calls Playwright's sync API leaves its event loop marked running on the
    main thread, so while the driver lives `asyncio.run` there fails ("cannot be called from a
    running event loop"). Kept for the whole run, it broke the asyncio tests of the other
    folders that ran after these in the same process. One driver at a time: a second sync one
    alive in the same process fails."""

    def __init__(self):
        self._manager = None
        self._driver = None
        self._browser = None

    def driver(self):
        if self._driver is None:
            self._manager = sync_playwright()
            self._driver = self._manager.start()
        return self._driver

    def browser(self):
        if self._browser is not None and not self._browser.is_connected():
            # NB: a test interrupted mid-call (its timeout) can leave the driver or Chromium
            # gone; start afresh rather than fail every browser test after it.
            try:
                self.stop()
            except Exception:
                self._browser = self._driver = self._manager = None
        if self._browser is None:
            self._browser = self.launch()
        return self._browser

    def launch(self, *args):
        """Another headless Chromium, with more command-line `args`; the caller closes it."""
        return self.driver().chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *args])

    def stop(self):
        browser, manager = self._browser, self._manager
        self._browser = self._driver = self._manager = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if manager is not None:
                manager.__exit__(None, None, None)


CHROMIUM_NOW = Chromium()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """After the fixtures of `item` are torn down: stops Playwright when the next test is not a
    browser test (this folder's), so that no asyncio test runs beside its event loop."""
    here = pathlib.Path(__file__).parent
    if nextitem is None or here not in pathlib.Path(nextitem.path).parents:
        CHROMIUM_NOW.stop()


@pytest.fixture(scope="session")
def chromium():
    """Playwright and Chromium as the browser tests share them (`Chromium`)."""
    return CHROMIUM_NOW


@pytest.fixture
def browser(chromium):
    """Headless Chromium, shared by the browser tests in a row."""
    return chromium.browser()


@pytest.fixture(scope="session")
def server_module():
    """Tests/conftest.py, to start servers of one's own (`server_module.Playfield(...)`)."""
    return _server_module()


@pytest.fixture(scope="session")
def playfield():
    """The browser tests' server. NB: every page here comes from one address, so it may hold
    more live sessions than the default per-client quota (16), and more compare groups than
    its quota (4: a closed page's group lives on until `--idle-pause`), which their own tests
    check."""
    server = _server_module().Playfield("--sessions-per-client", "256", "--compares-per-client", "64")
    yield server
    assert server.alive(), "the server died during the tests:\n" + server.read_log()
    server.stop()


class WatchedPage:
    """A page plus the problems seen on it."""

    def __init__(self, page):
        self.page = page
        self.problems = []
        self.closed = False
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        # NB: net::ERR_ABORTED is a request the page itself gave up (it navigated away while the
        # favicon loaded, or aborted a fetch): not a failure of the server's.
        page.on("requestfailed", lambda r: "ERR_ABORTED" not in (r.failure or "")
                and self.problems.append(f"failed: {r.url} {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))

    def close(self):
        """Closes the page's browser context now, not at the test's end (a test that opens many
        live pages in turn keeps only the ones it still looks at); its problems still count."""
        if not self.closed:
            self.closed = True
            self.page.context.close()

    def screenshot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def allow(self, predicate):
        """Forgets problems the test expects (e.g. a deliberate 404)."""
        self.problems = [p for p in self.problems if not predicate(p)]

    def canvas_colours(self, selector="canvas", frame=None):
        """How many pixels of each colour ("#rrggbb") the canvas holds, most frequent first."""
        counts = (frame or self.page).locator(selector).first.evaluate(_COUNT_COLOURS)
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def pixel(self, selector, x, y, frame=None):
        """The colour ("#rrggbb") of the canvas at (x, y) in CSS px from its top-left corner."""
        return (frame or self.page).locator(selector).first.evaluate(_PIXEL, [x, y])


_COUNT_COLOURS = """canvas => {
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const counts = {};
  for (let i = 0; i < data.length; i += 4) {
    const key = "#" + ((1 << 24) | (data[i] << 16) | (data[i + 1] << 8) | data[i + 2]).toString(16).slice(1);
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}"""

_PIXEL = """(canvas, [x, y]) => {
  const rect = canvas.getBoundingClientRect();
  const px = Math.floor(x * canvas.width / rect.width);
  const py = Math.floor(y * canvas.height / rect.height);
  const d = canvas.getContext("2d").getImageData(px, py, 1, 1).data;
  return "#" + ((1 << 24) | (d[0] << 16) | (d[1] << 8) | d[2]).toString(16).slice(1);
}"""


@pytest.fixture
def watched(browser):
    pages = []

    def open_page(viewport=(1280, 800), **kwargs):
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **kwargs)
        page = WatchedPage(context.new_page())
        pages.append((context, page))
        return page

    yield open_page
    problems = [p for _, page in pages for p in page.problems]
    for context, page in pages:
        if not page.closed:
            context.close()
    assert not problems, "problems in the browser:\n" + "\n".join(problems)
