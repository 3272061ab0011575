"""axe-core's WCAG 2.1 A and AA rules, run in the page (axe-playwright-python bundles axe-core).

`assert_accessible(page)` fails the test with one line per violation: the rule, its impact,
and the first few elements it found.
"""
from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()
_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}


def violations(page, context=None):
    """The violations axe finds on `page` (a WatchedPage, or a Playwright Page or Frame)."""
    # NB: a Playwright Frame also has `.page` (its top page); only a WatchedPage is unwrapped.
    target = page.page if hasattr(page, "problems") else page
    return _AXE.run(target, context=context, options=_OPTIONS).response["violations"]


def describe(found):
    lines = []
    for v in found:
        nodes = ", ".join(" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"])
                          for n in v["nodes"][:4])
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} -- {nodes}")
    return "\n".join(lines)


def assert_accessible(page, context=None):
    """Fails unless axe finds no WCAG 2.1 A/AA violation on the page (or frame)."""
    found = violations(page, context)
    assert not found, "axe-core WCAG 2.1 A/AA violations:\n" + describe(found)
