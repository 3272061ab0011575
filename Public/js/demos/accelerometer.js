// Accelerometer (seed "Accelerometer"): x, y, z and magnitude in g with their minimum and
// maximum until RESET, a polar grid with rings at 0.5, 1, 1.5 and 2 g on which a yellow ball
// marks the x-y acceleration, and a rolling plot of x, y and z. The reading comes from the
// shared tilt component: the motion sensor, the tilt pad or the arrow keys.

import { $, setText } from "../lib/dom.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { TiltInput } from "../lib/tilt.js";

/** Options of this page. */
const options = {
  rings: [0.5, 1, 1.5, 2], // grid rings, in g
  gridMax: 2.2, // acceleration at the grid's rim, in g
  ballRadius: 0.12, // the ball's radius, in g
  plotSeconds: 5, // the rolling plot's width, in s
  plotMax: 2, // the plot's top and bottom, in ±g
  colors: { x: "#ff7b72", y: "#7bd88f", z: "#79c0ff", ball: "#ffd400", grid: "#3a404c", label: "#9aa3b2" },
  hostLimit: 4, // the largest acceleration a host page may send, in ±g per axis
};

const axes = ["x", "y", "z", "magnitude"];
const root = $(".demo");
const gridCanvas = $(".accel-grid", root);
const plotCanvas = $(".accel-plot", root);
const cells = Object.fromEntries(
  axes.flatMap((axis) =>
    ["", "-min", "-max"].map((suffix) => [axis + suffix, $(`[data-readout="${axis}${suffix}"]`, root)]),
  ),
);

const state = {
  reading: { x: 0, y: 0, z: -1, magnitude: 1, source: "level" },
  min: null, // {x, y, z, magnitude} since the last RESET
  max: null,
  history: [], // [{t, x, y, z}] over the last plotSeconds
  dirty: true,
};
window.playfield = { accelerometer: state }; // for the browser tests and the curious

/** Takes a reading in g and widens the extremes. */
function take(reading) {
  const value = { ...reading, magnitude: Math.hypot(reading.x, reading.y, reading.z) };
  state.reading = value;
  if (!state.min) reset();
  for (const axis of axes) {
    state.min[axis] = Math.min(state.min[axis], value[axis]);
    state.max[axis] = Math.max(state.max[axis], value[axis]);
  }
  state.dirty = true;
  embed?.stateChanged();
}

/** RESET: the extremes start again from the current reading. */
function reset() {
  const { x, y, z, magnitude } = state.reading;
  state.min = { x, y, z, magnitude };
  state.max = { x, y, z, magnitude };
  state.dirty = true;
  embed?.event("reset", { x, y, z });
  embed?.stateChanged();
}

/** The readings and extremes, rounded as shown, for the host page. */
function reading() {
  const round = (value) => Number(g(value));
  const pick = (values) => Object.fromEntries(axes.map((axis) => [axis, round(values[axis])]));
  return {
    running: false,
    tick: null,
    source: state.reading.source,
    ...pick(state.reading),
    min: pick(state.min),
    max: pick(state.max),
  };
}

/** An `acceleration` input from the host page: `{x, y, z}` in g. */
function fromHost(input) {
  const value = {};
  for (const axis of ["x", "y", "z"]) {
    const number = input[axis] ?? 0;
    if (typeof number !== "number" || !Number.isFinite(number) || Math.abs(number) > options.hostLimit) {
      throw new EmbedError("bad-field", `${axis} must be a number from -${options.hostLimit} to ${options.hostLimit} (g)`);
    }
    value[axis] = number;
  }
  take({ ...value, source: "host" });
}

/** A value in g to one decimal; -0.0 shows as 0.0. */
function g(value) {
  const text = value.toFixed(1);
  return text === "-0.0" ? "0.0" : text;
}

