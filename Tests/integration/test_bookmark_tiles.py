"""Issue 36, item 4: the Mandelbrot explorer's deep bookmarks show structure, judged by the
pixel statistics of the tile at each bookmark's centre, drawn with the bookmark's own cap and
palette (they were 99.9 % black with `ultra`)."""
import json
import pathlib
import re
import urllib.request

import pytest

from deep_reference import decode_png, tile_of

PLACES = pathlib.Path(__file__).resolve().parent.parent.parent / "Public" / "js" / "mandelbrot" / "places.js"


def bookmarks():
    """Every bookmark of places.js with a cap and a palette: {label, x, y, zoom, iterations, palette}."""
    found = []
    for block in re.findall(r"\{[^{}]*label:[^{}]*\}", PLACES.read_text()):
        fields = dict(re.findall(r'(\w+): ("[^"]*"|\d+)', block))
        if "palette" in fields:
            found.append({name: json.loads(value) for name, value in fields.items()})
    return found


def luminance(pixel):
    red, green, blue = pixel
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_the_deep_bookmarks_are_listed():
    labels = [place["label"] for place in bookmarks()]
    assert "The dendrite at c = i (1e-100)" in labels and "The dendrite at c = i (1e-300)" in labels


@pytest.mark.parametrize("place", bookmarks(), ids=lambda place: place["label"])
def test_a_bookmark_shows_structure(playfield, place):
    x, y = tile_of(place["zoom"], place["x"], place["y"])
    url = (f"{playfield.url}/tiles/mandelbrot/{place['zoom']}/{x}/{y}.png"
           f"?iter={place['iterations']}&palette={place['palette']}")
    with urllib.request.urlopen(url, timeout=120) as response:
        rows = decode_png(response.read())
    pixels = [pixel for row in rows for pixel in row]
    levels = [luminance(pixel) for pixel in pixels]
    mean = sum(levels) / len(levels)
    spread = (sum((level - mean) ** 2 for level in levels) / len(levels)) ** 0.5
    dark = sum(level < 20 for level in levels) / len(levels)
    # Not nearly black (ultra gave a mean of 7.6 and 99.9 % dark pixels at 1e-100)...
    assert mean >= 40 and dark <= 0.05, (mean, dark)
    # ...and not flat: the dendrite stands out (its darkest pixels well below the median).
    ordered = sorted(levels)
    assert ordered[len(levels) // 2] - ordered[len(levels) // 1000] >= 15, (ordered[len(levels) // 1000],
                                                                               ordered[len(levels) // 2])
    assert spread >= 4 and len(set(pixels)) >= 100, (spread, len(set(pixels)))
