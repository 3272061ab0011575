#!/usr/bin/env python3
"""What the gallery costs a browser: bytes and requests to load it, the time until the first
live preview receives a frame, and CPU while the page sits idle.

    .venv/bin/python Benchmarks/gallery/load.py [--binary .build/release/playfield]
        [--public DIR --templates DIR] [--runs 3] [--idle 10]

Each run starts a fresh server (port 0, a new database) and a fresh headless Chromium
context (empty cache) at 1280x800, opens `/`, and measures:
- bytes: what came over the wire (headers and body, as Chromium's network log counts it) for
  every HTTP request the page and its frames sent; requests: how many went to the server, and
  how many more the browser's memory cache answered (WebSocket traffic is not included);
- first preview frame: from navigation start to the first `frame` message any preview's
  WebSocket receives (an init script in every frame notes the time);
- idle CPU: after 3 s of settling, the CPU time of Chromium (every process of it) and of the
  server over `--idle` seconds, in % of one core, with the page at the top and then scrolled
  to the bottom (the script prints how many live previews are still on screen there).
  Headless Chromium keeps a page "visible" even behind another tab, so a hidden tab is not
  measured here; the browser tests check that previews pause on `visibilitychange`.
"""
import argparse
import os
import pathlib
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests"))
from launcher import Playfield  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TICKS = os.sysconf("SC_CLK_TCK")

# Runs in every frame before its scripts: notes when the first WebSocket `frame` arrives.
FIRST_FRAME = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (window.__firstFrameAt === undefined && typeof event.data === "string"
            && event.data.includes('"type":"frame"')) {
          window.__firstFrameAt = performance.timeOrigin + performance.now();
        }
      });
    }
  };
})();"""


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def descendants(root):
    """Every process below `root` (a pid), from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def chromium_cpu():
    """CPU seconds of every Chromium process this script started."""
    total = 0.0
    for pid in descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if "chrom" not in f.read():
                    continue
            total += cpu_seconds(pid)
        except OSError:
            continue
    return total


def first_frame_at(frame):
    """When `frame` received its first session frame (epoch ms), or None (also mid-navigation)."""
    try:
        return frame.evaluate("() => window.__firstFrameAt ?? null")
    except Exception:  # noqa: BLE001 - a frame that is navigating has no context to ask
        return None


def idle_cpu(server_pid, seconds):
    browser0, server0, t0 = chromium_cpu(), cpu_seconds(server_pid), time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - t0
    return (100 * (chromium_cpu() - browser0) / elapsed,
            100 * (cpu_seconds(server_pid) - server0) / elapsed)


def one_run(browser, args):
    extra = []
    if args.public:
        extra += ["--public", args.public]
    if args.templates:
        extra += ["--templates", args.templates]
    playfield = Playfield(*extra, binary=args.binary)  # Tests/launcher.py
    server = playfield.process
    try:
        url = playfield.url
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(FIRST_FRAME)
        page = context.new_page()
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        sent, cached, wire = set(), set(), {}
        network.on("Network.requestWillBeSent", lambda e: sent.add(e["requestId"]))
        network.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
        network.on("Network.loadingFinished", lambda e: wire.update({e["requestId"]: e["encodedDataLength"]}))
        page.goto(url + "/", wait_until="load")
        page.wait_for_function("() => true")
        deadline = time.monotonic() + 15
        first = None
        while first is None and time.monotonic() < deadline:
            times = [t for t in map(first_frame_at, page.frames) if t is not None]
            if times:
                first = min(times) - page.evaluate("() => performance.timeOrigin")
            else:
                time.sleep(0.02)
        time.sleep(3)
        visible = idle_cpu(server.pid, args.idle)
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        # How many live previews are still (partly) on screen at the bottom of the page.
        on_screen = page.evaluate("""() => [...document.querySelectorAll('iframe')].filter(f => {
          const r = f.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }).length""")
        time.sleep(1)
        scrolled = idle_cpu(server.pid, args.idle)
        page.evaluate("() => 0")  # delivers the network events queued during the sleeps
        fetched = sent - cached
        result = {
            "bytes": sum(wire.get(id, 0) for id in fetched), "requests": len(fetched),
            "cache_hits": len(sent & cached), "first_frame_ms": first,
            "visible_cpu": visible, "scrolled_cpu": scrolled, "on_screen": on_screen,
        }
        context.close()
        return result
    finally:
        playfield.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=".build/release/playfield")
    parser.add_argument("--public")
    parser.add_argument("--templates")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--idle", type=float, default=10, help="seconds of each idle sample")
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        runs = [one_run(browser, args) for _ in range(args.runs)]
        browser.close()
    for number, run in enumerate(runs, 1):
        first = f"{run['first_frame_ms']:.0f} ms" if run["first_frame_ms"] is not None else "none"
        print(f"run {number}: {run['bytes']} bytes in {run['requests']} requests "
              f"(+{run['cache_hits']} from the cache); first preview frame {first}; "
              f"idle CPU visible: browser {run['visible_cpu'][0]:.1f} %, server {run['visible_cpu'][1]:.1f} %; "
              f"scrolled to the bottom ({run['on_screen']} previews on screen): "
              f"browser {run['scrolled_cpu'][0]:.1f} %, server {run['scrolled_cpu'][1]:.1f} %")
    firsts = [r["first_frame_ms"] for r in runs if r["first_frame_ms"] is not None]
    first = f"{statistics.median(firsts):.0f} ms" if firsts else "none"
    median = lambda key, index: statistics.median(r[key][index] for r in runs)  # noqa: E731
    print(f"median: {statistics.median(r['bytes'] for r in runs):.0f} bytes, "
          f"{statistics.median(r['requests'] for r in runs):.0f} requests, first preview frame {first}, "
          f"idle CPU visible {median('visible_cpu', 0):.1f} % + {median('visible_cpu', 1):.1f} %, "
          f"scrolled {median('scrolled_cpu', 0):.1f} % + {median('scrolled_cpu', 1):.1f} % (browser + server)")

if __name__ == "__main__":
    main()
