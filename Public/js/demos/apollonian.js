// Apollonian spheres (seed "3D viewer for our Apollonian service"): the page's one module
// script. The viewer lives in ../apollonian/; this starts it on the page's section and speaks
// the embed protocol for it (docs/embedding.md).

import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { Viewer } from "../apollonian/viewer.js";

const root = document.querySelector("section.demo-apollonian");
if (root) {
  const viewer = new Viewer(root);
  window.playfield = { apollonian: viewer };
  embedViewer(root, viewer);
}

/**
 * The viewer's host commands: `play` and `pause` (the turning), `reset` (the view), `input`
 * (`{type: "turn", yaw, pitch}` in rad, `{type: "zoom", factor}`) and `set` (`level` 0 to 10,
 * `surface` true or false).
 */
function embedViewer(root, viewer) {
  const inputs = {
    turn: ({ yaw = 0, pitch = 0 }) => {
      if (![yaw, pitch].every((v) => typeof v === "number" && Math.abs(v) <= 2 * Math.PI)) {
        throw new EmbedError("bad-field", "yaw and pitch must be numbers from -2π to 2π (rad)");
      }
      viewer.turn(yaw, pitch);
    },
    zoom: ({ factor }) => {
      if (typeof factor !== "number" || !(factor >= 0.1 && factor <= 10)) {
        throw new EmbedError("bad-field", "factor must be a number from 0.1 to 10");
      }
      viewer.zoom(factor);
    },
  };
  const options = {
    level: {
      check(value) {
        if (!Number.isInteger(value) || value < 0 || value > 10) {
          throw new EmbedError("bad-field", "level must be a whole number from 0 to 10");
        }
      },
    },
    surface: {
      check(value) {
        if (typeof value !== "boolean") {
          throw new EmbedError("bad-field", "surface must be true or false");
        }
      },
    },
  };
  const embed = startEmbed({
    demo: "apollonian",
    ...pageCommands({
      name: "The viewer",
      run: {
        play: () => viewer.setSpinning(true),
        pause: () => viewer.setSpinning(false),
        reset: () => viewer.reset(),
      },
      inputs,
      options,
      // Every option is checked before any is applied, and a new level loads once.
      applied: (chosen) => viewer.show(chosen),
    }),
    events: ["drawn"],
    wheel: true,
    getState: () => ({
      running: viewer.spinning,
      tick: null,
      ready: root.dataset.ready === "true",
      level: viewer.level,
      surface: viewer.surface,
      count: Number(root.dataset.count ?? 0),
    }),
    capture: () => {
      viewer.draw();
      return viewer.canvas;
    },
  });
  // A level drawn is an event; any change of level, count or readiness is news for the host.
  new MutationObserver(() => {
    embed.stateChanged();
    if (root.dataset.ready !== "true") return;
    const count = Number(root.dataset.count);
    embed.event("drawn", { level: viewer.level, surface: viewer.surface, count });
  }).observe(root, {
    attributes: true,
    attributeFilter: ["data-ready", "data-level", "data-count"],
  });
  if (embed.embedded && !embed.options.autoplay) viewer.setSpinning(false);
  embed.ready();
}
