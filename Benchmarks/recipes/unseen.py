#!/usr/bin/env python3
"""Recipe pages the importer has never seen, drawn from recipe-scrapers' own test data (issue 33).

    python3 Benchmarks/recipes/unseen.py --mirror /work/.mirror/hhursev+recipe-scrapers/repo \\
        --dev ../shared/bench/recipes/cases --out /tmp/recipes-unseen [--size 200] [--seed 33] \\
        [--tune2 200] [--tune3 200] [--tune4 1600]

The development set (`--dev`, 40 pages with a MANIFEST.tsv) was copied from that project's
`tests/test_data/HOST/NAME.testhtml` + `.json`. This script reads the rest of that test data
straight from a git mirror of the project (`--mirror`, a bare repository; `--commit`, by default
d08ddd0, the dev set's), leaves out every case named in the dev MANIFEST, sorts each remaining
case into a kind the way the dev README does, and samples a fixed, seeded set per kind in the dev
set's proportions (25 jsonld : 4 microdata : 6 site : 5 odd, scaled to `--size`). The sample is
split in two halves per kind with the same seed, TUNE (for looking at failures) and FINAL (scored
once, at the end), and written as `OUT/tune` and `OUT/final`: `HOST__NAME.html` (the page, byte for
byte) and `HOST__NAME.json` (the expected answer), plus a MANIFEST.tsv (name, kind, blob ids, the
reason for the kind), which is what `../shared/bench/recipes/score.py` reads. `--tune2 N` also
draws N more pages in the same proportions from what is left (neither dev, TUNE nor FINAL),
after TUNE and FINAL with the same generator, into `OUT/tune2`: more pages to tune on, while
TUNE and FINAL stay exactly as they were without it. `--tune3 N` (with `--tune2`) draws N
more after TUNE2 in the same way into `OUT/tune3`, none of dev, TUNE, FINAL or TUNE2: fresh pages
to check that rules fitted on TUNE and TUNE2 hold. `--tune4 N` (with `--tune3`) draws after
TUNE3 in the same way into `OUT/tune4`; the jsonld, microdata and site pools are used up by
then, so it holds only "odd" pages, N * 25/200 of them (`--tune4 1600`: 200).

    python3 ../shared/bench/recipes/score.py --cmd '.build/release/recipe-import {html} {url}' \\
        /tmp/recipes-unseen/tune

The pages are the recipe sites' content, kept by recipe-scrapers (MIT) as test fixtures: they
are written only under `--out` (keep it outside the repository) and never copied into it.

Kinds (decided from the page alone, by the standard library only):
  odd        a schema.org Recipe in JSON-LD with one of what the dev set's "odd" cases test:
             several Recipe objects on the page, HowToSection steps, a duration with days
             (`P1DT...`), a yield range ("2-4 servings"), HTML entities inside the JSON-LD
  jsonld     any other page with a schema.org Recipe in JSON-LD
  microdata  no JSON-LD Recipe; schema.org Recipe microdata (`itemtype=".../Recipe"`)
  site       neither: an hRecipe/h-recipe microformat or no recipe metadata at all
Blobs the mirror lacks (its largest files may be absent) are skipped and counted.
"""
from __future__ import annotations

import argparse
import csv
import json
import random
import re
import subprocess
import sys
from pathlib import Path

DEV_COMMIT = "d08ddd0240ee0ff73dd9d705e43077a821944716"
PROPORTIONS = {"jsonld": 25, "microdata": 4, "site": 6, "odd": 5}
LD_RE = re.compile(
    rb"<script[^>]*type\s*=\s*[\"']?application/ld\+json[\"']?[^>]*>(.*?)</script>", re.S | re.I)
MICRODATA_RE = re.compile(rb"itemtype\s*=\s*[\"']?https?://schema\.org/Recipe\b", re.I)
HRECIPE_RE = re.compile(rb"class\s*=\s*[\"'][^\"']*\bh-?recipe\b", re.I)
ENTITY_RE = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z]{2,8});", re.I)
RANGE_RE = re.compile(r"\d\s*(?:-|–|to)\s*\d")


def types(x: dict) -> list[str]:
    t = x.get("@type")
    return [str(v).rsplit("/", 1)[-1] for v in (t if isinstance(t, list) else [t])]


