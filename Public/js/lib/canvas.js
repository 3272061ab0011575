// Canvas helpers: fit a world of W x H units into a container keeping its aspect, sharp on
// high-density screens, and map pointer events back to world units.

/**
 * Sizes `target` (a canvas or any element drawn in world units) to the largest box with the
 * world's aspect that fits in `container`, now and whenever the container resizes.
 * `onResize(view)` is called after each change with `{scale, width, height, dpr}`: `scale` is
 * CSS px per world unit, `width`/`height` the CSS size.
 */
export class FittedView {
  constructor(container, target, world, onResize = () => {}) {
    this.container = container;
    this.target = target;
    this.world = world;
    this.onResize = onResize;
    this.scale = 1;
    this.dpr = 1;
    this.observer = new ResizeObserver(() => this.fit());
    this.observer.observe(container);
    this.shapeContainer();
    this.fit();
  }

  /** Changes the world size (a new config) and fits again. */
  setWorld(world) {
    this.world = world;
    this.shapeContainer();
    this.fit();
  }

  /**
   * Gives the container the world's aspect, so that it is no taller than the picture needs
   * (the stylesheet caps its height, and embedded pages let it fill the frame instead).
   */
  shapeContainer() {
    this.container.style.aspectRatio = `${this.world.width} / ${this.world.height}`;
  }

  fit() {
    const box = this.container.getBoundingClientRect();
    const { width, height } = this.world;
    if (!width || !height || box.width <= 0) return;
    // NB: a container without a height of its own (0) is sized by the world's aspect.
    const byWidth = box.width / width;
    const byHeight = box.height > 0 ? box.height / height : byWidth;
    const scale = Math.max(0.05, Math.min(byWidth, byHeight));
    const cssWidth = Math.floor(width * scale);
    const cssHeight = Math.floor(height * scale);
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    if (cssWidth === this.cssWidth && cssHeight === this.cssHeight && dpr === this.dpr) return;
    this.scale = scale;
    this.dpr = dpr;
    this.cssWidth = cssWidth;
    this.cssHeight = cssHeight;
    this.target.style.width = `${cssWidth}px`;
    this.target.style.height = `${cssHeight}px`;
    if (this.target instanceof HTMLCanvasElement) {
      this.target.width = Math.round(cssWidth * dpr);
      this.target.height = Math.round(cssHeight * dpr);
    }
    this.onResize({ scale, width: cssWidth, height: cssHeight, dpr });
  }

  /** A 2D context whose units are world units (call before each picture). */
  context2d() {
    const context = this.target.getContext("2d");
    const k = this.scale * this.dpr;
    context.setTransform(k, 0, 0, k, 0, 0);
    return context;
  }

  /** The world point under a pointer event. */
  toWorld(event) {
    const rect = this.target.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * this.world.width,
      y: ((event.clientY - rect.top) / rect.height) * this.world.height,
    };
  }

  /** Stops watching the container. */
  disconnect() {
    this.observer.disconnect();
  }
}

/**
 * Pointer velocity from the last `windowMs` of samples, in world units per second: for flicks.
 */
export class FlickTracker {
  constructor(windowMs = 100) {
    this.windowMs = windowMs;
    this.samples = [];
  }

  /** Starts a gesture at world point `p` at time `t` (ms). */
  start(p, t) {
    this.samples = [{ ...p, t }];
  }

  /** Adds a sample. */
  move(p, t) {
    this.samples.push({ ...p, t });
    while (this.samples.length > 2 && t - this.samples[0].t > this.windowMs) this.samples.shift();
  }

  /** The newest point. */
  get last() {
    return this.samples[this.samples.length - 1];
  }

  /** `{vx, vy}` in units per second; zero for a tap or a pointer held still. */
  velocity(now) {
    const first = this.samples[0];
    const last = this.last;
    if (!first || last.t - first.t < 8 || now - last.t > this.windowMs) return { vx: 0, vy: 0 };
    const span = last.t - first.t;
    return { vx: ((last.x - first.x) / span) * 1000, vy: ((last.y - first.y) / span) * 1000 };
  }
}
