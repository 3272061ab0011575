"""Pages, their headers, oEmbed and health, over HTTP."""
import urllib.parse
import xml.etree.ElementTree

import pytest

from helpers import request



def demo_names(playfield):
    """The server's one list of demos (`Demo.all`), as `/api/demos` gives it."""
    status, headers, body = request(playfield.url + "/api/demos")
    assert status == 200 and headers["Content-Type"] == "application/json"
    return [demo["name"] for demo in body["demos"]]


def test_demo_list_names_each_demo_once_with_a_group(playfield):
    _, _, body = request(playfield.url + "/api/demos")
    names = [demo["name"] for demo in body["demos"]]
    assert len(names) == len(set(names)) and {"maze", "mandelbrot"} <= set(names)
    groups = {group["name"] for group in body["groups"]}
    assert all(demo["group"] in groups for demo in body["demos"])
    assert {demo["name"]: demo["session"] for demo in body["demos"]}["mandelbrot"] is False


def test_gallery_lists_every_demo_and_only_those(playfield):
    status, _, html = request(playfield.url + "/")
    text = html.decode()
    assert status == 200
    names = demo_names(playfield)
    for name in names:
        assert f'href="/demos/{name}"' in text
    assert text.count('class="card"') == len(names)


def test_site_pages_carry_the_security_headers(playfield):
    for path in ["/", "/sessions"] + [f"/demos/{name}" for name in demo_names(playfield)]:
        status, headers, _ = request(playfield.url + path)
        assert status == 200, path
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "strict-origin"
        policy = headers["Content-Security-Policy"]
        assert "frame-ancestors 'self'" in policy and "script-src 'self'" in policy


def test_embed_pages_may_be_framed_by_anyone(playfield):
    for name in demo_names(playfield):
        status, headers, html = request(f"{playfield.url}/embed/{name}")
        assert status == 200, name
        assert "frame-ancestors * http: https:" in headers["Content-Security-Policy"]
        assert "X-Frame-Options" not in headers
        assert b'class="site-header"' not in html


def test_oembed_describes_a_demo_page(playfield):
    page = f"{playfield.url}/demos/maze?session=abc"
    status, _, answer = request(f"{playfield.url}/oembed?url={urllib.parse.quote(page, safe='')}&maxwidth=300")
    assert status == 200
    assert answer["type"] == "rich" and answer["version"] == "1.0" and answer["width"] == 300
    assert f'src="{playfield.url}/embed/maze?session=abc"' in answer["html"]
    status, _, html = request(playfield.url + "/demos/maze")
    assert b'type="application/json+oembed"' in html
    assert b'type="text/xml+oembed"' in html


def test_oembed_answers_xml_too(playfield):
    page = urllib.parse.quote(f"{playfield.url}/demos/maze", safe="")
    status, headers, answer = request(f"{playfield.url}/oembed?url={page}&format=xml&maxwidth=400&maxheight=300")
    assert status == 200 and headers["Content-Type"] == "text/xml; charset=utf-8"
    root = xml.etree.ElementTree.fromstring(answer)
    assert root.tag == "oembed" and root.findtext("type") == "rich"
    assert (int(root.findtext("width")), int(root.findtext("height"))) == (266, 300)
    assert f'src="{playfield.url}/embed/maze"' in root.findtext("html")


@pytest.mark.parametrize("query, expected", [
    ("url=http%3A%2F%2Fexample.com%2F", 404),
    ("url=http%3A%2F%2Fh%2Fdemos%2Fnope", 404),
    ("", 404),
    ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&format=yaml", 501),
    # NB: only this server's own pages are vouched for (HOST: the address asked).
    ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&maxwidth=0", 404),
    ("url=http%3A%2F%2FHOST%2Fdemos%2Fmaze&maxwidth=0", 400),
    ("url=http%3A%2F%2FHOST%2Fdemos%2Fmaze&maxheight=tall", 400),
    ("url=http%3A%2F%2FHOST%2Fdemos%2Fmaze&maxwidth=300&maxwidth=200", 400),
])
def test_oembed_refusals(playfield, query, expected):
    query = query.replace("HOST", playfield.url[len("http://"):].replace(":", "%3A"))
    status, headers, _ = request(f"{playfield.url}/oembed?{query}")
    assert status == expected
    assert headers["Access-Control-Allow-Origin"] == "*"


def test_health_is_json(playfield):
    status, headers, body = request(playfield.url + "/healthz")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert body["status"] in ("ok", "degraded")
    assert set(body["tickLatenessMs"]) == {"p50", "p99", "max"}


def test_unknown_demo_is_a_helpful_404(playfield):
    status, _, html = request(playfield.url + "/demos/spaceships", headers={"Accept": "text/html"})
    assert status == 404 and b"the gallery" in html