def walk(x, out: list[dict]) -> list[dict]:
    """Every JSON object inside x (depth first)."""
    if isinstance(x, list):
        for y in x:
            walk(y, out)
    elif isinstance(x, dict):
        out.append(x)
        for y in x.values():
            walk(y, out)
    return out


def classify(html: bytes) -> tuple[str, str]:
    recipes, raw_ld, broken = [], [], False
    for blob in LD_RE.findall(html):
        text = blob.decode("utf-8", "replace").strip()
        if text.startswith("<!--"):
            text = text[4:].rstrip("->").strip()
        if not text:
            continue
        try:
            data = json.loads(text, strict=False)
        except ValueError:
            broken = broken or "Recipe" in text
            continue
        found = [o for o in walk(data, []) if "Recipe" in types(o)]
        if found:
            recipes += found
            raw_ld.append(text)
    if recipes:
        why = []
        if len(recipes) > 1:
            why.append(f"{len(recipes)} Recipe objects")
        objs = walk(recipes, [])
        if any("HowToSection" in types(o) for o in objs):
            why.append("HowToSection")
        times = [str(r.get(k, "")) for r in recipes for k in ("totalTime", "prepTime", "cookTime")]
        if any(re.match(r"P\d+D", t, re.I) for t in times):
            why.append("duration with days")
        yields = recipes[0].get("recipeYield")
        ytext = " ".join(map(str, yields)) if isinstance(yields, list) else str(yields or "")
        if RANGE_RE.search(ytext):
            why.append("yield range")
        if any(ENTITY_RE.search(t) for t in raw_ld):
            why.append("HTML entities in JSON-LD")
        return ("odd", ", ".join(why)) if why else ("jsonld", "JSON-LD Recipe")
    if broken:
        return "odd", "malformed JSON-LD Recipe"
    if MICRODATA_RE.search(html):
        return "microdata", "schema.org Recipe microdata"
    if HRECIPE_RE.search(html):
        return "site", "hRecipe microformat"
    return "site", "no recipe metadata"


class Mirror:
    def __init__(self, git_dir: Path, commit: str):
        self.git_dir, self.commit = git_dir, commit
        self.cat = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def cases(self) -> dict[str, tuple[str, str]]:
        """HOST__NAME -> (html blob, json blob), for every case with both files."""
        out = subprocess.run(["git", f"--git-dir={self.git_dir}", "ls-tree", "-r", self.commit,
                              "tests/test_data"], check=True, capture_output=True, text=True)
        blobs: dict[str, dict[str, str]] = {}
        for line in out.stdout.splitlines():
            meta, path = line.split("\t", 1)
            parts = path.split("/")
            if len(parts) != 4:
                continue
            stem, _, ext = parts[3].rpartition(".")
            if ext in ("testhtml", "json"):
                blobs.setdefault(f"{parts[2]}__{stem}", {})[ext] = meta.split()[2]
        return {k: (v["testhtml"], v["json"]) for k, v in blobs.items()
                if "testhtml" in v and "json" in v}

    def read(self, blob: str) -> bytes | None:
        assert self.cat.stdin and self.cat.stdout
        self.cat.stdin.write(blob.encode() + b"\n")
        self.cat.stdin.flush()
        header = self.cat.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return None
        data = self.cat.stdout.read(int(header[2]))
        self.cat.stdout.read(1)
        return data


