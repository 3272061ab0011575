// Maze ball's picture: the grid, the blocks and the ball, drawn from the maze (a `hello`'s
// world, rows, columns, cell size, radius, cells and colours). The demo page and the compare
// page's panes draw with it.

/** Faint cell lines on the black background, to aim taps. */
const gridLine = "#1c1c1c";

/** Draws `maze` with its ball at `[x, y]` on a context in world units, `scale` CSS px per
 * world unit. */
export function drawMaze(context, maze, ball, scale) {
  const { world, rows, columns, cellWidth, cellHeight, radius, cells, colors } = maze;
  context.fillStyle = colors.background;
  context.fillRect(0, 0, world.width, world.height);
  context.strokeStyle = gridLine;
  context.lineWidth = 1 / scale;
  context.beginPath();
  for (let column = 1; column < columns; column += 1) {
    context.moveTo(column * cellWidth, 0);
    context.lineTo(column * cellWidth, world.height);
  }
  for (let row = 1; row < rows; row += 1) {
    context.moveTo(0, row * cellHeight);
    context.lineTo(world.width, row * cellHeight);
  }
  context.stroke();
  context.fillStyle = colors.block;
  for (let row = 0; row < rows; row += 1) {
    const line = cells[row];
    for (let column = 0; column < columns; column += 1) {
      if (line[column] === "#") {
        // NB: a hair of overlap so that neighbouring blocks join without seams.
        context.fillRect(column * cellWidth, row * cellHeight, cellWidth + 0.3, cellHeight + 0.3);
      }
    }
  }
  if (!ball) return;
  context.fillStyle = colors.ball;
  context.beginPath();
  context.arc(ball[0], ball[1], radius, 0, Math.PI * 2);
  context.fill();
}
