"""The public folder every robustness target serves: one file per content type, a 4 KiB blob
for ranges, a folder, hidden files, and symbolic links that point out of the root at a secret."""
import os
import pathlib
import struct
import zlib

SECRET = b"PLAYFIELD-SECRET-7f3c9e: this file lies outside the public root\n"


def _png():
    """A valid 1x1 PNG."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00\xff")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _text(title, size):
    line = f"{title}: the quick brown fox jumps over the lazy dog. " * 4 + "\n"
    return (line * (size // len(line) + 1))[:size].encode()


BLOB = bytes((i * 7 + 3) % 256 for i in range(4096))
HTML = (
    b"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page</title></head>\n"
    b"<body>\n" + _text("<p>html", 2000) + b"\n</body></html>\n")

FILES = {
    "index.html": HTML,
    "page.html": HTML,
    "style.css": _text("body { color: black } /* css", 2048),
    "app.js": _text("export const x = 1; // js", 2048),
    "data.json": b"{\"items\": [" + b",".join(b"{\"n\": %d, \"name\": \"item\"}" % i for i in range(100)) + b"]}",
    "image.png": _png(),
    "icon.svg": b"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">"
    + b"<circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"red\"/>" * 20 + b"</svg>\n",
    "favicon.ico": b"\x00\x00\x01\x00\x01\x00\x01\x01\x00\x00\x01\x00\x18\x00" + bytes(64),
    "pic.webp": b"RIFF\x24\x00\x00\x00WEBPVP8 " + bytes(40),
    "font.woff2": b"wOF2" + bytes(60),
    "module.wasm": b"\x00asm\x01\x00\x00\x00" + bytes(32),
    "notes.txt": _text("notes", 1024),
    "blob.bin": BLOB,
    "4k.html": _text("<p>four", 4096),
    "with space.txt": b"a file name with a space\n",
    "caf\u00e9.txt": b"a file name in UTF-8\n",
    "sub/inner.txt": b"inside a folder\n",
    "sub/deeper/leaf.txt": b"deeper still\n",
    ".hidden": b"a hidden file\n",
    ".git/config": b"[core]\n\tsecret = yes\n",
}


def build(public):
    """Writes the site into `public` (created if needed) and the secret beside it."""
    public = pathlib.Path(public)
    public.mkdir(parents=True, exist_ok=True)
    for name, data in FILES.items():
        path = public / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    outside = public.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_bytes(SECRET)
    (public.parent / "secret.txt").write_bytes(SECRET)
    links = {
        "link-out.txt": outside / "secret.txt",
        "link-dir-out": outside,
        "link-in.txt": public / "notes.txt",
        "link-passwd": pathlib.Path("/etc/passwd"),
    }
    for name, destination in links.items():
        link = public / name
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(destination, link)
    return public
