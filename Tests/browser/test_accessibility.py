"""Every page passes axe-core's WCAG 2.1 A/AA rules, in the site layout and embedded."""
import json
import urllib.request

import pytest

from axe import assert_accessible


def demo_names(url):
    html = urllib.request.urlopen(url + "/").read().decode()
    import re
    return sorted(set(re.findall(r'href="/demos/([a-z0-9-]+)"', html)))


def test_every_demo_is_listed(playfield):
    assert len(demo_names(playfield.url)) >= 5


@pytest.mark.parametrize("path", ["/", "/sessions", "/no/such/page"])
def test_site_pages_are_accessible(playfield, watched, path):
    page = watched()
    page.page.goto(playfield.url + path)
    page.page.wait_for_load_state("networkidle")
    assert_accessible(page)
    page.allow(lambda p: "404" in p)


def test_every_demo_page_is_accessible(playfield, watched):
    failures = []
    for name in demo_names(playfield.url):
        for prefix in ("/demos/", "/embed/"):
            page = watched()
            page.page.goto(playfield.url + prefix + name)
            page.page.wait_for_load_state("networkidle")
            try:
                assert_accessible(page)
            except AssertionError as error:
                failures.append(f"{prefix}{name}: {error}")
            page.page.context.close()
    assert not failures, "\n\n".join(failures)


def test_replay_page_is_accessible(playfield, watched):
    request = urllib.request.Request(
        playfield.url + "/api/sessions", method="POST",
        data=json.dumps({"kind": "bouncing-balls", "config": {}}).encode(),
        headers={"Content-Type": "application/json"})
    created = json.loads(urllib.request.urlopen(request).read())
    page = watched()
    page.page.goto(playfield.url + f"/sessions/{created['id']}/replay")
    page.page.wait_for_load_state("networkidle")
    assert_accessible(page)
