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


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


class WatchedPage:
    """A page plus the problems seen on it."""

    def __init__(self, page):
        self.page = page
        self.problems = []
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))

    def screenshot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def allow(self, predicate):
        """Forgets problems the test expects (e.g. a deliberate 404)."""
        self.problems = [p for p in self.problems if not predicate(p)]


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
    for context, _ in pages:
        context.close()
    assert not problems, "problems in the browser:\n" + "\n".join(problems)
