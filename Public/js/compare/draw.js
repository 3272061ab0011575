// Compare: how one pane of each kind is drawn from its `hello` (the static part) and a frame
// (docs/protocol.md, "Compare"). The world is fitted into the canvas with its aspect kept.

/** Most of the window's height one pane may take, so that the transport stays in view. */
const maxHeightShare = 0.55;

/** Fits `world` ({width, height}) into `canvas` (its pane's width, at most `maxHeightShare` of
 * the window high) at the device's pixel ratio; returns the scale. */
function fit(canvas, world) {
  const ratio = window.devicePixelRatio || 1;
  const box = canvas.parentElement?.clientWidth || canvas.clientWidth;
  const cssWidth = Math.min(box, (window.innerHeight * maxHeightShare * world.width) / world.height);
  canvas.style.width = `${Math.max(1, Math.floor(cssWidth))}px`;
  const width = Math.max(1, Math.round(cssWidth * ratio));
  const height = Math.max(1, Math.round((width * world.height) / world.width));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  return width / world.width;
}

function dot(context, x, y, radius, colour) {
  context.fillStyle = colour;
  context.beginPath();
  context.arc(x, y, radius, 0, 2 * Math.PI);
  context.fill();
}

function balls(context, hello, frame) {
  const positions = frame.positions || [];
  for (let i = 0; i * 2 < positions.length; i += 1) {
    const radius = hello.radii?.[i] ?? (hello.radiusRange?.[0] ?? 5);
    const colour = hello.palette?.[hello.colors?.[i] ?? 0] ?? "#ffd400";
    dot(context, positions[2 * i], positions[2 * i + 1], radius, colour);
  }
}

function maze(context, hello, frame) {
  const rows = hello.cells || [];
  context.fillStyle = hello.colors?.block ?? "#d3d3d3";
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c += 1) {
      if (row[c] === "#") {
        context.fillRect(c * hello.cellWidth, r * hello.cellHeight, hello.cellWidth, hello.cellHeight);
      }
    }
  });
  if (frame.ball) dot(context, frame.ball[0], frame.ball[1], hello.radius, hello.colors?.ball ?? "#ffd400");
}

function holes(context, hello, frame) {
  context.fillStyle = hello.colors?.table ?? "#1b7a2e";
  context.fillRect(0, 0, hello.world.width, hello.world.height);
  const centres = frame.holes || [];
  for (let i = 0; i * 2 < centres.length; i += 1) {
    dot(context, centres[2 * i], centres[2 * i + 1], frame.holeRadius, hello.colors?.hole ?? "#000");
  }
  const flag = hello.flag;
  if (flag) {
    context.fillStyle = hello.colors?.flag ?? "#fff";
    context.fillRect(flag.x, flag.y, flag.size, flag.size);
  }
  if (frame.ball) dot(context, frame.ball[0], frame.ball[1], hello.ballRadius, hello.colors?.ball ?? "#ffd400");
}

function tagCloud(context, hello, frame) {
  const points = frame.points || [];
  const order = frame.order || [];
  context.textAlign = "center";
  context.textBaseline = "middle";
  for (const i of order) {
    const tag = hello.tags?.[i];
    const size = 16 * (hello.sizes?.[i] ?? 1) * (frame.scale?.[i] ?? 1);
    context.globalAlpha = frame.opacity?.[i] ?? 1;
    context.fillStyle = hello.colors?.text ?? "#e8eef2";
    context.font = `${size.toFixed(1)}px sans-serif`;
    context.fillText(tag?.text ?? tag?.name ?? "•", points[2 * i], points[2 * i + 1]);
  }
  context.globalAlpha = 1;
}

/** Any other kind: its frame's numbers as text. */
function readouts(context, hello, frame, scale) {
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

const drawers = { "bouncing-balls": balls, maze, holes, "tag-cloud": tagCloud };

/** The world a pane of this hello draws in. */
export function worldOf(hello) {
  return hello.world ?? { width: 640, height: 480 };
}

/** Draws one pane: `hello` (with `kind`) and the pane's `frame`. */
export function drawPane(canvas, kind, hello, frame) {
  const world = worldOf(hello);
  const scale = fit(canvas, world);
  const context = canvas.getContext("2d");
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.fillStyle = hello.colors?.background ?? "#000";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.setTransform(scale, 0, 0, scale, 0, 0);
  (drawers[kind] ?? readouts)(context, hello, frame, scale);
}
