// Bouncing balls (seed "SpaceBalls"): draws the streamed ball positions, adds and throws
// balls with the pointer, and shows the energy and momentum the server reports.

import { $, formatCompact, formatNumber, setText } from "../lib/dom.js";
import { FlickTracker } from "../lib/canvas.js";
import { runDemo } from "../lib/demo.js";
import { RollingPlot } from "../lib/plot.js";
import { BallPainter } from "../bouncing-balls/painter.js";

/** Options of this page. */
const options = {
  // A new session's config: the gallery preview's, which the server renders as `data-config`
  // (the model's own defaults are the seed's two balls).
  config: JSON.parse(document.querySelector(".demo")?.dataset.config || "{}"),
  box: { width: 320, height: 480, radius: 15 }, // the server's default box and ball radius, px
  manyBallsRadius: 5, // px: the radius when `?balls=N` is more than the default box holds
  grabSlop: 6, // px of world around a ball that still grabs it
  aimColor: "rgba(255, 255, 255, 0.55)", // the ghost ball and flick line while adding
  energyColor: "#ffd400", // the energy line of the plot
  momentumColor: "#7fc8ff", // the |momentum| line of the plot
};

let view = null;
let world = { width: 320, height: 480, boundary: "walls" };
const painter = new BallPainter();
let maxSpeed = 2000;
let positions = new Float64Array(0);
let gesture = null; // {mode: "add"|"throw", index, tracker}

const readouts = {};
let plot = null;

function adopt(message) {
  world = message.world;
  painter.adopt(message);
  maxSpeed = message.maxSpeed;
}

/** Positions at `alpha` between frames; a ball that wrapped around a torus is not swept across. */
function blend(a, b, alpha) {
  const pa = a.positions;
  const pb = b.positions;
  if (positions.length !== pb.length) positions = new Float64Array(pb.length);
  const periodic = world.boundary === "periodic";
  const shared = Math.min(pa.length, pb.length);
  for (let i = 0; i < pb.length; i += 1) {
    if (i >= shared) {
      positions[i] = pb[i];
      continue;
    }
    const delta = pb[i] - pa[i];
    const span = i % 2 === 0 ? world.width : world.height;
    positions[i] = periodic && Math.abs(delta) > span / 2 ? pb[i] : pa[i] + delta * alpha;
  }
  return positions;
}

function draw(sample, demo) {
  const { a, b, alpha } = sample;
  const points = blend(a, b, alpha);
  const context = view.context2d();
  painter.draw(context, points, view.scale);
  if (gesture?.mode === "add") drawAim(context, gesture.tracker);
  painter.drawEdge(context, view.scale);
  demo.dirty = Boolean(gesture);
}

function drawAim(context, tracker) {
  const last = tracker.last;
  const first = tracker.samples[0];
  context.strokeStyle = options.aimColor;
  context.lineWidth = 1.5 / view.scale;
  context.beginPath();
  context.arc(last.x, last.y, painter.radiusFallback, 0, Math.PI * 2);
  context.moveTo(first.x, first.y);
  context.lineTo(last.x, last.y);
  context.stroke();
}

function showReadouts(frame) {
  setText(readouts.count, formatNumber(frame.count));
  setText(readouts.energy, formatCompact(frame.energy));
  const [px, py] = frame.momentum;
  setText(readouts.momentum, `(${formatCompact(px)}, ${formatCompact(py)})`);
  setText(readouts.collisions, formatNumber(frame.collisions));
  plot?.push([frame.energy, Math.hypot(px, py)]);
}

/** The ball under world point p, or -1. */
function ballAt(p) {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < positions.length / 2; i += 1) {
    const d = Math.hypot(positions[2 * i] - p.x, positions[2 * i + 1] - p.y);
    const reach = (painter.radii[i] ?? painter.radiusFallback) + options.grabSlop;
    if (d < reach && d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}

function capped(v) {
  const speed = Math.hypot(v.vx, v.vy);
  const k = speed > maxSpeed ? maxSpeed / speed : 1;
  return { vx: Math.round(v.vx * k * 100) / 100, vy: Math.round(v.vy * k * 100) / 100 };
}

function bindPointer(canvas, demo) {
  canvas.addEventListener("pointerdown", (event) => {
    if (!demo.client?.controls || !view) return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    const p = view.toWorld(event);
    const index = ballAt(p);
    const tracker = new FlickTracker();
    tracker.start(p, event.timeStamp);
    gesture = { mode: index >= 0 ? "throw" : "add", index, tracker };
    demo.redraw();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!gesture) return;
    gesture.tracker.move(view.toWorld(event), event.timeStamp);
    demo.redraw();
  });
  canvas.addEventListener("pointerup", (event) => {
    if (!gesture) return;
    const { mode, index, tracker } = gesture;
    gesture = null;
    tracker.move(view.toWorld(event), event.timeStamp);
    const v = capped(tracker.velocity(event.timeStamp));
    if (mode === "throw") {
      demo.send({ type: "throw", index, ...v });
    } else {
      const p = tracker.last;
      const x = Math.min(Math.max(p.x, 0), world.width);
      const y = Math.min(Math.max(p.y, 0), world.height);
      const round = (value) => Math.round(value * 100) / 100;
      demo.send({ type: "add-ball", x: round(x), y: round(y), ...v });
    }
    demo.redraw();
  });
  canvas.addEventListener("pointercancel", () => {
    gesture = null;
    demo.redraw();
  });
}

