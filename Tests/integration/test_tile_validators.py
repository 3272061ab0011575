"""Tiles are conditional like static files (RFC 9110 §13): a matching If-None-Match gets 304
with the tile's ETag and no body, a failing If-Match gets 412, and a plain GET gets the PNG."""
from helpers import request


def test_tile_etag_304_and_412(playfield):
    url = playfield.url + "/tiles/mandelbrot/2/1/1.png"
    status, head, body = request(url)
    assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n"
    etag = head["ETag"]
    assert etag.startswith('"')
    status, again, body = request(url, headers={"If-None-Match": etag})
    assert status == 304 and not body and again["ETag"] == etag
    status, _, _ = request(url, headers={"If-None-Match": '"other"'})
    assert status == 200
    status, _, body = request(url, headers={"If-Match": '"other"'})
    assert status == 412
    assert "If-Match" in (body["error"] if isinstance(body, dict) else body.decode()), body
