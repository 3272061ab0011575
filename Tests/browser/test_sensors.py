"""The accelerometer (synthetic devicemotion, the tilt pad and the keys move its readouts and
ball; RESET clears the extremes) and the <playfield-color-picker> component (pointer and
keyboard change its value, it fires input and change, it works in a form, and passes axe)."""
import pytest

from axe import assert_accessible

BALL = "#ffd400"


def readouts(p, names):
    return {name: p.locator(f'[data-readout="{name}"]').inner_text() for name in names}


def open_accelerometer(watched, server, **kwargs):
    page = watched(**kwargs)
    page.page.goto(server.url + "/demos/accelerometer")
    page.page.wait_for_function("() => window.playfield?.accelerometer?.ball")
    return page


def motion(p, x, y, z):
    """Dispatches a devicemotion event with accelerationIncludingGravity in m/s²."""
    p.evaluate(
        """([x, y, z]) => window.dispatchEvent(new DeviceMotionEvent("devicemotion", {
          accelerationIncludingGravity: {x, y, z}, interval: 16}))""", [x, y, z])


def ball(p):
    p.wait_for_timeout(100)  # two animation frames draw the newest reading
    return p.evaluate("() => window.playfield.accelerometer.ball")


def test_devicemotion_moves_the_readouts_and_the_ball(playfield, watched):
    page = open_accelerometer(watched, playfield)
    p = page.page
    assert readouts(p, ["x", "y", "z", "magnitude", "source"]) == {
        "x": "0.0", "y": "0.0", "z": "-1.0", "magnitude": "1.0", "source": "level"}
    centre = ball(p)
    assert page.pixel(".accel-grid", centre["x"], centre["y"]) == BALL

    # The right edge down by 30 degrees: gravity along +x is half a g; the sensor reports the
    # opposite (the table pushing up), in m/s².
    motion(p, -4.903325, 0, 8.4927)
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '0.5'""")
    assert readouts(p, ["x", "y", "z", "magnitude", "x-max", "x-min", "source"]) == {
        "x": "0.5", "y": "0.0", "z": "-0.9", "magnitude": "1.0", "x-max": "0.5", "x-min": "0.0",
        "source": "sensor"}
    moved = ball(p)
    assert moved["x"] > centre["x"] + 10 and abs(moved["y"] - centre["y"]) < 1
    assert page.pixel(".accel-grid", moved["x"], moved["y"]) == BALL
    assert page.pixel(".accel-grid", centre["x"], centre["y"]) != BALL

    # Top edge down: y positive, the ball goes up the grid.
    motion(p, 0, -9.80665, 0)
    p.wait_for_function("""() => document.querySelector('[data-readout="y"]').textContent === '1.0'""")
    assert ball(p)["y"] < centre["y"] - 10
    assert readouts(p, ["x-max", "y-max", "z-max", "z-min"]) == {
        "x-max": "0.5", "y-max": "1.0", "z-max": "0.0", "z-min": "-1.0"}

    # RESET: the extremes start again from the current reading.
    p.click('[data-action="reset"]')
    p.wait_for_function("""() => document.querySelector('[data-readout="x-max"]').textContent === '0.0'""")
    assert readouts(p, ["x-min", "x-max", "y-min", "y-max", "z-min", "z-max"]) == {
        "x-min": "0.0", "x-max": "0.0", "y-min": "1.0", "y-max": "1.0", "z-min": "0.0",
        "z-max": "0.0"}
    assert_accessible(page)


def test_tilt_pad_and_keys_move_the_readouts_and_win_over_the_sensor(playfield, watched):
    page = open_accelerometer(watched, playfield)
    p = page.page
    motion(p, 0, 0, -9.80665)  # face down: gravity along +z
    p.wait_for_function("""() => document.querySelector('[data-readout="z"]').textContent === '1.0'""")
    centre = p.evaluate("() => { const c = document.querySelector('.accel-grid'); return c.clientWidth / 2; }")

    pad = p.locator(".tilt-pad").bounding_box()
    p.mouse.move(pad["x"] + pad["width"] / 2, pad["y"] + pad["height"] / 2)
    p.mouse.down()
    p.mouse.move(pad["x"] + pad["width"] + 30, pad["y"] + pad["height"] / 2, steps=4)  # past the rim: 1 g
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '1.0'""")
    assert readouts(p, ["x", "y", "x-max", "source"]) == {
        "x": "1.0", "y": "0.0", "x-max": "1.0", "source": "pad"}
    assert ball(p)["x"] > centre + 0.3 * centre
    p.mouse.up()
    p.wait_for_function("""() => document.querySelector('[data-readout="source"]').textContent === 'sensor'""")

    p.keyboard.down("ArrowLeft")
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '-1.0'""")
    assert readouts(p, ["x-min", "source"]) == {"x-min": "-1.0", "source": "keys"}
    assert ball(p)["x"] < centre - 0.2 * centre
    p.keyboard.up("ArrowLeft")
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '0.0'""")


