"""The gallery in a real browser."""
import json
import urllib.request

from launcher import demo_names


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
    assert page.evaluate(f"() => ({PREVIEWS_IN_VIEW})().length") >= 1
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


def test_gallery_cards_show_each_demo_live(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/")
    frames = page.page.locator(".card-preview iframe")
    # NB: one preview per session demo; page demos (Mandelbrot, Stick Man...) show an icon.
    body = json.loads(urllib.request.urlopen(playfield.url + "/api/demos").read())
    simulations = [demo for demo in body["demos"] if demo["group"] == "simulations"]
    assert page.page.locator('.shelf[data-group="simulations"] .card').count() == len(simulations)
    sessions = [demo["name"] for demo in body["demos"] if demo["session"]]
    assert frames.count() == len(sessions) >= 1
    # Each simulation's preview shows its showcase session: its stage, and a frame received.
    previews = page.page.locator('.shelf[data-group="simulations"] .card-preview iframe')
    for index in range(previews.count()):
        previews.nth(index).scroll_into_view_if_needed()  # a preview loads once in view
        previews.nth(index).content_frame.locator(".stage").first.wait_for()
        previews.nth(index).element_handle().content_frame().wait_for_function(
            "() => window.playfield?.frames?.newest", timeout=30_000)
    page.page.locator(".card-preview iframe").first.scroll_into_view_if_needed()
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
    assert len(previews) == len(demo_names(session=True)) and not (previews & shown)
