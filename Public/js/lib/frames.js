// Frames in, smooth pictures out: the server steps at a fixed 60 Hz and the page draws on
// requestAnimationFrame at whatever rate the screen has, so it draws slightly in the past and
// interpolates between the two frames around that moment ("Fix Your Timestep!", Fiedler).

/** Tunables of the buffer. */
export const frameOptions = {
  tickMs: 1000 / 60, // server tick, in ms
  delayMs: 30, // how far in the past to draw, in ms (covers network jitter)
  capacity: 12, // frames kept
  resyncMs: 250, // a frame this much later than expected restarts the clock (after a pause)
  drift: 0.02, // how fast the clock follows frames that arrive steadily later (0 to 1)
  maxGap: 30, // ticks; frames further apart than this are not blended (a jump)
};

/**
 * Keeps the newest frames with their arrival times and answers "what should be on screen now":
 * the two frames around the drawing moment and how far between them it is.
 */
export class FrameBuffer {
  constructor(options = {}) {
    this.options = { ...frameOptions, ...options };
    this.base = { tickMs: this.options.tickMs, delayMs: this.options.delayMs };
    this.frames = [];
    this.offset = null; // ms: arrival time minus tick time of the least delayed frame
    this.cutTick = -1; // frames before this tick are not blended with frames from it on
    this.received = 0;
  }

  /** Forgets everything (a new `hello`: the session may have jumped). */
  reset() {
    this.frames = [];
    this.offset = null;
    this.cutTick = -1;
  }

  /** Adds a frame received at `now` (performance.now() ms). Older or repeated ticks are dropped. */
  push(frame, now = performance.now()) {
    const newest = this.newest;
    if (newest && frame.tick <= newest.tick) return;
    this.received += 1;
    const offset = now - frame.tick * this.options.tickMs;
    const early = this.offset === null || offset < this.offset;
    if (early || offset - this.offset > this.options.resyncMs) {
      this.offset = offset;
    } else {
      this.offset += (offset - this.offset) * this.options.drift;
    }
    this.frames.push(frame);
    if (this.frames.length > this.options.capacity) this.frames.shift();
  }

  /**
   * Plays ticks `speed` times as fast as the server's rate (a replay at 0.25x to 8x), keeping
   * the drawing moment where it is.
   */
  setSpeed(speed, now = performance.now()) {
    const tick = this.drawingTick(now);
    this.options.tickMs = this.base.tickMs / speed;
    // NB: frames come at most once per server tick, so below 1x one comes every 1/speed
    // server ticks: draw that much further in the past to have two frames to blend.
    this.options.delayMs = this.base.delayMs + Math.max(0, this.options.tickMs - this.base.tickMs);
    if (this.offset !== null) this.offset = now - this.options.delayMs - tick * this.options.tickMs;
  }

  /** Marks a jump in the state at `tick` (a reset, a new ball): no blending across it. */
  cut(tick) {
    this.cutTick = Math.max(this.cutTick, tick);
  }

  /** The newest frame, or null. */
  get newest() {
    return this.frames.length ? this.frames[this.frames.length - 1] : null;
  }

  /** The tick (fractional) to draw at `now`. */
  drawingTick(now = performance.now()) {
    if (this.offset === null) return 0;
    return (now - this.offset - this.options.delayMs) / this.options.tickMs;
  }

  /**
   * `{a, b, alpha}`: draw `a` blended towards `b` by `alpha` in [0, 1] (a === b when there is
   * nothing to blend), or null before the first frame.
   */
  sample(now = performance.now()) {
    const frames = this.frames;
    if (!frames.length) return null;
    const tick = this.drawingTick(now);
    const last = frames[frames.length - 1];
    if (tick >= last.tick || frames.length === 1) return { a: last, b: last, alpha: 0 };
    if (tick <= frames[0].tick) return { a: frames[0], b: frames[0], alpha: 0 };
    let index = frames.length - 1;
    while (index > 0 && frames[index - 1].tick > tick) index -= 1;
    const a = frames[index - 1];
    const b = frames[index];
    const gap = b.tick - a.tick;
    if (gap > this.options.maxGap || (a.tick < this.cutTick && b.tick >= this.cutTick)) {
      return { a, b: a, alpha: 0 };
    }
    return { a, b, alpha: (tick - a.tick) / gap };
  }
}

/** Blends two numbers. */
export function lerp(a, b, t) {
  return a + (b - a) * t;
}

/**
 * Blends two flat number arrays into `out` (reused between calls); entries missing from
 * `a` (a ball added since) take `b`'s value. Returns `out`.
 */
export function lerpArray(out, a, b, t) {
  const length = b.length;
  if (out.length !== length) out = new Float64Array(length);
  const shared = Math.min(a.length, length);
  for (let i = 0; i < shared; i += 1) out[i] = a[i] + (b[i] - a[i]) * t;
  for (let i = shared; i < length; i += 1) out[i] = b[i];
  return out;
}

/** Counts events per second over a sliding one-second window. */
export class RateMeter {
  constructor() {
    this.times = [];
  }

  /** Records one event at `now` ms. */
  tick(now = performance.now()) {
    this.times.push(now);
    this.trim(now);
  }

  /** Events in the last second. */
  rate(now = performance.now()) {
    this.trim(now);
    return this.times.length;
  }

  trim(now) {
    while (this.times.length && now - this.times[0] > 1000) this.times.shift();
  }
}
