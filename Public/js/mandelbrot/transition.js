// A smooth move from one view to another: the zoom changes at a steady rate in levels and the
// centre moves so that the point both views share on screen stays put (for a quadrant tap,
// the quadrant's outer corner), which reads as flying into the picture rather than sliding.

import { frameLevel, reframe } from "./geometry.js";

/** Options of the animation. */
const options = {
  perLevel: 260, // ms per level of zoom change
  minimum: 180, // ms for the shortest move (a pan by keys)
  maximum: 900, // ms for the longest (a reset from deep down)
  maxFrameJump: 30, // levels between the two views' frames past which the move is a cut
};

export class Transition {
  /** A move from view `from` to view `to` starting at `start` (ms). */
  constructor(from, to, start) {
    // NB: both views are brought into `to`'s frame; frames far apart would overflow doubles.
    const jump = Math.abs(frameLevel(from) - frameLevel(to));
    this.from = jump <= options.maxFrameJump ? reframe(from, frameLevel(to)) : to;
    if (to.frame) this.from = { ...this.from, frame: to.frame };
    from = this.from;
    this.to = to;
    this.start = start;
    const levels = Math.abs(to.zoom - from.zoom);
    this.duration = Math.min(options.maximum, Math.max(options.minimum, levels * options.perLevel));
    const a = 1;
    const b = 2 ** (from.zoom - to.zoom);
    // The fixed point p solves (p - from) / a = (p - to) / b; none when the sides are equal.
    this.fixed =
      Math.abs(a - b) > a * 1e-9
        ? { x: (to.x * a - from.x * b) / (a - b), y: (to.y * a - from.y * b) / (a - b) }
        : null;
  }

  /** Whether the move is over at `now` (ms). */
  done(now) {
    return now >= this.start + this.duration;
  }

  /** The view at `now` (ms). */
  at(now) {
    if (this.done(now)) return this.to;
    const t = Math.max(0, (now - this.start) / this.duration);
    const eased = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    const zoom = this.from.zoom + (this.to.zoom - this.from.zoom) * eased;
    if (!this.fixed) {
      return {
        ...this.to,
        x: this.from.x + (this.to.x - this.from.x) * eased,
        y: this.from.y + (this.to.y - this.from.y) * eased,
        zoom,
      };
    }
    const shrink = 2 ** (this.from.zoom - zoom);
    return {
      ...this.to,
      x: this.fixed.x + (this.from.x - this.fixed.x) * shrink,
      y: this.fixed.y + (this.from.y - this.fixed.y) * shrink,
      zoom,
    };
  }
}
