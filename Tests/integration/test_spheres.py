"""The Apollonian packing service over real HTTP: /api/spheres/RADIUS/LEVEL in JSON and in the
compact binary form, checked for the seed's counts and for geometry (inside the outer sphere, no
overlaps, every new sphere tangent to the four older ones it fills the gap between)."""
import gzip
import itertools
import json
import math
import struct
import urllib.request
from collections import defaultdict

import pytest

from helpers import request

SEED_COUNTS = [5, 10, 30, 90, 300, 990, 3330, 11160, 37530]


def fetch(server, path, headers=None):
    req = urllib.request.Request(server.url + path, headers=headers or {})
    with urllib.request.urlopen(req, timeout=120) as response:
        return response.status, response.headers, response.read()


def spheres_json(server, path):
    status, head, body = fetch(server, path)
    assert status == 200 and head["Content-Type"] == "application/json"
    return json.loads(body)


def read_binary(body):
    """Decodes the compact form: header, then n x (x, y, z, r) float32, then n levels."""
    magic, count, radius, version = struct.unpack_from("<4sIfI", body, 0)
    assert magic == b"PFSP" and version == 1
    assert len(body) == 16 + 17 * count
    floats = struct.unpack_from(f"<{4 * count}f", body, 16)
    levels = body[16 + 16 * count:]
    return radius, [(*floats[4 * i:4 * i + 4], levels[i]) for i in range(count)]


def candidate_pairs(spheres, cell=0.04):
    """Pairs of spheres whose bounding boxes share a grid cell (every touching pair is one)."""
    grid = defaultdict(list)
    for index, (x, y, z, r, _) in enumerate(spheres):
        if r <= 0:
            continue
        reach = r + 1e-6
        ranges = [range(math.floor((c - reach) / cell), math.floor((c + reach) / cell) + 1) for c in (x, y, z)]
        for key in itertools.product(*ranges):
            grid[key].append(index)
    pairs = set()
    for members in grid.values():
        for i, j in itertools.combinations(members, 2):
            pairs.add((i, j) if i < j else (j, i))
    return pairs


def check_geometry(spheres, radius=1.0):
    """Inside the outer sphere, no two overlapping, and each sphere of level >= 2 tangent (to
    1e-9 relative) to exactly four spheres of lower levels, the outer one included."""
    outer = spheres[0]
    assert outer[:4] == (0, 0, 0, -radius) and outer[4] == 0
    tangents = defaultdict(int)
    for x, y, z, r, level in spheres[1:]:
        assert r > 0 and level >= 1
        assert math.sqrt(x * x + y * y + z * z) + r <= radius * (1 + 1e-12)
        if abs(math.sqrt(x * x + y * y + z * z) - (radius - r)) <= 1e-9 * (radius - r):
            tangents[(x, y, z, r)] += 1  # touches the outer sphere from inside
    for i, j in candidate_pairs(spheres):
        a, b = spheres[i], spheres[j]
        d = math.dist(a[:3], b[:3])
        touching = a[3] + b[3]
        assert d >= touching * (1 - 1e-9), f"spheres {i} and {j} overlap"
        if abs(d - touching) <= 1e-9 * touching:
            younger, older = (a, b) if a[4] > b[4] else (b, a)
            if younger[4] > older[4]:
                tangents[younger[:4]] += 1
    for sphere in spheres[1:]:
        if sphere[4] >= 2:
            assert tangents[sphere[:4]] == 4, f"sphere {sphere} touches {tangents[sphere[:4]]} older ones"


def test_the_seed_url_gives_11160_spheres_that_pack(playfield):
    spheres = spheres_json(playfield, "/api/spheres/1/7")
    assert len(spheres) == 11160
    assert all(list(s) == ["X", "Y", "Z", "R", "L"] for s in spheres)
    rows = [(s["X"], s["Y"], s["Z"], s["R"], s["L"]) for s in spheres]
    assert max(row[4] for row in rows) == 8
    check_geometry(rows)


@pytest.mark.parametrize("level", range(0, 7))
def test_counts_match_the_seed(playfield, level):
    assert len(spheres_json(playfield, f"/api/spheres/1/{level}")) == SEED_COUNTS[level]


def test_level_8_and_a_radius_scale_everything(playfield):
    spheres = spheres_json(playfield, "/api/spheres/2.5/8")
    assert len(spheres) == 37530
    assert spheres[0] == {"X": 0, "Y": 0, "Z": 0, "R": -2.5, "L": 0}
    assert all(math.dist((0, 0, 0), (s["X"], s["Y"], s["Z"])) + s["R"] <= 2.5 * (1 + 1e-12) for s in spheres[1:])


def test_level_10_in_both_forms(playfield):
    status, head, body = fetch(playfield, "/api/spheres/1/10", {"Accept-Encoding": "gzip"})
    assert status == 200 and head["Content-Encoding"] == "gzip"
    spheres = json.loads(gzip.decompress(body))
    assert len(spheres) == 383892
    status, head, body = fetch(playfield, "/api/spheres/1/10", {"Accept": "application/octet-stream"})
    assert status == 200 and head["Content-Type"] == "application/octet-stream"
    radius, packed = read_binary(body)
    assert radius == 1 and len(packed) == 383892
    for row, sphere in zip(packed, spheres):
        assert row[4] == sphere["L"]
        for value, key in zip(row[:4], "XYZR"):
            assert value == struct.unpack("<f", struct.pack("<f", sphere[key]))[0]
    assert fetch(playfield, "/api/spheres/1/10.bin")[2] == body
    _, head, zipped = fetch(playfield, "/api/spheres/1/10.bin", {"Accept-Encoding": "gzip"})
    assert head["Content-Encoding"] == "gzip" and gzip.decompress(zipped) == body
    assert min(s["R"] for s in spheres[1:]) >= 0.001


def test_the_surface_shell_is_the_seed_filter(playfield):
    every = spheres_json(playfield, "/api/spheres/1/6")
    shell = spheres_json(playfield, "/api/spheres/1/6?surface=1")
    expected = [s for s in every if math.dist((0, 0, 0), (s["X"], s["Y"], s["Z"])) + s["R"] > 0.99]
    assert shell == expected and 0 < len(shell) < len(every)
    _, packed = read_binary(fetch(playfield, "/api/spheres/1/6.bin?surface=1")[2])
    assert len(packed) == len(shell)


def test_etags_answer_304_and_gzip_matches_the_plain_body(playfield):
    _, head, plain = fetch(playfield, "/api/spheres/1/5")
    _, zipped_head, zipped = fetch(playfield, "/api/spheres/1/5", {"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped) == plain and zipped_head["ETag"] != head["ETag"]
    status, _, body = request(playfield.url + "/api/spheres/1/5", headers={"If-None-Match": head["ETag"]})
    assert status == 304 and not body
    status, head_only, body = request(playfield.url + "/api/spheres/1/5", method="HEAD")
    assert status == 200 and not body
    assert head_only["ETag"] == head["ETag"] and int(head_only["Content-Length"]) == len(plain)


@pytest.mark.parametrize("path, field", [
    ("/api/spheres/0/7", "radius"), ("/api/spheres/-1/7", "radius"), ("/api/spheres/nan/7", "radius"),
    ("/api/spheres/1/11", "level"), ("/api/spheres/1/-1", "level"), ("/api/spheres/1/seven", "level"),
    ("/api/spheres/1/7?surface=maybe", "surface"),
])
def test_bad_input_gets_400_naming_the_field(playfield, path, field):
    status, _, body = request(playfield.url + path)
    assert status == 400 and body["field"] == field and field in body["error"]
