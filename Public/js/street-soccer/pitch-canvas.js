// Street soccer's board as a picture (the compare page's panes; the demo page's pitch is made
// of buttons): the same squares, goal mouths and areas in the page's colours, the players in
// their kits' shirts (shirt.js) and the ball, from a `hello`'s pitch and a frame's board.

import { drawShirt } from "./shirt.js";

/** The pitch's look, in world units: one square is `cell` wide. */
const look = {
  cell: 40,
  gap: 2,
  padding: 4,
  grass: "#1f5f2c", // between the squares
  square: "#2e8540",
  area: "#3a9a4e",
  goal: "#d9d9d9",
  shirtShare: 0.88, // of a square
  ballShare: 0.34, // of a square, at its bottom right
};

/** The world a board of `pitch` is drawn in: the columns and the two goals, by the rows. */
export function pitchWorld(pitch) {
  const { columns, rows } = pitch;
  return {
    width: (columns + 2) * (look.cell + look.gap) - look.gap + 2 * look.padding,
    height: rows * (look.cell + look.gap) - look.gap + 2 * look.padding,
  };
}

function drawBall(context, left, top) {
  const r = (look.cell * look.ballShare) / 2;
  const x = left + look.cell * 0.94 - r;
  const y = top + look.cell * 0.94 - r;
  const shine = context.createRadialGradient(x - r * 0.3, y - r * 0.3, 0, x, y, r);
  shine.addColorStop(0, "#fff");
  shine.addColorStop(0.45, "#fff");
  shine.addColorStop(0.7, "#bbb");
  shine.addColorStop(1, "#222");
  context.fillStyle = shine;
  context.strokeStyle = "#111";
  context.lineWidth = 1;
  context.beginPath();
  context.arc(x, y, r, 0, Math.PI * 2);
  context.fill();
  context.stroke();
}

/** Draws the board of `frame` (board, kits) on the pitch of `hello` (pitch) in world units. */
export function drawPitch(context, hello, frame) {
  const { columns, rows, mouth, areaRows, areaDepth } = hello.pitch;
  const world = pitchWorld(hello.pitch);
  context.fillStyle = look.grass;
  context.fillRect(0, 0, world.width, world.height);
  const step = look.cell + look.gap;
  const corner = (x, y) => [look.padding + (x + 1) * step, look.padding + y * step];
  for (let y = 0; y < rows; y += 1) {
    for (let x = -1; x <= columns; x += 1) {
      const isGoal = x < 0 || x === columns;
      if (isGoal && (y < mouth[0] || y > mouth[1])) continue; // grass beside the goal
      const inArea =
        !isGoal && y >= areaRows[0] && y <= areaRows[1] && (x < areaDepth || x >= columns - areaDepth);
      context.fillStyle = isGoal ? look.goal : inArea ? look.area : look.square;
      const [left, top] = corner(x, y);
      context.beginPath();
      context.roundRect(left, top, look.cell, look.cell, 3);
      context.fill();
    }
  }
  const board = frame.board;
  const kits = frame.kits;
  if (!board || !kits) return;
  const size = look.cell * look.shirtShare;
  const inset = (look.cell - size) / 2;
  for (let lane = 0; lane < 10; lane += 1) {
    const [left, top] = corner(board.pieces[2 * lane], board.pieces[2 * lane + 1]);
    const kit = kits[lane < 5 ? "home" : "away"];
    // NB: the shirt's box is 40 x 48; centred in the square at the square's height.
    drawShirt(context, kit, (lane % 5) + 1, left + inset + (size - (size * 40) / 48) / 2, top + inset, size);
  }
  if (board.ball) {
    const [left, top] = corner(board.ball[0], board.ball[1]);
    drawBall(context, left, top);
  }
}
