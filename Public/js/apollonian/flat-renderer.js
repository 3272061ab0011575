// The fallback without WebGL2: the same spheres as shaded discs on a 2D canvas, far ones
// first. Slower, but it shows the packing.

import { levelColours } from "./palette.js";

/** How many spheres the flat drawing shows at most (the largest come first in the data). */
const maxDiscs = 40000;

export class FlatRenderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.kind = "2d";
    this.count = 0;
    this.data = null;
  }

  setSpheres(data) {
    this.data = data;
    this.count = data.count;
  }

  /** Draws with the same `view` and `projection` matrices as the WebGL renderer. */
  draw(view, projection) {
    const { canvas, context } = this;
    const { width, height } = canvas;
    context.fillStyle = "#000";
    context.fillRect(0, 0, width, height);
    if (!this.data) return;
    const { spheres, levels } = this.data;
    const discs = [];
    const limit = Math.min(this.count, maxDiscs);
    for (let i = 0; i < limit; i++) {
      const [x, y, z, r] = spheres.subarray(4 * i, 4 * i + 4);
      if (r <= 0) continue;
      const ex = view[0] * x + view[4] * y + view[8] * z + view[12];
      const ey = view[1] * x + view[5] * y + view[9] * z + view[13];
      const ez = view[2] * x + view[6] * y + view[10] * z + view[14];
      if (ez >= -r) continue;
      discs.push([ez, ex, ey, r, levels[i]]);
    }
    discs.sort((a, b) => a[0] - b[0]);
    const scaleX = (projection[0] * width) / 2;
    const scaleY = (projection[5] * height) / 2;
    for (const [ez, ex, ey, r, level] of discs) {
      const sx = width / 2 + (scaleX * ex) / -ez;
      const sy = height / 2 - (scaleY * ey) / -ez;
      const sr = (scaleY * r) / -ez;
      if (sr < 0.3) continue;
      const colour = levelColours[Math.min(level, levelColours.length - 1)];
      const gradient = context.createRadialGradient(sx - sr / 3, sy - sr / 3, sr / 8, sx, sy, sr);
      gradient.addColorStop(0, "#fff");
      gradient.addColorStop(0.25, colour);
      gradient.addColorStop(1, "#000");
      context.fillStyle = gradient;
      context.beginPath();
      context.arc(sx, sy, sr, 0, 2 * Math.PI);
      context.fill();
    }
  }
}
