"""The gallery in a real browser."""
import json
import urllib.request


# The previews in view: each has its page loaded (`data-src` becomes `src` once in view), a
# frame received and drawn (two animation frames of its window after the first frame).
PREVIEWS_IN_VIEW = """() => [...document.querySelectorAll('.card-preview iframe')]
  .filter(f => f.getBoundingClientRect().top < innerHeight)"""
PREVIEWS_HAVE_FRAMES = f"""() => ({PREVIEWS_IN_VIEW})().every(f =>
  f.src && f.contentWindow?.playfield?.frames?.newest)"""
PREVIEWS_DRAWN = f"""() => Promise.all(({PREVIEWS_IN_VIEW})().map(f => new Promise(resolve =>
  f.contentWindow.requestAnimationFrame(() => f.contentWindow.requestAnimationFrame(resolve)))))"""


def wait_for_previews(page, seconds=30):
    """Waits, at most `seconds` in all, until every live preview in view has drawn a frame:
    a screenshot taken before shows black boxes."""
    assert page.evaluate(f"() => ({PREVIEWS_IN_VIEW})().length") >= 4
    page.wait_for_function(PREVIEWS_HAVE_FRAMES, timeout=seconds * 1000)
    page.evaluate(PREVIEWS_DRAWN)


def test_gallery_loads_cleanly(playfield, watched):
    page = watched()
    response = page.page.goto(playfield.url + "/")
    assert response.status == 200
    assert page.page.title().startswith("Playfield")
    assert page.page.locator("h1").inner_text() == "Playfield"
    wait_for_previews(page.page)
    page.screenshot("gallery")


def test_gallery_links_lead_to_demos(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/")
    links = page.page.locator(".gallery a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    for href in links:
        assert href.startswith("/demos/")
        response = page.page.request.get(playfield.url + href)
        assert response.status == 200, href


def test_not_found_page_helps(playfield, watched):
    page = watched()
    response = page.page.goto(playfield.url + "/no/such/page")
    assert response.status == 404
    assert "gallery" in page.page.content()
    page.allow(lambda p: "404" in p)
    page.screenshot("not-found")


def session_demos(playfield):
    """The names of the demos that run a live session (the simulations and the paintbrush)."""
    import json
    import urllib.request
    body = json.loads(urllib.request.urlopen(playfield.url + "/api/demos").read())
    return [demo["name"] for demo in body["demos"] if demo["session"]]


def test_gallery_cards_show_each_demo_live(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/")
    frames = page.page.locator(".card-preview iframe")
    # NB: one preview per simulation; page demos (Mandelbrot, Stick Man...) show an icon now.
    body = json.loads(urllib.request.urlopen(playfield.url + "/api/demos").read())
    simulations = [demo for demo in body["demos"] if demo["group"] == "simulations"]
    assert page.page.locator('.shelf[data-group="simulations"] .card').count() == len(simulations) >= 4
    assert frames.count() == len(session_demos(playfield))
    # Each simulation preview watches a showcase session whose ticks advance.
    for index in range(4):
        frame = page.page.frame_locator(".card-preview iframe").nth(index)
        frame.locator("canvas, .cloud").first.wait_for()
    handle = page.page.locator(".card-preview iframe").first.element_handle().content_frame()
    handle.wait_for_function("() => (window.playfield?.frames?.newest?.tick ?? 0) > 0")
    first = handle.evaluate("() => window.playfield.frames.newest.tick")
    handle.wait_for_function(f"() => window.playfield.frames.newest.tick > {first + 10}")
    assert handle.evaluate("() => window.playfield.client.controls") is False
    page.screenshot("gallery-live")


def test_showcase_sessions_stay_out_of_listings(playfield):
    import json
    import urllib.request
    urllib.request.urlopen(playfield.url + "/").read()
    listing = json.loads(urllib.request.urlopen(playfield.url + "/api/sessions").read())
    shown = {s["id"] for s in listing["sessions"]}
    html = urllib.request.urlopen(playfield.url + "/").read().decode()
    import re
    previews = set(re.findall(r"session=([A-Za-z0-9_-]{22})", html))
    assert len(previews) == len(session_demos(playfield)) and not (previews & shown)
