// Paintbrush's picture: marks (batches of a stroke's points) painted in order on the
// background. The demo page and the compare page's panes paint with it.

/** Draws one mark: a round-capped line of its radius, or a dot when it has one point. */
export function paintMark(context, mark) {
  const p = mark.points;
  context.fillStyle = mark.color;
  context.strokeStyle = mark.color;
  context.beginPath();
  if (p.length === 2) {
    context.arc(p[0], p[1], mark.radius, 0, Math.PI * 2);
    context.fill();
    return;
  }
  context.lineWidth = 2 * mark.radius;
  context.lineCap = "round";
  context.lineJoin = "round";
  context.moveTo(p[0], p[1]);
  for (let i = 2; i < p.length; i += 2) context.lineTo(p[i], p[i + 1]);
  context.stroke();
}

/** Paints a whole picture (`{world, background, marks}`) on a context in world units. */
export function paintPicture(context, { world, background, marks }) {
  context.fillStyle = background;
  context.fillRect(0, 0, world.width, world.height);
  for (const mark of marks) paintMark(context, mark);
}
