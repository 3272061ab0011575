"""Deep Mandelbrot tiles (past level 42, drawn by perturbation) against an independent
reference: sampled pixel centres iterated directly in exact fixed point with Python integers
(deep_reference.py). Colours in the seed palette must match within the tolerance the shallow
tiles' browser test uses (2 per channel); the raw counts (Z/X/Y.counts) must be equal."""
import random
import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from deep_reference import (  # noqa: E402
    decode_counts, decode_png, escape_count, seed_colour, tile_of)
from helpers import request  # noqa: E402
from launcher import Playfield  # noqa: E402

TOLERANCE = 2
SAMPLES = 48
# A bound on one deep render's answer: with both cores busy the debug build's seahorse tile
# took longer than 10 s (helpers.request's default, and the server's default --tile-wait, past
# which a render is stopped with 503).
RENDER_BOUND = 120


@pytest.fixture(scope="module")
def playfield():
    """This module's server: its renders may take up to RENDER_BOUND."""
    server = Playfield("--tile-wait", str(RENDER_BOUND))
    yield server
    assert server.alive(), "the server died during the tests:\n" + server.read_log()
    server.stop()

# (name, zoom, x, y, iterations). The seahorse tile was found by walking down the quadtree from
# level 8 at -0.7436 + 0.1318i, at each level into the child whose samples varied most.
SEAHORSE = (101, 1066044740813839062573383719173, 1150736183086349467178411482532)
I_100 = (334, *tile_of(334, 0, 1))
I_300 = (998, *tile_of(998, 0, 1))
I_330 = (1100, *tile_of(1100, 0, 1))
CASES = [
    ("seahorse valley, 1e-30", *SEAHORSE, 2000),
    ("c = i, 1e-100", *I_100, 1000),
    ("c = i, 1e-300", *I_300, 2000),
    ("c = i, 1e-331", *I_330, 2000),
]


def fetch_tile(server, zoom, x, y, iterations):
    status, headers, body = request(
        f"{server.url}/tiles/mandelbrot/{zoom}/{x}/{y}.png?iter={iterations}", timeout=RENDER_BOUND)
    assert status == 200, body
    assert headers["Content-Type"] == "image/png"
    return decode_png(body)


def fetch_counts(server, zoom, x, y, iterations):
    status, headers, body = request(
        f"{server.url}/tiles/mandelbrot/{zoom}/{x}/{y}.counts?iter={iterations}", timeout=RENDER_BOUND)
    assert status == 200, body
    assert headers["Content-Type"] == "application/octet-stream"
    cap, counts = decode_counts(body)
    assert cap == iterations
    return counts


def samples_of(zoom):
    rng = random.Random(zoom)
    return [(rng.randrange(256), rng.randrange(256)) for _ in range(SAMPLES)]


def close(actual, expected):
    return all(abs(a - e) <= TOLERANCE for a, e in zip(actual, expected))


@pytest.mark.parametrize("name,zoom,x,y,iterations", CASES, ids=[case[0] for case in CASES])
def test_deep_tiles_match_exact_iteration(playfield, name, zoom, x, y, iterations):
    pixels = fetch_tile(playfield, zoom, x, y, iterations)
    rng = random.Random(zoom)
    samples = [(rng.randrange(256), rng.randrange(256)) for _ in range(SAMPLES)]
    counts = [escape_count(zoom, x, y, i, j, iterations) for i, j in samples]
    assert len(set(counts)) > 3, f"{name}: the tile is too plain to test anything: {counts}"
    wrong = [
        (i, j, pixels[j][i], seed_colour(n, iterations))
        for (i, j), n in zip(samples, counts)
        if not close(pixels[j][i], seed_colour(n, iterations))
    ]
    assert not wrong, f"{name}: {len(wrong)} of {SAMPLES} samples differ: {wrong[:5]}"


@pytest.mark.parametrize("name,zoom,x,y,iterations", CASES, ids=[case[0] for case in CASES])
def test_deep_tile_counts_equal_exact_iteration(playfield, name, zoom, x, y, iterations):
    counts = fetch_counts(playfield, zoom, x, y, iterations)
    samples = samples_of(zoom)
    exact = [escape_count(zoom, x, y, i, j, iterations) for i, j in samples]
    assert len(set(exact)) > 3, f"{name}: the tile is too plain to test anything: {exact}"
    wrong = [(i, j, counts[j][i], n) for (i, j), n in zip(samples, exact) if counts[j][i] != n]
    assert not wrong, f"{name}: {len(wrong)} of {SAMPLES} counts differ (pixel, got, exact): {wrong[:5]}"


def test_counts_and_png_are_the_same_tile(playfield):
    zoom, x, y = I_300
    counts = fetch_counts(playfield, zoom, x, y, 2000)
    pixels = fetch_tile(playfield, zoom, x, y, 2000)
    differing = [(i, j) for j in range(256) for i in range(256)
                 if not close(pixels[j][i], seed_colour(counts[j][i], 2000))]
    assert not differing, differing[:5]


def test_counts_have_their_own_validator_and_refuse_a_palette(playfield):
    zoom, x, y = I_100
    base = f"{playfield.url}/tiles/mandelbrot/{zoom}/{x}/{y}"
    _, png_headers, _ = request(f"{base}.png?iter=1000")
    status, headers, _ = request(f"{base}.counts?iter=1000")
    assert status == 200
    assert headers["ETag"] != png_headers["ETag"] and "counts" in headers["ETag"]
    status, _, _ = request(f"{base}.counts?iter=1000", headers={"If-None-Match": headers["ETag"]})
    assert status == 304
    status, _, body = request(f"{base}.counts?iter=1000&palette=fire")
    assert status == 400
    assert "counts have no palette" in (body.decode() if isinstance(body, bytes) else str(body))
    status, _, _ = request(f"{base}.bin")
    assert status == 404


@pytest.mark.parametrize("zoom", [42, 43])
def test_switch_over_tiles_match_exact_iteration(playfield, zoom):
    x, y = tile_of(zoom, "-0.10109636384562", "0.95628651080914")
    pixels = fetch_tile(playfield, zoom, x, y, 500)
    samples = samples_of(zoom)
    counts = [escape_count(zoom, x, y, i, j, 500) for i, j in samples]
    assert len(set(counts)) > 3, counts
    wrong = [(i, j) for (i, j), n in zip(samples, counts)
             if not close(pixels[j][i], seed_colour(n, 500))]
    assert not wrong, wrong
    if zoom > 42:
        got = fetch_counts(playfield, zoom, x, y, 500)
        wrong = [(i, j, got[j][i], n) for (i, j), n in zip(samples, counts) if got[j][i] != n]
        assert not wrong, wrong


@pytest.mark.parametrize("path,status,words", [
    ("3/8/0.png", 400, "x '8' is outside 0...7 at zoom 3"),
    ("70/1180591620717411303424/0.png", 400, "outside 0..<2^70"),
    ("2001/0/0.png", 400, "deeper than level 2000"),
    ("500/-1/0.png", 404, "negative"),
    ("500/01/0.png", 404, "leading zero"),
])
def test_bad_deep_coordinates_are_refused(playfield, path, status, words):
    got, _, body = request(f"{playfield.url}/tiles/mandelbrot/{path}")
    assert got == status
    assert words in (body.decode() if isinstance(body, bytes) else str(body))