function showReadouts() {
  for (const axis of axes) {
    setText(cells[axis], g(state.reading[axis]));
    setText(cells[`${axis}-min`], g(state.min[axis]));
    setText(cells[`${axis}-max`], g(state.max[axis]));
  }
  setText($('[data-readout="source"]', root), state.reading.source);
}

/** Sizes a canvas's pixels to its CSS box; returns a context in CSS px and the size. */
function prepare(canvas) {
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
  }
  const context = canvas.getContext("2d");
  context.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { context, width, height };
}

function drawGrid() {
  const { context, width } = prepare(gridCanvas);
  const { colors } = options;
  const centre = width / 2;
  const perG = centre / options.gridMax;
  context.fillStyle = "#000";
  context.fillRect(0, 0, width, width);
  context.strokeStyle = colors.grid;
  context.lineWidth = 1;
  context.beginPath();
  context.moveTo(0, centre);
  context.lineTo(width, centre);
  context.moveTo(centre, 0);
  context.lineTo(centre, width);
  context.stroke();
  context.fillStyle = colors.label;
  context.font = `${Math.max(10, width / 34)}px system-ui, sans-serif`;
  for (const ring of options.rings) {
    context.beginPath();
    context.arc(centre, centre, ring * perG, 0, Math.PI * 2);
    context.stroke();
    context.fillText(`${ring} g`, centre + ring * perG * 0.71 - 18, centre - ring * perG * 0.71 + 14);
  }
  // x to the right, y up the screen; a reading past the rim stays on it.
  const { x, y } = state.reading;
  const length = Math.hypot(x, y);
  const k = length > options.gridMax ? options.gridMax / length : 1;
  context.fillStyle = colors.ball;
  context.beginPath();
  context.arc(centre + x * k * perG, centre - y * k * perG, options.ballRadius * perG, 0, Math.PI * 2);
  context.fill();
  state.ball = { x: centre + x * k * perG, y: centre - y * k * perG };
}

function drawPlot(now) {
  const { context, width, height } = prepare(plotCanvas);
  const span = options.plotSeconds * 1000;
  context.fillStyle = "#000";
  context.fillRect(0, 0, width, height);
  context.strokeStyle = options.colors.grid;
  context.lineWidth = 1;
  context.beginPath();
  for (const level of [-1, 0, 1]) {
    const y = height / 2 - (level / options.plotMax) * (height / 2);
    context.moveTo(0, y);
    context.lineTo(width, y);
  }
  context.stroke();
  context.lineWidth = 1.5;
  for (const axis of ["x", "y", "z"]) {
    context.strokeStyle = options.colors[axis];
    context.beginPath();
    state.history.forEach((sample, index) => {
      const px = width - ((now - sample.t) / span) * width;
      const value = Math.max(-options.plotMax, Math.min(options.plotMax, sample[axis]));
      const py = height / 2 - (value / options.plotMax) * (height / 2);
      if (index === 0) context.moveTo(px, py);
      else context.lineTo(px, py);
    });
    context.stroke();
  }
}

function loop(now) {
  const { x, y, z } = state.reading;
  state.history.push({ t: now, x, y, z });
  while (state.history.length && now - state.history[0].t > options.plotSeconds * 1000) {
    state.history.shift();
  }
  if (state.dirty) {
    showReadouts();
    state.dirty = false;
  }
  drawGrid();
  drawPlot(now);
  requestAnimationFrame(loop);
}

let embed = null; // the embed protocol (docs/embedding.md), started below
new TiltInput($(".tilt-pad", root), null, { onReading: take, offerSensor: true });
take(state.reading);
$('[data-action="reset"]', root).addEventListener("click", reset);
embed = startEmbed({
  demo: "accelerometer",
  ...pageCommands({
    name: "The accelerometer",
    run: { reset },
    inputs: { acceleration: fromHost },
  }),
  events: ["reset"],
  getState: reading,
  capture: () => gridCanvas,
});
embed.ready();
requestAnimationFrame(loop);
