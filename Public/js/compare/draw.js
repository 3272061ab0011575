// Compare: each pane drawn with its demo's own picture code (the same modules the demo pages
// draw with), from the pane's `hello` (the static part) and a frame (docs/protocol.md,
// "Compare"). The world is fitted into the canvas with its aspect kept.

import { BallPainter } from "../bouncing-balls/painter.js";
import { drawTable } from "../holes/draw.js";
import { drawMaze } from "../maze/draw.js";
import { paintPicture } from "../paintbrush/paint.js";
import { drawPitch, pitchWorld } from "../street-soccer/pitch-canvas.js";
import { drawCloud } from "../tag-cloud/look.js";

/** Most of the window's height one pane may take, so that the transport stays in view. */
const maxHeightShare = 0.55;

/** Fits `world` ({width, height}) into `canvas`, at most `cssWidth` CSS px wide and
 * `maxHeightShare` of the window high, at the device's pixel ratio; returns CSS px per unit. */
function fit(canvas, world, cssWidth) {
  const ratio = window.devicePixelRatio || 1;
  const tallest = (window.innerHeight * maxHeightShare * world.width) / world.height;
  const shown = Math.max(1, Math.floor(Math.min(cssWidth, tallest)));
  canvas.style.width = `${shown}px`;
  const width = Math.max(1, Math.round(shown * ratio));
  const height = Math.max(1, Math.round((width * world.height) / world.width));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  return shown / world.width;
}

/** Any kind without a picture here: its frame's numbers as text. */
function readouts(context, frame, scale) {
  context.fillStyle = "#e8eaf0";
  context.font = `${(14 / scale).toFixed(1)}px sans-serif`;
  let y = 20 / scale;
  for (const [key, value] of Object.entries(frame)) {
    if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
      context.fillText(`${key}: ${value}`, 10 / scale, y);
      y += 18 / scale;
    }
  }
}

/** What draws a pane of each kind: `(hello) => (context, frame, scale)`. */
const pictures = {
  "bouncing-balls": (hello) => {
    const painter = new BallPainter();
    painter.adopt(hello);
    return (context, frame, scale) => {
      painter.draw(context, frame.positions ?? [], scale);
      painter.drawEdge(context, scale);
    };
  },
  maze: (hello) => (context, frame, scale) => drawMaze(context, hello, frame.ball, scale),
  holes: (hello) => (context, frame) => drawTable(context, hello, frame, frame, 1),
  "tag-cloud": (hello) => (context, frame) => drawCloud(context, hello, frame),
  paintbrush: (hello) => (context) => paintPicture(context, hello),
  "street-soccer": (hello) => (context, frame) => drawPitch(context, hello, frame),
};

/** The world a pane of this kind and hello draws in. */
export function worldOf(kind, hello) {
  if (kind === "street-soccer" && hello.pitch) return pitchWorld(hello.pitch);
  return hello.world ?? { width: 640, height: 480 };
}

/** One pane's picture: its canvas, drawn from its hello and each frame. */
export class PanePicture {
  constructor(canvas, kind, hello) {
    this.canvas = canvas;
    this.hello = hello;
    this.world = worldOf(kind, hello);
    this.picture = pictures[kind]?.(hello) ?? ((context, frame, scale) => readouts(context, frame, scale));
  }

  /** Draws `frame` at most `cssWidth` CSS px wide. */
  draw(frame, cssWidth) {
    const scale = fit(this.canvas, this.world, cssWidth);
    const k = this.canvas.width / this.world.width;
    const context = this.canvas.getContext("2d");
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = this.hello.colors?.background ?? "#000";
    context.fillRect(0, 0, this.canvas.width, this.canvas.height);
    context.setTransform(k, 0, 0, k, 0, 0);
    this.picture(context, frame, scale);
  }
}