def test_accelerometer_fits_a_phone_and_embeds(playfield, watched):
    page = open_accelerometer(watched, playfield, viewport=(390, 844), has_touch=True)
    p = page.page
    width = p.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    page.screenshot("accelerometer-phone")
    embed = watched()
    embed.page.goto(playfield.url + "/embed/accelerometer")
    embed.page.wait_for_function("() => window.playfield?.accelerometer?.ball")
    assert_accessible(embed)


@pytest.mark.parametrize("answer, says", [
    ("granted", "No motion sensor answered (a desktop has none): tilt with the pad or the arrow keys."),
    ("denied", "The motion sensor was not allowed: tilt with the pad or the arrow keys."),
])
def test_the_motion_sensor_button_says_what_came_of_it(playfield, watched, answer, says):
    # A desktop: the permission is asked for (here answered by a stand-in), and no reading comes.
    page = watched()
    p = page.page
    p.add_init_script(f"DeviceMotionEvent.requestPermission = async () => '{answer}';")
    p.goto(playfield.url + "/demos/accelerometer")
    p.wait_for_function("() => window.playfield?.accelerometer?.ball")
    p.locator(".motion-button").click()
    status = p.locator(".motion-status")
    p.wait_for_function("([text]) => document.querySelector('.motion-status')?.textContent === text",
                        arg=[says], timeout=10_000)
    assert status.get_attribute("role") == "status" and p.locator(".motion-button").count() == 0
    if answer == "granted":
        motion(p, 0, 0, -9.80665)
        p.wait_for_function("() => document.querySelector('.motion-status').textContent === 'Motion sensor on.'")
    assert_accessible(page)


def open_picker(watched, server, **kwargs):
    page = watched(**kwargs)
    page.page.goto(server.url + "/demos/color-picker")
    page.page.wait_for_function("() => document.querySelector('[data-readout=hex]').textContent === '#3399ff'")
    return page


def picker_point(p, where):
    """A point on the picker in page px: the ring's top, or a corner of the box."""
    return p.evaluate(
        """(where) => {
          const picker = document.querySelector('playfield-color-picker');
          const box = picker.getBoundingClientRect();
          const {centre, outer, inner, half} = picker.geometry;
          const points = {
            'ring-top': [centre, centre - (outer + inner) / 2],
            'ring-right': [centre + (outer + inner) / 2, centre],
            'box-centre': [centre, centre],
            'past-top-right': [centre + half + 3, centre - half - 3],
            'box-bottom-left': [centre - half + 1, centre + half - 1],
          };
          const [x, y] = points[where];
          return {x: box.left + x, y: box.top + y};
        }""", where)


def drag(p, start, end):
    a = picker_point(p, start)
    b = picker_point(p, end)
    p.mouse.move(a["x"], a["y"])
    p.mouse.down()
    p.mouse.move(b["x"], b["y"], steps=6)
    p.mouse.up()


def events(p):
    return p.evaluate("() => ({...window.playfield.events})")


