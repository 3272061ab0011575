// Maze ball (seed "Maze"): a grid of black cells where a tap toggles a light-grey block, and a
// yellow ball steered by tilt. The server owns the maze; the page redraws it from the `maze`
// events and sends taps as `toggle` inputs. Mazes can be saved by name and loaded again.

import { requestJSON } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { lerp } from "../lib/frames.js";
import { drawMaze } from "../maze/draw.js";
import { SavedMazes } from "../maze/saved-mazes.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the server's defaults (12 x 12 cells)
  tapSlop: 10, // px of pointer travel below which a press counts as a tap
};

let view = null;
let maze = null; // {rows, columns, cellWidth, cellHeight, radius, cells: ["#..", ...], colors}

function adopt(message) {
  maze = {
    world: message.world,
    rows: message.rows,
    columns: message.columns,
    cellWidth: message.cellWidth,
    cellHeight: message.cellHeight,
    radius: message.radius,
    cells: message.cells,
    colors: message.colors,
  };
}

function draw(sample) {
  const { a, b, alpha } = sample;
  const ball = [lerp(a.ball[0], b.ball[0], alpha), lerp(a.ball[1], b.ball[1], alpha)];
  drawMaze(view.context2d(), maze, ball, view.scale);
}

function bindTaps(canvas, demo) {
  let press = null;
  canvas.addEventListener("pointerdown", (event) => {
    if (!demo.client?.controls || !view) return;
    event.preventDefault();
    press = { x: event.clientX, y: event.clientY };
  });
  canvas.addEventListener("pointerup", (event) => {
    if (!press) return;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    press = null;
    if (moved > options.tapSlop || !maze) return;
    const p = view.toWorld(event);
    const row = Math.floor(p.y / maze.cellHeight);
    const col = Math.floor(p.x / maze.cellWidth);
    if (row < 0 || col < 0 || row >= maze.rows || col >= maze.columns) return;
    demo.send({ type: "toggle", row, col });
  });
  canvas.addEventListener("pointercancel", () => {
    press = null;
  });
}

/**
 * `?maze=NAME`: a new session starts with that saved maze. Takes the name out of the address
 * (a reload resumes the session); returns `{config, problem}`.
 */
async function savedLayout() {
  const query = new URLSearchParams(location.search);
  const name = query.get("maze");
  if (name === null) return { config: null, problem: null };
  query.delete("maze");
  history.replaceState(null, "", `${location.pathname}${query.size ? `?${query}` : ""}`);
  try {
    const saved = await requestJSON(`/api/mazes/${encodeURIComponent(name)}`);
    const cells = saved.cells;
    return { config: { rows: cells.length, columns: cells[0].length, cells }, problem: null };
  } catch (error) {
    return { config: null, problem: `No saved maze "${name}": ${error.message}` };
  }
}

const layout = await savedLayout();
const page = await runDemo({
  kind: "maze",
  config: layout.config ?? options.config,
  fresh: Boolean(layout.config),
  urlConfig: ["rows", "columns", "gravity", "restitution"],
  inputs: ["tilt", "toggle", "clear", "load", "reset"],
  events: ["maze", "ball-moved", "reset", "bump"],
  controls(demo) {
    bindTaps($("canvas.view", demo.root), demo);
    demo.bind("clear", { type: "clear" });
    demo.bind("reset", { type: "reset" });
    demo.useTilt();
    new SavedMazes(demo.root, demo, () => maze?.cells ?? null);
  },
  hello(message, demo) {
    adopt(message);
    view = demo.fit(maze.world);
  },
  event(message, demo) {
    if (message.name === "maze") {
      maze.cells = message.cells;
      demo.redraw();
    } else if (message.name === "ball-moved" || message.name === "reset") {
      demo.frames.cut(message.tick);
    }
  },
  draw,
});
if (layout.problem) page.notice(layout.problem, "error");
