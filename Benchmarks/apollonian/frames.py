"""The viewer's frame time in headless Chromium (SwiftShader WebGL2, on the CPU): levels 7 and
10, surface shell and every sphere (or the cases given, as `10:all 7:shell`), 1280 x 800,
turning on its own; 5 s of requestAnimationFrame intervals each, after the level is drawn.

    swift build -c release --product playfield
    .venv/bin/python Benchmarks/apollonian/frames.py
"""
import os
import pathlib
import sys

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from launcher import Playfield  # noqa: E402
MEASURE = """() => new Promise((done) => {
  const stamps = [];
  const tick = (t) => {
    stamps.push(t);
    if (t - stamps[0] < 5000) requestAnimationFrame(tick); else done(stamps);
  };
  requestAnimationFrame(tick);
})"""


def main():
    server = Playfield()  # Tests/launcher.py: the release build, a fresh database
    url = server.url
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True,
                args=["--no-sandbox", "--disable-dev-shm-usage", "--use-angle=swiftshader",
                      "--enable-unsafe-swiftshader"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url + "/demos/apollonian")
            renderer = page.evaluate("() => document.querySelector('section.demo-apollonian').dataset.renderer")
            print(f"renderer: {renderer}; load average {os.getloadavg()[0]:.1f}")
            cases = [(int(a.split(":")[0]), a.endswith(":shell")) for a in sys.argv[1:]]
            for level, surface in cases or [(7, True), (7, False), (10, True), (10, False)]:
                if True:
                    page.evaluate(f"() => {{ const v = window.playfield.apollonian;"
                                  f" v.setSurface({str(surface).lower()}); v.setLevel({level}); }}")
                    page.wait_for_function(
                        f"() => {{ const e = document.querySelector('section.demo-apollonian');"
                        f" return e.dataset.level === '{level}' && e.dataset.ready === 'true'; }}", timeout=300_000)
                    stamps = page.evaluate(MEASURE)
                    gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
                    count = page.evaluate("() => document.querySelector('section.demo-apollonian').dataset.count")
                    print(f"level {level:2} {'shell' if surface else 'all  '} {int(count):>8,} spheres:"
                          f" {len(gaps)} frames, mean {sum(gaps) / len(gaps):6.1f} ms,"
                          f" median {gaps[len(gaps) // 2]:6.1f} ms")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