def test_colour_picker_pointer_changes_value_and_fires_input_then_change(playfield, watched):
    page = open_picker(watched, playfield)
    p = page.page
    assert p.evaluate("() => document.querySelector('playfield-color-picker').value") == "#3399ff"
    # The box: dragged past its top-right corner, saturation and brightness are full.
    drag(p, "box-centre", "past-top-right")
    assert p.evaluate("() => document.querySelector('playfield-color-picker').value") == "#0080ff"
    counted = events(p)
    assert counted["input"] >= 3 and counted["change"] == 1
    assert readouts(p, ["hex", "rgb", "hsv"]) == {
        "hex": "#0080ff", "rgb": "0, 128, 255", "hsv": "210°, 100%, 100%"}
    # The ring: its top is red, its right a yellow-green (hue 90).
    drag(p, "ring-right", "ring-top")
    assert p.evaluate("() => document.querySelector('playfield-color-picker').value") == "#ff0000"
    assert events(p)["change"] == 2
    swatch = p.evaluate("() => getComputedStyle(document.querySelector('.picker-swatch')).backgroundColor")
    assert swatch == "rgb(255, 0, 0)"


def test_colour_picker_keyboard_and_form(playfield, watched):
    page = open_picker(watched, playfield)
    p = page.page
    value = "() => document.querySelector('playfield-color-picker').value"
    p.keyboard.press("Tab")  # the skip of the page's links is not needed: the markers come first
    for _ in range(10):
        if p.evaluate("() => document.activeElement?.tagName") == "PLAYFIELD-COLOR-PICKER":
            break
        p.keyboard.press("Tab")
    ring = p.evaluate("() => document.activeElement.shadowRoot.activeElement.getAttribute('aria-label')")
    assert ring == "Hue"
    shadow = p.evaluate(
        """() => { const m = document.activeElement.shadowRoot.activeElement;
                   return getComputedStyle(m).boxShadow; }""")
    assert "rgb(255, 212, 0)" in shadow, "the focused marker shows a visible focus ring"
    p.keyboard.press("Home")
    assert p.evaluate(value) == "#ff3333"  # hue 0 at 80 % saturation
    p.keyboard.press("ArrowRight")
    p.keyboard.press("Shift+ArrowRight")
    hue = p.evaluate("() => document.activeElement.shadowRoot.activeElement.getAttribute('aria-valuenow')")
    assert hue == "11"
    p.keyboard.press("End")
    assert p.evaluate("() => document.querySelector('playfield-color-picker').hsvValue.h") == 359
    p.keyboard.press("Tab")
    label = p.evaluate("() => document.activeElement.shadowRoot.activeElement.getAttribute('aria-label')")
    assert label.startswith("Saturation")
    p.keyboard.press("Home")  # no saturation: white at full brightness
    assert p.evaluate(value) == "#ffffff"
    for _ in range(10):
        p.keyboard.press("ArrowDown")
    assert p.evaluate(value) == "#e6e6e6"
    p.keyboard.press("End")
    p.keyboard.press("PageDown")
    assert p.evaluate("() => document.querySelector('playfield-color-picker').hsvValue") == {
        "h": 359, "s": 1, "v": 0.8}
    counted = events(p)
    assert counted["change"] == counted["input"] == 17
    text = p.evaluate(
        "() => document.activeElement.shadowRoot.activeElement.getAttribute('aria-valuetext')")
    assert text.startswith("saturation 100 percent, brightness 80 percent")

    # In a form: it submits its value under its name, and a reset restores the default.
    current = p.evaluate(value)
    p.click('button[type="submit"]')
    assert p.locator(".picker-submitted").inner_text() == f"The form sent color={current}."
    p.click('button[type="reset"]')
    p.wait_for_function("() => document.querySelector('[data-readout=hex]').textContent === '#3399ff'")
    assert p.evaluate(value) == "#3399ff"
    # The property and the attribute both set the value; junk is ignored.
    p.evaluate("() => { document.querySelector('playfield-color-picker').value = '#00FF00'; }")
    assert p.evaluate(value) == "#00ff00"
    p.evaluate("() => document.querySelector('playfield-color-picker').setAttribute('value', '#123456')")
    assert p.evaluate(value) == "#123456"
    p.evaluate("() => { document.querySelector('playfield-color-picker').value = 'red'; }")
    assert p.evaluate(value) == "#123456"
    assert_accessible(page)
    roles = p.evaluate(
        """() => Array.from(document.querySelector('playfield-color-picker').shadowRoot
                  .querySelectorAll('[role]'), (e) => [e.getAttribute('role'), e.getAttribute('aria-label')])""")
    assert roles[0] == ["group", "Colour"] and [r for r, _ in roles[1:]] == ["slider", "slider"]


