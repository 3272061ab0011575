// Compare's chart: one readout of every pane over the group's ticks, on one axis (x the tick,
// 0 to `end`; y the readout's range over every pane), with the tick where the panes part and
// the tick shown now. The readouts come from the frames (`readoutsOf`): each number a frame
// holds, and each pair of numbers (a position, a momentum) as its two parts.

import { formatCompact } from "../lib/dom.js";
import { sizeToBox } from "../lib/plot.js";

/** Options of the chart. */
const chartOptions = {
  background: "#0c0f13",
  axis: "#2b303b",
  label: "#9aa1b2", // the axis figures (on `background`: 7:1)
  parted: "#ff6b6b", // the parting tick's line
  now: "#e8eaf0", // the shown tick's line
  lineWidth: 2, // CSS px
  pad: { left: 44, right: 8, top: 8, bottom: 18 }, // CSS px around the plot area
  maxReadouts: 12, // a frame's readouts kept at most (the first ones)
};

/** `{name: value}` of the numbers a frame (or its `readouts`, when the server sends them)
 * holds: scalars as they are, pairs as `name x` and `name y`. */
export function readoutsOf(frame) {
  const found = {};
  const add = (name, value) => {
    if (Object.keys(found).length >= chartOptions.maxReadouts) return;
    if (typeof value === "number" && Number.isFinite(value)) found[name] = value;
    else if (typeof value === "boolean") found[name] = value ? 1 : 0;
    else if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number")) {
      found[`${name} x`] = value[0];
      found[`${name} y`] = value[1];
    }
  };
  if (frame?.readouts && typeof frame.readouts === "object") {
    for (const [name, value] of Object.entries(frame.readouts)) add(name, value);
  }
  for (const [name, value] of Object.entries(frame ?? {})) if (name !== "readouts") add(name, value);
  return found;
}

export class TickChart {
  /** Draws into `canvas`, one line per pane in `colors`. */
  constructor(canvas, colors) {
    this.canvas = canvas;
    this.colors = colors;
    this.reset(0, 0);
  }

  /** Forgets every value: a group of `panes` panes, ticks 0 to `end`. */
  reset(end, panes) {
    this.end = end;
    this.panes = panes;
    this.series = new Map(); // readout name -> [Float32Array per pane], NaN where unseen
    this.chosen = null;
    this.parted = null;
    this.tick = 0;
    this.queue();
  }

  /** Forgets every value and the parting, keeping the readouts and the chosen one (the panes
   * ran again: a changed offset). */
  forget() {
    for (const lines of this.series.values()) for (const line of lines) line.fill(NaN);
    this.parted = null;
    this.queue();
  }

  /** The readouts seen so far, in the order first seen. */
  get names() {
    return [...this.series.keys()];
  }

  /** Keeps every readout of every pane at `tick`; true when a new readout name appeared. */
  record(tick, frames) {
    let added = false;
    frames.forEach((frame, pane) => {
      for (const [name, value] of Object.entries(readoutsOf(frame))) {
        let lines = this.series.get(name);
        if (!lines) {
          lines = Array.from({ length: this.panes }, () => new Float32Array(this.end + 1).fill(NaN));
          this.series.set(name, lines);
          added = true;
        }
        if (tick >= 0 && tick <= this.end && lines[pane]) lines[pane][tick] = value;
      }
    });
    this.tick = tick;
    this.queue();
    return added;
  }

  /** The readout to draw. */
  choose(name) {
    this.chosen = name;
    this.queue();
  }

  /** The tick where the panes part (a red line). */
  mark(tick) {
    this.parted = tick;
    this.queue();
  }

  /** Each pane's value of the chosen readout at `tick` (NaN where unseen). */
  valuesAt(tick) {
    const lines = this.series.get(this.chosen) ?? [];
    return lines.map((line) => line[tick] ?? NaN);
  }

  queue() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.draw();
    });
  }

  draw() {
    const canvas = this.canvas;
    const ratio = sizeToBox(canvas);
    const { width, height } = canvas;
    const o = chartOptions;
    const context = canvas.getContext("2d");
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = o.background;
    context.fillRect(0, 0, width, height);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const w = width / ratio;
    const h = height / ratio;
    const left = o.pad.left;
    const right = w - o.pad.right;
    const top = o.pad.top;
    const bottom = h - o.pad.bottom;
    const lines = this.series.get(this.chosen) ?? [];
    let low = Infinity;
    let high = -Infinity;
    for (const line of lines) {
      for (const value of line) {
        if (value < low) low = value;
        if (value > high) high = value;
      }
    }
    if (!Number.isFinite(low)) [low, high] = [0, 1];
    if (high - low < 1e-9) [low, high] = [low - 1, high + 1];
    // NB: a little room above and below, so that a steady line is not drawn on the frame.
    const room = (high - low) * 0.06;
    low -= room;
    high += room;
    const x = (tick) => left + ((right - left) * tick) / Math.max(1, this.end);
    const y = (value) => bottom - ((bottom - top) * (value - low)) / (high - low);
    context.strokeStyle = o.axis;
    context.lineWidth = 1;
    context.strokeRect(left, top, right - left, bottom - top);
    context.fillStyle = o.label;
    context.font = "11px sans-serif";
    context.textAlign = "right";
    context.textBaseline = "top";
    context.fillText(formatCompact(high), left - 4, top);
    context.textBaseline = "bottom";
    context.fillText(formatCompact(low), left - 4, bottom);
    context.textAlign = "left";
    context.textBaseline = "top";
    context.fillText("0", left, bottom + 3);
    context.textAlign = "right";
    context.fillText(`tick ${this.end}`, right, bottom + 3);
    const vertical = (tick, colour) => {
      // NB: on a whole device pixel, so that the line is its colour and not a blur of it.
      const at = (Math.round(x(tick) * ratio) + 0.5) / ratio;
      context.strokeStyle = colour;
      context.lineWidth = 1 / ratio;
      context.beginPath();
      context.moveTo(at, top);
      context.lineTo(at, bottom);
      context.stroke();
    };
    if (this.parted !== null) vertical(this.parted, o.parted);
    vertical(this.tick, o.now);
    context.lineWidth = o.lineWidth;
    lines.forEach((line, pane) => {
      context.strokeStyle = this.colors[pane % this.colors.length];
      context.beginPath();
      let drawnX = -Infinity;
      for (let tick = 0; tick < line.length; tick += 1) {
        const value = line[tick];
        if (Number.isNaN(value)) continue; // NB: unseen ticks (a busy viewer's) are bridged
        // NB: a long group has more ticks than the chart has pixels: half a pixel apart at least.
        if (x(tick) - drawnX < 0.5) continue;
        if (drawnX === -Infinity) context.moveTo(x(tick), y(value));
        else context.lineTo(x(tick), y(value));
        drawnX = x(tick);
      }
      context.stroke();
    });
  }
}