/** Balls of `radius` the start lattice of a `width` x `height` box holds (the server's rule:
 * a 2 px gap between the largest balls). */
function capacity(width, height, radius) {
  const spacing = 2 * radius + 2;
  return Math.floor(width / spacing) * Math.floor(height / spacing);
}

/**
 * A new session's config for `?balls=N`: the server's defaults when the default box holds N
 * balls (150), else smaller balls in a box of the same shape grown to hold them, so that
 * every count from 1 to 10,000 starts; unless the address sets the radius or the size.
 */
function configFor(query) {
  const balls = Number(query.get("balls"));
  const { width, height } = options.box;
  const radius = options.config.radiusMax ?? options.box.radius;
  if (!Number.isInteger(balls) || balls <= capacity(width, height, radius)) return options.config;
  const own = ["radiusMin", "radiusMax", "width", "height", "config"];
  if (own.some((name) => query.has(name))) return options.config;
  const small = options.manyBallsRadius;
  const spacing = 2 * small + 2;
  const columns = Math.max(
    Math.floor(width / spacing),
    Math.ceil(Math.sqrt((balls * width) / height)),
  );
  const rows = Math.max(Math.floor(height / spacing), Math.ceil(balls / columns));
  return {
    ...options.config,
    radiusMin: small,
    radiusMax: small,
    width: columns * spacing,
    height: rows * spacing,
  };
}

/** The NEW form: a new session with that many balls, through the address (`?new&balls=N`);
 * it works with or without a session (one the address refused included). */
const newForm = document.querySelector(".demo .balls-form");
newForm?.addEventListener("submit", (event) => {
  event.preventDefault();
  const count = encodeURIComponent(newForm.elements.balls.value);
  location.assign(`${location.pathname}?new&balls=${count}`);
});
const askedBalls = new URLSearchParams(location.search).get("balls") ?? options.config.balls;
if (newForm && askedBalls != null) newForm.elements.balls.value = askedBalls;

/** Shows the session's ball count in the NEW form, unless someone is typing there. */
function showCount(count) {
  const field = newForm?.elements.balls;
  if (field && document.activeElement !== field) field.value = String(count);
}

runDemo({
  kind: "bouncing-balls",
  config: configFor(new URLSearchParams(location.search)),
  urlConfig: [
    "balls",
    "restitution",
    "boundary",
    "mass",
    "radiusMin",
    "radiusMax",
    "width",
    "height",
  ],
  inputs: ["add-ball", "throw", "reset"],
  events: ["collision", "ball-added", "reset"],
  setup(demo) {
    const labels = {
      count: "balls",
      energy: "energy",
      momentum: "momentum",
      collisions: "hits/tick",
    };
    for (const [name, label] of Object.entries(labels)) readouts[name] = demo.readout(name, label);
    const canvas = demo.root.querySelector("canvas.plot");
    if (canvas) {
      plot = new RollingPlot(canvas, [
        { name: "energy", color: options.energyColor },
        { name: "momentum", color: options.momentumColor },
      ]);
    }
  },
  controls(demo) {
    demo.bind("reset", { type: "reset" });
    bindPointer($("canvas.view", demo.root), demo);
  },
  hello(message, demo) {
    adopt(message);
    view = demo.fit(world);
    showReadouts(message);
    showCount(message.radii.length);
  },
  frame(message) {
    showReadouts(message);
  },
  event(message, demo) {
    if (message.name === "ball-added") {
      painter.added(message.index, message.radius, message.color);
    } else if (message.name === "reset") {
      plot?.clear();
      adopt(message.hello);
      demo.frames.cut(message.tick);
      demo.fit(world);
      demo.redraw();
    }
  },
  draw,
});
