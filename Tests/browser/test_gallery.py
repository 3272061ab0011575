"""The gallery in a real browser."""


def test_gallery_loads_cleanly(playfield, watched):
    page = watched()
    response = page.page.goto(playfield.url + "/")
    assert response.status == 200
    assert page.page.title().startswith("Playfield")
    assert page.page.locator("h1").inner_text() == "Playfield"
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
