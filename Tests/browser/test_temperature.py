"""Temperature in a real browser: both fields convert as you type, the slider, ranges with a
message and a picture, validation without NaN, and the value in the URL."""
import pytest

from axe import assert_accessible


def open_temperature(watched, url, **kwargs):
    page = watched(**kwargs)
    page.page.goto(url)
    page.page.wait_for_function("() => window.playfield?.temperature")
    return page


def values(page):
    return page.page.locator("#temp-f").input_value(), page.page.locator("#temp-c").input_value()


def shown_text(page):
    return page.page.locator(".demo").inner_text()


def test_typing_converts_both_ways(playfield, watched):
    page = open_temperature(watched, playfield.url + "/demos/temperature")
    assert_accessible(page)
    page.page.locator("#temp-f").fill("")
    page.page.locator("#temp-f").press_sequentially("36")
    assert values(page) == ("36", "2.2")
    assert page.page.evaluate("() => location.search") == "?f=36"
    page.page.locator("#temp-c").fill("")
    page.page.locator("#temp-c").press_sequentially("100")
    assert values(page) == ("212", "100")
    assert page.page.evaluate("() => location.search") == "?c=100"
    page.page.locator("#temp-c").fill("-40")
    assert values(page) == ("-40", "-40")
    page.screenshot("temperature")


@pytest.mark.parametrize("typed, unit, message", [
    ("abc", "f", "“abc” is not a number"),
    ("-500", "f", "below absolute zero (-459.67 °F)"),
    ("-274", "c", "below absolute zero (-273.15 °C)"),
    ("12..5", "c", "is not a number"),
    ("1e400", "f", "is not a number"),
    ("99999999", "c", "too far out"),
])
def test_bad_input_says_what_is_wrong_and_never_shows_nan(playfield, watched, typed, unit, message):
    page = open_temperature(watched, playfield.url + "/demos/temperature?f=36")
    field = page.page.locator(f"#temp-{unit}")
    field.fill(typed)
    error = page.page.locator(f'[data-error="{unit.upper()}"]').inner_text()
    assert message in error
    assert field.get_attribute("aria-invalid") == "true"
    other = "c" if unit == "f" else "f"
    assert page.page.locator(f"#temp-{other}").input_value() == ""
    assert "NaN" not in shown_text(page) and "Infinity" not in shown_text(page)
    assert page.page.locator(".temp-picture").get_attribute("data-range") == "none"
    assert page.page.evaluate("() => location.search") == "?f=36", "the URL keeps the last good value"
    assert_accessible(page)
    field.fill("50")
    assert field.get_attribute("aria-invalid") is None
    assert page.page.locator(f'[data-error="{unit.upper()}"]').inner_text() == ""


@pytest.mark.parametrize("celsius, expected", [
    ("-10", "freezing"), ("0", "freezing"), ("0.1", "cold"), ("10", "cold"), ("15", "mild"),
    ("25", "warm"), ("30", "warm"), ("38", "hot"),
])
def test_each_range_has_its_message_and_picture(playfield, watched, celsius, expected):
    page = open_temperature(watched, f"{playfield.url}/demos/temperature?c={celsius}")
    picture = page.page.locator(".temp-picture")
    assert picture.get_attribute("data-range") == expected
    shown = picture.evaluate(
        "svg => [...svg.querySelectorAll('g[data-range]')].filter(g => g.getAttribute('display') !== 'none')"
        ".map(g => g.dataset.range)")
    assert shown == [expected]
    assert page.page.locator(".temp-message").inner_text().lower().startswith(expected)


def test_the_slider_sets_both_fields(playfield, watched):
    page = open_temperature(watched, playfield.url + "/demos/temperature")
    slider = page.page.locator("#temp-slider")
    slider.focus()
    slider.fill("37")
    assert values(page) == ("98.6", "37")
    assert page.page.locator(".temp-picture").get_attribute("data-range") == "hot"
    page.page.keyboard.press("ArrowLeft")
    assert values(page) == ("97.7", "36.5")


def test_a_link_restores_the_value_and_a_bad_link_says_so(playfield, watched):
    page = open_temperature(watched, playfield.url + "/demos/temperature?f=212")
    assert values(page) == ("212", "100")
    bad = open_temperature(watched, playfield.url + "/demos/temperature?f=warm")
    assert "is not a number" in bad.page.locator('[data-error="F"]').inner_text()
    assert "NaN" not in shown_text(bad)


def test_pure_conversions(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/demos/temperature")
    result = page.page.evaluate("""async () => {
      const s = await import('/js/temperature/scale.js');
      return {
        freezing: s.formatTemperature(s.toCelsius(32)),
        body: s.formatTemperature(s.toFahrenheit(37)),
        minus: s.formatTemperature(-0.04),
        comma: s.parseTemperature(' −4,5 ', 'C').value,
        zero: s.parseTemperature('-459.67', 'F').value,
        empty: s.parseTemperature('  ', 'F').empty,
        bounds: s.ranges.map(r => [r.name, s.formatTemperature(s.toFahrenheit(r.upTo))]),
      };
    }""")
    assert result == {
        "freezing": "0", "body": "98.6", "minus": "0", "comma": -4.5, "zero": -459.67, "empty": True,
        "bounds": [["freezing", "32"], ["cold", "50"], ["mild", "68"], ["warm", "86"], ["hot", "Infinity"]],
    }


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_embed_fits_its_frame(playfield, watched, size):
    page = open_temperature(watched, playfield.url + "/embed/temperature?c=-5", viewport=size)
    box = page.page.locator(".temp-picture").bounding_box()
    assert box["width"] > 100 and box["y"] + box["height"] <= size[1]
    assert_accessible(page)
    page.screenshot(f"temperature-embed-{size[0]}")
