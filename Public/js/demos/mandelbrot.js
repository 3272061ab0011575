// Mandelbrot explorer (seed "iOS - Mandelbrot"): the page's one module script. The explorer
// itself lives in ../mandelbrot/; this starts it on the page's `.explorer` section and speaks
// the embed protocol for it (docs/embedding.md).

import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { Explorer } from "../mandelbrot/explorer.js";
import { reframe } from "../mandelbrot/geometry.js";

const root = document.querySelector(".explorer");
if (root) embedExplorer(root, new Explorer(root));

/** The explorer's host commands: `reset`, `input` (quadrant, zoom, pan, back) and `set`. */
function embedExplorer(root, explorer) {
  // NB: deep views keep their centre relative to a frame tile; hosts get it as plain numbers.
  const centre = () => reframe(explorer.view, 0);
  const view = () => ({
    journey: root.dataset.journey ?? "",
    x: centre().x,
    y: centre().y,
    zoom: explorer.view.zoom,
    palette: explorer.state.palette,
    iterations: explorer.state.iterations,
  });
  const inputs = {
    quadrant: ({ q }) => {
      if (![1, 2, 3, 4].includes(q)) throw new EmbedError("bad-field", "q must be 1, 2, 3 or 4");
      explorer.quadrant(q);
    },
    zoom: ({ levels }) => {
      if (typeof levels !== "number" || !(Math.abs(levels) <= 10)) {
        throw new EmbedError("bad-field", "levels must be a number from -10 to 10");
      }
      explorer.zoomStep(levels);
    },
    pan: ({ dx, dy }) => {
      if (![dx, dy].every((v) => typeof v === "number" && Math.abs(v) <= 10000)) {
        const text = "dx and dy must be numbers from -10000 to 10000 (CSS px)";
        throw new EmbedError("bad-field", text);
      }
      explorer.panBy(dx, dy, true);
    },
    back: () => explorer.back(),
  };
  // `set` chooses in the explorer's own menus, as a person would.
  const select = (name) => ({
    check(value) {
      const text = value === null ? "auto" : String(value);
      const known = Array.from(explorer.controls[name].options).some((o) => o.value === text);
      if (!known) throw new EmbedError("bad-field", `${name} cannot be ${text}`);
    },
    apply(value) {
      explorer.controls[name].value = value === null ? "auto" : String(value);
      explorer.controls[name].dispatchEvent(new Event("change"));
    },
  });
  const embed = startEmbed({
    demo: "mandelbrot",
    ...pageCommands({
      name: "The explorer",
      run: { reset: () => explorer.reset() },
      inputs,
      options: { palette: select("palette"), iterations: select("iterations") },
    }),
    events: ["view"],
    wheel: true,
    getState: () => ({
      running: false,
      tick: null,
      ready: root.dataset.ready === "true",
      view: view(),
    }),
    capture: () => explorer.canvas,
  });
  // The explorer marks the page ready once the picture is complete: a settled view is an event.
  let last = "";
  new MutationObserver(() => {
    embed.stateChanged();
    if (root.dataset.ready !== "true") return;
    const now = view();
    const key = JSON.stringify(now);
    if (key === last) return;
    last = key;
    embed.event("view", now);
  }).observe(root, { attributes: true, attributeFilter: ["data-ready", "data-journey"] });
  embed.ready();
}
