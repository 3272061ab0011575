// Bouncing balls' picture: the box, the balls in their colours and the box's edge, drawn from
// a `hello` (world, palette, radii, colours) and a frame's positions. The demo page and the
// compare page's panes draw with it.

/** How the box looks. */
export const ballLook = {
  background: "#000000", // the box
  border: "#2b303b", // the box's edge
  squareBelowPx: 2.5, // balls smaller than this radius on screen (CSS px) are drawn as squares
};

export class BallPainter {
  constructor() {
    this.world = { width: 320, height: 480, boundary: "walls" };
    this.palette = [];
    this.radii = [];
    this.colors = [];
    this.radiusFallback = 15;
    this.byColor = []; // ball indices grouped by colour, rebuilt when the balls change
    this.groupedCount = -1;
  }

  /** Takes the look of a `hello` (or a reset's). */
  adopt(hello) {
    this.world = hello.world;
    this.palette = hello.palette ?? [];
    this.radii = (hello.radii ?? []).slice();
    this.colors = (hello.colors ?? []).slice();
    const range = hello.radiusRange ?? [15, 15];
    this.radiusFallback = (range[0] + range[1]) / 2;
    this.groupedCount = -1;
  }

  /** A ball added after the hello. */
  added(index, radius, color) {
    this.radii[index] = radius;
    this.colors[index] = color;
    this.groupedCount = -1;
  }

  group(count) {
    this.byColor = this.palette.map(() => []);
    for (let i = 0; i < count; i += 1) {
      const color = this.colors[i] ?? i % this.palette.length;
      this.byColor[color]?.push(i);
    }
    this.groupedCount = count;
  }

  /** The box and the balls at `points` ([x0, y0, x1, y1, ...]) on a context in world units,
   * `scale` CSS px per world unit. */
  draw(context, points, scale) {
    const count = points.length / 2;
    if (count !== this.groupedCount) this.group(count);
    context.fillStyle = ballLook.background;
    context.fillRect(0, 0, this.world.width, this.world.height);
    for (let color = 0; color < this.byColor.length; color += 1) {
      const members = this.byColor[color];
      if (!members.length) continue;
      context.fillStyle = this.palette[color];
      context.beginPath();
      for (const i of members) {
        const r = this.radii[i] ?? this.radiusFallback;
        const x = points[2 * i];
        const y = points[2 * i + 1];
        if (r * scale < ballLook.squareBelowPx) {
          // NB: tiny arcs cost as much to fill as big ones; a square of the same area looks the same.
          const half = r * 0.886;
          context.rect(x - half, y - half, 2 * half, 2 * half);
        } else {
          context.moveTo(x + r, y);
          context.arc(x, y, r, 0, Math.PI * 2);
        }
      }
      context.fill();
    }
  }

  /** The box's edge, over everything else. */
  drawEdge(context, scale) {
    context.strokeStyle = ballLook.border;
    context.lineWidth = 2 / scale;
    context.strokeRect(0, 0, this.world.width, this.world.height);
  }
}
