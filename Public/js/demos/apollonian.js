// Apollonian spheres (seed "3D viewer for our Apollonian service"): the page's one module
// script. The viewer lives in ../apollonian/; this starts it on the page's section and speaks
// the embed protocol for it (docs/embedding.md).

import { Viewer } from "../apollonian/viewer.js";
import { orbitOptions } from "../apollonian/orbit.js";
import { EmbedError, startEmbed } from "../lib/embed.js";

/** Options, with units. */
const options = {
  viewSettleMs: 200, // a `view` event goes out once the camera has been still this long
  maxTurn: 2 * Math.PI, // rad, largest `turn` input either way
  maxZoomSteps: 10, // largest `zoom` input either way, in + / − presses
};

const root = document.querySelector("section.demo-apollonian");
if (root) {
  const viewer = new Viewer(root);
  window.playfield = { apollonian: viewer };
  embedViewer(root, viewer);
}

/**
 * The viewer's host commands: `play` / `pause` (the turning), `reset` (the start view),
 * `input` (`zoom` {steps}, `turn` {yaw, pitch}, `level` {level}) and `set` (`level`,
 * `surface`, `spinning`). Events: `level` when a level's spheres are shown, `view` when the
 * camera settles after a change.
 */
function embedViewer(root, viewer) {
  const view = () => ({
    yaw: viewer.orbit.yaw,
    pitch: viewer.orbit.pitch,
    distance: viewer.orbit.distance,
  });
  const number = (value, limit, name) => {
    if (typeof value !== "number" || !(Math.abs(value) <= limit)) {
      throw new EmbedError("bad-field", `${name} must be a number from -${limit} to ${limit}`);
    }
    return value;
  };
  const level = (value) => {
    if (!Number.isInteger(value) || value < 0 || value > 10) {
      throw new EmbedError("bad-field", "level must be a whole number from 0 to 10");
    }
    viewer.setLevel(value);
  };
  const flag = (value, name) => {
    if (typeof value === "boolean") return value;
    throw new EmbedError("bad-field", `${name} must be true or false`);
  };
  const inputs = {
    zoom: ({ steps }) => {
      number(steps, options.maxZoomSteps, "steps");
      viewer.zoom(orbitOptions.zoomStep ** -steps);
    },
    turn: ({ yaw = 0, pitch = 0 }) => {
      viewer.turn(number(yaw, options.maxTurn, "yaw"), number(pitch, options.maxTurn, "pitch"));
    },
    level: (input) => level(input.level),
  };
  const settable = {
    level,
    surface: (value) => viewer.setSurface(flag(value, "surface")),
    spinning: (value) => viewer.setSpinning(flag(value, "spinning")),
  };
  const embed = startEmbed({
    demo: "apollonian",
    commands: ["play", "pause", "reset", "input", "set"],
    events: ["level", "view"],
    inputs: Object.keys(inputs),
    wheel: true,
    getState: () => ({
      running: viewer.spinning,
      tick: null,
      ready: root.dataset.ready === "true",
      level: viewer.level,
      surface: viewer.surface,
      count: Number(root.dataset.count ?? 0) || null,
      view: view(),
    }),
    capture: () => {
      viewer.draw();
      return viewer.canvas;
    },
    onCommand(message) {
      if (message.type === "play" || message.type === "pause") {
        return viewer.setSpinning(message.type === "play");
      }
      if (message.type === "reset") return viewer.reset();
      if (message.type === "input") {
        const run = inputs[message.input.type];
        if (!run) {
          const known = Object.keys(inputs).join(", ");
          throw new EmbedError("bad-field", `input type must be one of ${known}`);
        }
        return run(message.input);
      }
      const entries = Object.entries(message.options);
      for (const [name] of entries) {
        if (!settable[name]) throw new EmbedError("bad-field", `the viewer has no option ${name}`);
      }
      for (const [name, value] of entries) settable[name](value);
      return null;
    },
  });

  // The camera moves by itself while turning: only changes someone made are `view` events,
  // sent once the camera has been still for a moment.
  let settle = 0;
  const moved = () => {
    clearTimeout(settle);
    settle = setTimeout(() => {
      embed.event("view", { ...view(), spinning: viewer.spinning });
      embed.stateChanged();
    }, options.viewSettleMs);
  };
  for (const name of ["zoom", "turn", "reset", "setSpinning"]) {
    const original = viewer[name].bind(viewer);
    viewer[name] = (...args) => {
      const result = original(...args);
      if (name === "setSpinning") root.dataset.running = String(viewer.spinning);
      moved();
      return result;
    };
  }
  root.dataset.running = String(viewer.spinning);

  // The viewer marks the page ready once a level's spheres are drawn: that is a `level` event.
  let shown = "";
  new MutationObserver(() => {
    embed.stateChanged();
    if (root.dataset.ready !== "true") return;
    const key = `${viewer.level}:${viewer.surface}`;
    if (key === shown) return;
    shown = key;
    const count = Number(root.dataset.count);
    embed.event("level", { level: viewer.level, surface: viewer.surface, count });
  }).observe(root, { attributes: true, attributeFilter: ["data-ready", "data-running"] });
  embed.ready();
}
