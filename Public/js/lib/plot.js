// A small rolling line plot: the last seconds of a few quantities, drawn on a canvas. Each
// series is scaled to its own range over the window, so shapes read at a glance; the legend
// says what each colour is.

/** Options of every plot. */
const plotOptions = {
  seconds: 10, // the window shown, in s
  samplesPerSecond: 20, // samples kept per second (pushes in between are dropped)
  background: "#0c0f13", // the plot area
  grid: "#2b303b", // the zero line and frame
  lineWidth: 1.5, // in CSS px
};

/** Gives `canvas` as many pixels as its CSS box has device pixels; returns the ratio. */
export function sizeToBox(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  return ratio;
}

export class RollingPlot {
  /**
   * Draws into `canvas`. `series` is `[{name, color, symmetric}]`; a `symmetric` series is
   * scaled about zero (values of both signs), the others from zero up.
   */
  constructor(canvas, series, options = {}) {
    this.canvas = canvas;
    this.series = series;
    this.options = { ...plotOptions, ...options };
    this.capacity = Math.round(this.options.seconds * this.options.samplesPerSecond);
    this.samples = []; // arrays of values, oldest first
    this.lastAt = -Infinity;
    this.queued = false;
    canvas.setAttribute("role", "img");
  }

  /** Adds one sample (an array, one value per series) taken at `now` ms. */
  push(values, now = performance.now()) {
    if (now - this.lastAt < 1000 / this.options.samplesPerSecond) return;
    this.lastAt = now;
    this.samples.push(values);
    if (this.samples.length > this.capacity) this.samples.shift();
    if (!this.queued) {
      this.queued = true;
      requestAnimationFrame(() => {
        this.queued = false;
        this.draw();
      });
    }
  }

  /** Forgets every sample (after a reset the old line would mislead). */
  clear() {
    this.samples = [];
    this.lastAt = -Infinity;
    this.draw();
  }

  draw() {
    const canvas = this.canvas;
    const ratio = sizeToBox(canvas);
    const { width, height } = canvas;
    const context = canvas.getContext("2d");
    context.fillStyle = this.options.background;
    context.fillRect(0, 0, width, height);
    const pad = 2 * ratio;
    const plotHeight = height - 2 * pad;
    const step = (width - 2 * pad) / Math.max(1, this.capacity - 1);
    const offset = this.capacity - this.samples.length;
    this.series.forEach((series, index) => {
      const values = this.samples.map((sample) => sample[index]);
      const finite = values.filter(Number.isFinite);
      if (finite.length === 0) return;
      // NB: headroom above the largest value keeps a steady line off the plot's edge.
      const top = (Math.max(...finite.map(Math.abs)) || 1) * 1.2;
      const low = series.symmetric ? -top : 0;
      const y = (value) => pad + plotHeight * (1 - (value - low) / (top - low));
      if (series.symmetric) {
        context.strokeStyle = this.options.grid;
        context.lineWidth = ratio;
        context.beginPath();
        context.moveTo(pad, y(0));
        context.lineTo(width - pad, y(0));
        context.stroke();
      }
      context.strokeStyle = series.color;
      context.lineWidth = this.options.lineWidth * ratio;
      context.beginPath();
      values.forEach((value, i) => {
        if (!Number.isFinite(value)) return;
        const x = pad + (offset + i) * step;
        if (i === 0) context.moveTo(x, y(value));
        else context.lineTo(x, y(value));
      });
      context.stroke();
    });
  }
}
