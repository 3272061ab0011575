"""The accelerometer and colour-picker pages speak embed protocol v1 (docs/embedding.md):
embedded from another origin through the host library, they say ready, answer get-state, take
an input and report it, capture their drawing as a PNG, and refuse what they do not take."""
import base64

import pytest

from axe import assert_accessible
from demo_pages import host_site
from test_embedding import call, colours, decode_png, heard, host_page, wait_heard

FRAMES = {"accelerometer": ("accelerometer", {}, 400, 300), "color_picker": ("color-picker", {}, 400, 300)}


def png(shot):
    assert shot["image"].startswith("data:image/png;base64,")
    width, height, rows = decode_png(base64.b64decode(shot["image"].split(",", 1)[1]))
    assert width > 0 and height > 0
    return rows


def test_accelerometer_speaks_the_protocol(playfield, watched):
    page = watched(viewport=(1000, 1200))
    p = page.page
    with host_site(host_page(playfield, FRAMES)) as url:
        p.goto(url)
        wait_heard(p, "accelerometer", "ready")
        ready = heard(p, "accelerometer", "ready")[0]
        assert ready["demo"] == "accelerometer" and ready["inputs"] == ["acceleration"]
        assert {"reset", "input", "capture", "get-state"} <= set(ready["commands"])
        state = call(p, "accelerometer", "getState")["result"]
        assert (state["x"], state["y"], state["z"]) == (0, 0, -1)

        assert call(p, "accelerometer", "send", {"type": "acceleration", "x": 0.5, "y": -1.25, "z": -1})["ok"]
        wait_heard(p, "accelerometer", "state", predicate="m.x === 0.5 && m.source === 'host'")
        state = call(p, "accelerometer", "getState")["result"]
        assert state["max"]["x"] == 0.5 and state["min"]["y"] == -1.3  # shown to one decimal
        inner = p.frame_locator("#accelerometer iframe")
        assert inner.locator('[data-readout="x"]').inner_text() == "0.5"

        assert call(p, "accelerometer", "reset")["ok"]
        wait_heard(p, "accelerometer", "event", "reset")
        state = call(p, "accelerometer", "getState")["result"]
        assert state["min"] == state["max"], "RESET starts the extremes again from the reading"

        rows = png(call(p, "accelerometer", "capture")["result"])
        assert "#ffd400" in colours(rows), "the yellow ball is in the capture"
        for request in [("send", {"type": "acceleration", "x": 9}), ("send", {"type": "acceleration", "x": "1"}),
                        ("send", {"type": "tilt", "x": 0})]:
            answer = call(p, "accelerometer", *request)
            assert not answer["ok"] and answer["code"] == "bad-field", (request, answer)
        assert call(p, "accelerometer", "play")["code"] == "unknown-command"
        assert_accessible(p.locator("#accelerometer iframe").element_handle().content_frame())


def test_colour_picker_speaks_the_protocol(playfield, watched):
    page = watched(viewport=(1000, 1200))
    p = page.page
    with host_site(host_page(playfield, FRAMES)) as url:
        p.goto(url)
        wait_heard(p, "color_picker", "ready")
        ready = heard(p, "color_picker", "ready")[0]
        assert ready["demo"] == "color-picker" and ready["events"] == ["change"]
        before = call(p, "color_picker", "getState")["result"]["value"]

        assert call(p, "color_picker", "send", {"type": "color", "value": "#3366CC"})["ok"]
        wait_heard(p, "color_picker", "event", "change", predicate="m.value === '#3366cc'")
        state = call(p, "color_picker", "getState")["result"]
        assert state["value"] == "#3366cc" and state["rgb"] == [51, 102, 204]
        inner = p.frame_locator("#color_picker iframe")
        assert inner.locator('[data-readout="hex"]').inner_text() == "#3366cc"
        assert call(p, "color_picker", "set", {"value": "#00ff00"})["ok"]
        wait_heard(p, "color_picker", "state", predicate="m.value === '#00ff00'")

        rows = png(call(p, "color_picker", "capture")["result"])
        assert len(colours(rows)) > 50, "the hue ring is in the capture"
        assert call(p, "color_picker", "reset")["ok"]
        wait_heard(p, "color_picker", "state", predicate=f"m.value === '{before}'")
        for request in [("send", {"type": "color", "value": "blue"}), ("set", {"value": "#12345"}),
                        ("set", {"hue": 3}), ("send", {"type": "paint"})]:
            answer = call(p, "color_picker", *request)
            assert not answer["ok"] and answer["code"] == "bad-field", (request, answer)
        assert_accessible(p.locator("#color_picker iframe").element_handle().content_frame())