def quotas(size: int) -> dict[str, int]:
    whole = sum(PROPORTIONS.values())
    return {k: round(size * v / whole) for k, v in PROPORTIONS.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", type=Path, required=True, help="bare git repository of recipe-scrapers")
    ap.add_argument("--commit", default=DEV_COMMIT)
    ap.add_argument("--dev", type=Path, required=True, help="the dev set (its MANIFEST.tsv is left out)")
    ap.add_argument("--out", type=Path, required=True, help="a folder outside the repository")
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--tune2", type=int, default=0,
                    help="also draw this many more pages (same seed, after TUNE and FINAL, "
                    "neither of them) into OUT/tune2, for more tuning data")
    ap.add_argument("--tune3", type=int, default=0,
                    help="with --tune2, this many more pages drawn after TUNE2 (none of dev, "
                    "TUNE, FINAL or TUNE2) into OUT/tune3, to check rules fitted on TUNE2")
    ap.add_argument("--tune4", type=int, default=0,
                    help="with --tune3, a quota of this many more drawn after TUNE3 (none of "
                    "the other sets) into OUT/tune4; only odd pages are left by then")
    a = ap.parse_args()

    with (a.dev / "MANIFEST.tsv").open(encoding="utf-8") as f:
        dev = {row["name"] for row in csv.DictReader(f, delimiter="\t")}
    mirror = Mirror(a.mirror, a.commit)
    cases = mirror.cases()
    by_kind: dict[str, list[tuple[str, str]]] = {k: [] for k in PROPORTIONS}
    missing = 0
    pages: dict[str, bytes] = {}
    for name in sorted(cases):
        if name in dev:
            continue
        html = mirror.read(cases[name][0])
        if html is None:
            missing += 1
            continue
        kind, why = classify(html)
        by_kind[kind].append((name, why))
        pages[name] = html

    rng = random.Random(a.seed)
    halves: dict[str, list[tuple[str, str, str]]] = {"tune": [], "final": []}
    for kind, want in quotas(a.size).items():
        pool = by_kind[kind]
        if len(pool) < want:
            sys.exit(f"only {len(pool)} {kind} cases, {want} wanted")
        chosen = rng.sample(pool, want)
        rng.shuffle(chosen)
        half = (want + 1) // 2
        halves["tune"] += [(n, kind, w) for n, w in chosen[:half]]
        halves["final"] += [(n, kind, w) for n, w in chosen[half:]]

    if a.tune2:
        # Drawn after TUNE and FINAL from what neither holds, so both stay as they were.
        taken = {n for rows in halves.values() for n, _, _ in rows}
        halves["tune2"] = []
        for kind, want in quotas(a.tune2).items():
            pool = [(n, w) for n, w in by_kind[kind] if n not in taken]
            halves["tune2"] += [(n, kind, w) for n, w in rng.sample(pool, min(want, len(pool)))]
    if a.tune2 and a.tune3:
        # Drawn after TUNE2 the same way, so TUNE, FINAL and TUNE2 stay as they were.
        taken = {n for rows in halves.values() for n, _, _ in rows}
        halves["tune3"] = []
        for kind, want in quotas(a.tune3).items():
            pool = [(n, w) for n, w in by_kind[kind] if n not in taken]
            halves["tune3"] += [(n, kind, w) for n, w in rng.sample(pool, min(want, len(pool)))]
    if a.tune2 and a.tune3 and a.tune4:
        # Drawn after TUNE3 the same way, so every earlier set stays as it was; by then only
        # the "odd" pool has pages left, so TUNE4 is odd pages (N * 25/200 of them).
        taken = {n for rows in halves.values() for n, _, _ in rows}
        halves["tune4"] = []
        for kind, want in quotas(a.tune4).items():
            pool = [(n, w) for n, w in by_kind[kind] if n not in taken]
            halves["tune4"] += [(n, kind, w) for n, w in rng.sample(pool, min(want, len(pool)))]

    for part, rows in halves.items():
        folder = a.out / part
        folder.mkdir(parents=True, exist_ok=True)
        for old in list(folder.glob("*.html")) + list(folder.glob("*.json")):
            old.unlink()
        with (folder / "MANIFEST.tsv").open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["name", "kind", "html_blob", "json_blob", "note"])
            for name, kind, why in sorted(rows):
                expected = mirror.read(cases[name][1])
                if expected is None:
                    missing += 1
                    continue
                (folder / f"{name}.html").write_bytes(pages[name])
                (folder / f"{name}.json").write_bytes(expected)
                w.writerow([name, kind, cases[name][0], cases[name][1], why])

    dev_hosts = {n.split("__", 1)[0] for n in dev}
    print(f"{len(cases)} cases at {a.commit[:7]}, {len(dev)} in the dev set, {missing} blobs missing")
    print("pool by kind: " + ", ".join(f"{k} {len(v)}" for k, v in by_kind.items()))
    for part, rows in halves.items():
        kinds = {k: sum(1 for r in rows if r[1] == k) for k in PROPORTIONS}
        shared = sum(1 for r in rows if r[0].split("__", 1)[0] in dev_hosts)
        print(f"{part}: {len(rows)} cases in {a.out / part} ("
              + ", ".join(f"{k} {v}" for k, v in kinds.items())
              + f"; {shared} from a host that also has a dev case)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
