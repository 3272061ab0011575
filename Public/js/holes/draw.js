// Holes' picture: the green table, the flag, the holes with their rims and the ball, drawn
// from the table (a `hello`: world, ballRadius, flag, colors) and two frames blended by `alpha`
// (the same frame twice for a still). The demo page and the compare page's panes draw with it.

import { lerp } from "../lib/frames.js";

const look = {
  holeRim: "rgba(0, 0, 0, 0.35)", // the shadow ring around each hole
  flagPole: "#000000", // the flag's outline
};

/** The seed's flag: a white pennant on a pole in a `size` square at the top left. */
function drawFlag(context, flag, colors) {
  const s = flag.size;
  context.beginPath();
  context.moveTo(flag.x + 0.2 * s, flag.y + 0.9 * s);
  context.lineTo(flag.x + 0.2 * s, flag.y + 0.1 * s);
  context.lineTo(flag.x + 0.8 * s, flag.y + 0.3 * s);
  context.lineTo(flag.x + 0.2 * s, flag.y + 0.5 * s);
  context.closePath();
  context.fillStyle = colors.flag;
  context.strokeStyle = look.flagPole;
  context.lineWidth = 1.5;
  context.fill();
  context.stroke();
}

/** Draws `table` between frames `a` and `b` on a context in world units. */
export function drawTable(context, table, a, b, alpha) {
  const { world, ballRadius, flag, colors } = table;
  context.fillStyle = colors.table;
  context.fillRect(0, 0, world.width, world.height);
  if (flag) drawFlag(context, flag, colors);
  const radius = lerp(a.holeRadius, b.holeRadius, alpha);
  for (let i = 0; i < b.holes.length; i += 2) {
    const x = lerp(a.holes[i] ?? b.holes[i], b.holes[i], alpha);
    const y = lerp(a.holes[i + 1] ?? b.holes[i + 1], b.holes[i + 1], alpha);
    context.fillStyle = look.holeRim;
    context.beginPath();
    context.arc(x, y, radius + 3, 0, Math.PI * 2);
    context.fill();
    context.fillStyle = colors.hole;
    context.beginPath();
    context.arc(x, y, radius, 0, Math.PI * 2);
    context.fill();
  }
  if (b.ball) {
    const from = a.ball ?? b.ball;
    context.fillStyle = colors.ball;
    context.beginPath();
    const x = lerp(from[0], b.ball[0], alpha);
    const y = lerp(from[1], b.ball[1], alpha);
    context.arc(x, y, ballRadius, 0, Math.PI * 2);
    context.fill();
  }
}
