// Street soccer moves on the page's side: what a confirmed move did to the board, for the
// animation of a turn (live, and when the match is re-watched). The server is the referee;
// this only replays moves it has accepted, from the `last` turn of a frame.

/** The board `{pieces: [x, y, ...10 pieces], ball: [x, y]}` after `move` by `side`. */
export function afterMove(board, side, move) {
  const pieces = board.pieces.slice();
  let ball = board.ball.slice();
  const lane = (side === "home" ? 0 : 5) + move.piece - 1;
  const at = [pieces[2 * lane], pieces[2 * lane + 1]];
  if (move.move === "step") {
    if (ball[0] === at[0] && ball[1] === at[1]) ball = move.to.slice();
    pieces[2 * lane] = move.to[0];
    pieces[2 * lane + 1] = move.to[1];
  } else if (move.move === "kick" && move.result === "saved") {
    const keeper = side === "home" ? 5 : 0; // the other side's goalkeeper holds it
    ball = [pieces[2 * keeper], pieces[2 * keeper + 1]];
  } else if (move.move === "kick") {
    ball = move.to.slice();
  } else if (move.move === "tackle") {
    ball = at;
  }
  return { pieces, ball };
}

/** The boards of a turn: its start, then after each move. */
export function turnBoards(last) {
  const boards = [last.start];
  for (const move of last.moves) boards.push(afterMove(boards[boards.length - 1], last.side, move));
  return boards;
}

/** `home 3 steps to 4, 2` (squares counted from 1 for people). */
export function describeMove(side, move) {
  const to = `${move.to[0] + 1}, ${move.to[1] + 1}`;
  const verb = { step: "steps to", kick: "kicks to", tackle: "tackles at" }[move.move] ?? move.move;
  const result = move.result && move.result !== "step" ? ` (${move.result})` : "";
  return `${side} ${move.piece} ${verb} ${to}${result}`;
}
