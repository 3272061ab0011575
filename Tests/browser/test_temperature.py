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
    # The address holds what is shown (it reloads to the same error), and the slider no
    # temperature: neither keeps the last good value.
    assert page.page.evaluate("() => [...new URLSearchParams(location.search)]") == [[unit, typed]]
    slider = page.page.locator("#temp-slider")
    assert slider.get_attribute("data-empty") == "true"
    assert slider.get_attribute("aria-valuetext") == "no temperature"
    assert page.page.locator(".temp-mercury").get_attribute("height") == "0.0", "an empty tube"
    assert_accessible(page)
    field.fill("50")
    assert field.get_attribute("aria-invalid") is None
    assert page.page.locator(f'[data-error="{unit.upper()}"]').inner_text() == ""
    assert slider.get_attribute("data-empty") is None
    assert page.page.evaluate("() => location.search") == f"?{unit}=50"
    reloaded = open_temperature(watched, playfield.url + f"/demos/temperature?{unit}={typed}")
    assert message in reloaded.page.locator(f'[data-error="{unit.upper()}"]').inner_text()


def test_absolute_zero_round_trips_through_the_address(playfield, watched):
    page = open_temperature(watched, playfield.url + "/demos/temperature")
    page.page.locator("#temp-f").fill("-459.67")
    assert values(page) == ("-459.67", "-273.15")
    assert page.page.evaluate("() => location.search") == "?f=-459.67"
    again = open_temperature(watched, playfield.url + "/demos/temperature?f=-459.67")
    assert values(again) == ("-459.67", "-273.15")
    assert again.page.locator('[data-error="F"]').inner_text() == ""
    assert again.page.locator(".temp-picture").get_attribute("data-range") == "freezing"
    # The other way: -273.15 °C shows -459.67 °F, not -459.7 (which reads back as too cold).
    again.page.locator("#temp-c").fill("-273.15")
    assert values(again) == ("-459.67", "-273.15")
    assert again.page.evaluate("() => location.search") == "?c=-273.15"
    # An embed's own options stay in its address.
    embed = open_temperature(watched, playfield.url + "/embed/temperature?theme=light&c=5")
    embed.page.locator("#temp-c").fill("7.25")
    assert embed.page.evaluate("() => location.search") == "?theme=light&c=7.25"


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