def test_colour_picker_fits_a_phone(playfield, watched):
    page = watched(viewport=(390, 844), has_touch=True)
    page.page.goto(playfield.url + "/demos/color-picker")
    page.page.wait_for_function("() => document.querySelector('[data-readout=hex]').textContent === '#3399ff'")
    assert page.page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # A tap on the box's bottom-left corner: no saturation, (almost) no brightness.
    point = picker_point(page.page, "box-bottom-left")
    page.page.touchscreen.tap(point["x"], point["y"])
    hsv = page.page.evaluate("() => document.querySelector('playfield-color-picker').hsvValue")
    assert hsv["s"] <= 0.02 and hsv["v"] <= 0.02
    page.screenshot("color-picker-phone")


def test_motion_axes_that_disagree_with_orientation_are_turned_round(playfield, watched):
    page = open_accelerometer(watched, playfield)
    p = page.page
    # Right edge down 30 degrees (gamma 30): orientation says x = 0.5. A browser whose motion
    # axes point the other way reports (4.9, 0, -8.5) m/s² instead of (-4.9, 0, 8.5).
    p.evaluate("""() => window.dispatchEvent(new DeviceOrientationEvent("deviceorientation",
                  {alpha: 0, beta: 0, gamma: 30}))""")
    motion(p, 4.903325, 0, -8.4927)
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '-0.5'""")
    for _ in range(5):
        motion(p, 4.903325, 0, -8.4927)
    p.wait_for_function("""() => document.querySelector('[data-readout="x"]').textContent === '0.5'""")
    assert readouts(p, ["z", "source"]) == {"z": "-0.9", "source": "sensor"}


RING_COLOURS = """() => {
  const picker = document.querySelector('playfield-color-picker');
  const canvas = picker.shadowRoot.querySelector('canvas');
  const {centre, outer, inner} = picker.geometry;
  const middle = (outer + inner) / 2;
  const scale = canvas.width / canvas.clientWidth;
  const context = canvas.getContext('2d');
  const at = (x, y) => Array.from(
    context.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data.slice(0, 3));
  return {
    store: [canvas.width, canvas.height], box: [canvas.clientWidth, canvas.clientHeight],
    top: at(centre, centre - middle), right: at(centre + middle, centre),
    bottom: at(centre, centre + middle), left: at(centre - middle, centre),
  };
}"""


def test_colour_picker_draws_the_whole_ring_at_every_size(playfield, watched):
    # At 300 CSS px and a device pixel ratio of 1 the canvas's width already matched a new
    # canvas's 300 x 150, so its height stayed 150 and the lower half of the ring was cut off.
    for viewport in [(1280, 800), (390, 844), (700, 700)]:
        page = open_picker(watched, playfield, viewport=viewport)
        seen = page.page.evaluate(RING_COLOURS)
        width, height = seen["box"]
        assert width == height and seen["store"][0] == seen["store"][1], (viewport, seen)
        # Red at the top, then clockwise: hue 90 (yellow-green), 180 (cyan), 270 (violet).
        assert seen["top"][0] > 200 and max(seen["top"][1:]) < 40, (viewport, seen)
        assert seen["right"][1] > 200 and seen["right"][2] < 40, (viewport, seen)
        assert seen["bottom"][0] < 40 and min(seen["bottom"][1:]) > 200, (viewport, seen)
        assert seen["left"][2] > 200 and seen["left"][1] < 40, (viewport, seen)
