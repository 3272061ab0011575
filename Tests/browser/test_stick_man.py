"""Stick Man in a real browser: every button changes the layered drawing and the line he says,
keys do what the buttons do, the pose lives in the URL, and reduced motion holds still."""
import pytest

from axe import assert_accessible

BUTTONS = ["read", "happy", "sad", "hat", "fly", "pendulum"]
KEYS = {"read": "r", "happy": "h", "sad": "s", "hat": "t", "fly": "f", "pendulum": "p"}

# Which variant each layer shows: the drawing, read from the DOM.
DRAWING = """() => Object.fromEntries([...document.querySelectorAll('.stick-figure [data-layer]')]
  .filter(layer => layer.querySelector(':scope > [data-variant]')).map(
  layer => [layer.dataset.layer, [...layer.children].filter(v => v.getAttribute('display') !== 'none')
    .map(v => v.dataset.variant).join('+')]))"""


def drawing(page):
    return page.page.evaluate(DRAWING)


def speech(page):
    return page.page.locator('[data-readout="speech"]').inner_text()


def open_stick_man(watched, url, **kwargs):
    page = watched(**kwargs)
    page.page.goto(url)
    page.page.wait_for_function("() => window.playfield?.stickMan")
    return page


def settle(page):
    """Waits until the frame animation has finished and the pose rests."""
    page.page.wait_for_function(
        "() => document.querySelector('.stick-figure').dataset.playing !== 'true'", timeout=10_000)


def test_every_button_changes_the_drawing_and_the_line(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man")
    assert_accessible(page)
    before, said = drawing(page), speech(page)
    assert all(v.count("+") == 0 and v for v in before.values()), f"one variant per layer: {before}"
    for name in BUTTONS:
        page.page.locator(f'[data-action="{name}"]').click()
        settle(page)
        now, line = drawing(page), speech(page)
        assert now != before, f"{name} left the drawing as it was: {now}"
        assert line != said and line, f"{name} left the line as it was: {line!r}"
        assert all(v and "+" not in v for v in now.values()), f"{name}: one variant per layer: {now}"
        before, said = now, line
    page.screenshot("stick-man")


def test_buttons_swap_the_layers_the_seed_names(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man")
    checks = {
        "read": {"news": "paper", "left-arm": "paper", "right-arm": "paper"},
        "happy": {"mouth": "happy"},
        "sad": {"mouth": "sad"},
        "fly": {"eyes": "up"},
        "pendulum": {"left-arm": "horizontal", "right-arm": "hold"},
    }
    for name, layers in checks.items():
        page.page.locator(f'[data-action="{name}"]').click()
        settle(page)
        shown = drawing(page)
        assert {k: shown[k] for k in layers} == layers, name
        if name == "pendulum":
            assert shown["pendulum"] != "none"
        else:
            assert shown["pendulum"] == "none", f"{name} clears the pendulum layer"
    hat = page.page.locator('[data-action="hat"]')
    hat.click()
    assert drawing(page)["hat"] == "on" and hat.get_attribute("aria-pressed") == "true"
    hat.click()
    assert drawing(page)["hat"] == "none" and hat.get_attribute("aria-pressed") == "false"
    assert speech(page) == "Hat off. Nice and cool."


def test_an_animation_plays_frames_on_a_layer(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man")
    page.page.evaluate("""() => {
      window.seen = new Set();
      const layer = document.querySelector('[data-layer="pendulum"]');
      new MutationObserver(() => {
        const shown = [...layer.children].find(v => v.getAttribute('display') !== 'none');
        window.seen.add(shown.dataset.variant);
      }).observe(layer, { subtree: true, attributes: true });
    }""")
    page.page.keyboard.press("p")
    page.page.wait_for_function("() => window.seen.size >= 5", timeout=5_000)
    assert page.page.evaluate("() => [...window.seen].sort()") == [
        "left1", "left2", "middle", "right1", "right2"]


def test_keys_press_the_buttons_and_the_pose_is_in_the_url(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man")
    for name, key in KEYS.items():
        page.page.keyboard.press(key)
        if name != "hat":
            assert page.page.evaluate("() => window.playfield.stickMan.state().pose") == name
    settle(page)
    assert page.page.evaluate("() => location.search") == "?pose=pendulum&hat=on"
    shared = drawing(page)
    other = open_stick_man(watched, page.page.url)
    settle(other)
    assert drawing(other) == shared
    assert speech(other) == "Check out my pendulum…"


def test_bad_pose_in_the_url_falls_back_to_the_start_and_says_so(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man?pose=moonwalk&hat=maybe")
    assert page.page.evaluate("() => window.playfield.stickMan.state()") == {"pose": None, "hat": False}
    assert drawing(page)["hat"] == "none"
    notice = page.page.locator(".demo-notice")
    assert notice.is_visible()
    assert "pose “moonwalk” is not one of read, happy, sad, fly, pendulum" in notice.inner_text()
    assert "hat “maybe” is not on or off" in notice.inner_text()
    assert_accessible(page)
    # What the link got right still counts; an embed keeps its own options in its address.
    page = open_stick_man(watched, playfield.url + "/embed/stick-man?theme=light&pose=bogus&hat=on")
    assert page.page.evaluate("() => window.playfield.stickMan.state()") == {"pose": None, "hat": True}
    assert "pose “bogus”" in page.page.locator(".demo-notice").inner_text()
    page.page.keyboard.press("f")
    assert page.page.evaluate("() => location.search") == "?theme=light&pose=fly&hat=on"


def test_reduced_motion_shows_one_still_frame(playfield, watched):
    page = open_stick_man(watched, playfield.url + "/demos/stick-man", reduced_motion="reduce")
    page.page.locator('[data-action="pendulum"]').click()
    first = drawing(page)
    assert first["pendulum"] != "none"
    page.page.wait_for_timeout(400)
    assert drawing(page) == first, "nothing moves with reduced motion"
    assert page.page.locator(".stick-figure").get_attribute("data-playing") != "true"


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_embed_fits_its_frame(playfield, watched, size):
    page = open_stick_man(watched, playfield.url + "/embed/stick-man?pose=read", viewport=size)
    settle(page)
    box = page.page.locator(".stick-figure").bounding_box()
    assert box["width"] > 100 and box["y"] + box["height"] <= size[1]
    assert page.page.locator(".site-header").count() == 0
    assert_accessible(page)
    page.screenshot(f"stick-man-embed-{size[0]}")
