// The Apollonian spheres viewer: loads a level's packing from the server in its compact form,
// draws it with WebGL2 (or flat, without), and wires keys, pointer, wheel and buttons.

import { FlatRenderer } from "./flat-renderer.js";
import { Orbit, orbitOptions } from "./orbit.js";
import { loadPacking } from "./packing.js";
import { createRenderer } from "./renderer.js";

/** Options, with units. */
const options = {
  startLevel: 7, // the seed's level
  previewLevel: 5, // in a gallery card, lighter
  maxLevel: 10,
  keptPackings: 4, // packings kept in memory for quick switching back
  frameSmoothing: 0.1, // weight of the newest frame time in the running mean
  readoutInterval: 250, // ms between readout updates
  maxPixelRatio: 2, // device pixels per CSS px at most
  releaseWindow: 150, // ms: a drag released later than this after its last move leaves no spin
};

export class Viewer {
  constructor(root) {
    this.root = root;
    this.canvas = root.querySelector(".spheres-canvas");
    this.readouts = Object.fromEntries(
      [...root.querySelectorAll("[data-readout]")].map((e) => [e.dataset.readout, e]),
    );
    this.levelSelect = root.querySelector('[data-control="level"]');
    this.loading = root.querySelector(".spheres-loading");
    this.progress = root.querySelector(".spheres-progress");
    this.notice = root.querySelector(".spheres-notice");
    this.orbit = new Orbit();
    const preview = document.body.classList.contains("preview");
    this.level = preview ? options.previewLevel : options.startLevel;
    this.surface = true;
    this.readAddress();
    this.spinning = !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    this.packings = new Map(); // "level:surface" -> packing, oldest first
    this.frameMs = 0;
    this.dirty = true;
    this.pointers = new Map();

    this.renderer = this.makeRenderer();
    root.dataset.renderer = this.renderer.kind;
    this.bindControls();
    this.bindKeys();
    this.bindPointer();
    new ResizeObserver(() => this.resize()).observe(this.canvas);
    this.resize();
    this.refreshButtons();
    this.load();
    this.lastFrame = performance.now();
    this.lastReadout = 0;
    requestAnimationFrame((t) => this.frame(t));
  }

  /** Takes `?level=0..10` and `?surface=1|0` from the address; says so when they are bad. */
  readAddress() {
    const query = new URLSearchParams(location.search);
    const level = query.get("level");
    if (level !== null) {
      if (/^([0-9]|10)$/.test(level)) this.level = Number(level);
      else this.tell(`The level in the address must be 0 to 10, not "${level}".`, "error");
    }
    const surface = query.get("surface");
    if (surface !== null) {
      if (["1", "0"].includes(surface)) this.surface = surface === "1";
      else this.tell(`surface in the address must be 1 or 0, not "${surface}".`, "error");
    }
  }

  /** Keeps the level and shell in the address, so a reload or a shared link shows them. */
  writeAddress() {
    const url = new URL(location.href);
    url.searchParams.set("level", String(this.level));
    url.searchParams.set("surface", this.surface ? "1" : "0");
    history.replaceState(history.state, "", url);
  }

  makeRenderer() {
    try {
      const renderer = createRenderer(this.canvas);
      if (renderer) return renderer;
      this.tell(
        "This browser offers no WebGL2, so the spheres are drawn flat: slower, and at most " +
          "40,000 of them.",
      );
    } catch (error) {
      this.tell(`WebGL2 failed (${error.message}), so the spheres are drawn flat.`);
    }
    return new FlatRenderer(this.canvas);
  }

  // MARK: State

  /** Shows `level` (0 to 10). */
  setLevel(level) {
    this.show({ level });
  }

  setSurface(surface) {
    this.show({ surface });
  }

  /** Shows another level or shell (or both, with one load). */
  show({ level = this.level, surface = this.surface }) {
    if (!(level >= 0 && level <= options.maxLevel)) return;
    if (level === this.level && surface === this.surface) return;
    this.level = level;
    this.surface = surface;
    this.refreshButtons();
    this.load();
  }

  setSpinning(spinning) {
    this.spinning = spinning;
    this.refreshButtons();
  }

  reset() {
    this.orbit.reset();
    this.dirty = true;
  }

  /** Loads (or takes from memory) the current level and shell, then draws it. */
  async load() {
    const { level, surface } = this;
    this.root.dataset.ready = "false";
    this.levelSelect.value = String(level);
    this.readouts.level.textContent = String(level);
    this.writeAddress();
    this.controller?.abort();
    const key = `${level}:${surface}`;
    let packing = this.packings.get(key);
    if (!packing) {
      const controller = new AbortController();
      this.controller = controller;
      this.showProgress(0);
      try {
        packing = await loadPacking(level, surface, {
          signal: controller.signal,
          onProgress: (fraction) => this.showProgress(fraction),
        });
      } catch (error) {
        if (error.name !== "AbortError") {
          this.tell(`Could not load level ${level}: ${error.message}`, "error");
        }
        return;
      } finally {
        if (this.controller === controller) this.loading.hidden = true;
      }
      this.packings.set(key, packing);
      while (this.packings.size > options.keptPackings) {
        this.packings.delete(this.packings.keys().next().value);
      }
    }
    if (level !== this.level || surface !== this.surface) return;
    this.renderer.setSpheres(packing);
    this.drawn = packing.count - (packing.count > 0 && packing.spheres[3] < 0 ? 1 : 0);
    this.readouts.count.textContent = this.drawn.toLocaleString("en");
    this.root.dataset.level = String(level);
    this.root.dataset.count = String(this.drawn);
    this.dirty = true;
    this.pendingReady = true;
  }

  showProgress(fraction) {
    this.loading.hidden = false;
    this.progress.value = fraction;
  }

  tell(text, kind = "info") {
    this.notice.textContent = text;
    this.notice.dataset.kind = kind;
    this.notice.hidden = false;
  }

  // MARK: Drawing

  resize() {
    const ratio = Math.min(window.devicePixelRatio || 1, options.maxPixelRatio);
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (width !== this.canvas.width || height !== this.canvas.height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.dirty = true;
    }
  }

  frame(now) {
    const dt = Math.min(0.1, (now - this.lastFrame) / 1000);
    this.lastFrame = now;
    const dragging = this.pointers.size > 0;
    if (this.orbit.advance(dragging ? 0 : dt, this.spinning && !dragging)) this.dirty = true;
    if (this.dirty) {
      this.draw();
      this.dirty = false;
      const ms = dt * 1000;
      const weight = this.frameMs ? options.frameSmoothing : 1;
      this.frameMs += weight * (ms - this.frameMs);
      if (this.pendingReady) {
        this.pendingReady = false;
        this.root.dataset.ready = "true";
      }
    }
    if (now - this.lastReadout > options.readoutInterval) {
      this.lastReadout = now;
      this.readouts.frame.textContent = this.frameMs ? this.frameMs.toFixed(1) : "–";
    }
    requestAnimationFrame((t) => this.frame(t));
  }

  draw() {
    const aspect = this.canvas.width / this.canvas.height;
    this.renderer.draw(this.orbit.view(), this.orbit.projection(aspect));
  }

  /** Draws now and counts lit pixels, with a hash of the picture (for tests and captures). */
  sample() {
    this.draw();
    const { width, height } = this.canvas;
    let pixels;
    if (this.renderer.kind === "webgl2") {
      const gl = this.renderer.gl;
      pixels = new Uint8Array(width * height * 4);
      gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    } else {
      pixels = this.canvas.getContext("2d").getImageData(0, 0, width, height).data;
    }
    let lit = 0;
    let hash = 2166136261;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i] | pixels[i + 1] | pixels[i + 2]) lit++;
      hash = Math.imul(hash ^ (pixels[i] | (pixels[i + 1] << 8) | (pixels[i + 2] << 16)), 16777619);
    }
    return { lit, total: width * height, hash: (hash >>> 0).toString(16) };
  }

  /** The picture as a PNG data URL. */
  capture() {
    this.draw();
    return this.canvas.toDataURL("image/png");
  }

  // MARK: Input

  bindControls() {
    const select = this.levelSelect;
    select.addEventListener("change", () => this.setLevel(Number(select.value)));
    const actions = {
      shell: () => this.setSurface(!this.surface),
      spin: () => this.setSpinning(!this.spinning),
      "zoom-in": () => this.zoom(1 / orbitOptions.zoomStep),
      "zoom-out": () => this.zoom(orbitOptions.zoomStep),
      reset: () => this.reset(),
    };
    for (const button of this.root.querySelectorAll("[data-action]")) {
      button.addEventListener("click", () => actions[button.dataset.action]?.());
    }
  }

  refreshButtons() {
    const shell = this.root.querySelector('[data-action="shell"]');
    shell.setAttribute("aria-pressed", String(this.surface));
    shell.textContent = this.surface ? "Surface shell" : "Every sphere";
    const spin = this.root.querySelector('[data-action="spin"]');
    spin.setAttribute("aria-pressed", String(this.spinning));
  }

  zoom(factor) {
    this.orbit.zoom(factor);
    this.dirty = true;
  }

  bindKeys() {
    window.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const tag = event.target?.tagName;
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
      const step = orbitOptions.keyStep;
      const handlers = {
        "+": () => this.zoom(1 / orbitOptions.zoomStep),
        "-": () => this.zoom(orbitOptions.zoomStep),
        "=": () => this.reset(),
        ArrowLeft: () => this.turn(-step, 0),
        ArrowRight: () => this.turn(step, 0),
        ArrowUp: () => this.turn(0, -step),
        ArrowDown: () => this.turn(0, step),
        s: () => this.setSurface(!this.surface),
        S: () => this.setSurface(!this.surface),
        " ": () => this.setSpinning(!this.spinning),
      };
      let handler = handlers[event.key];
      if (/^[0-9]$/.test(event.key)) handler = () => this.setLevel(Number(event.key));
      if (event.key === " " && tag === "BUTTON") return;
      if (!handler) return;
      event.preventDefault();
      handler();
    });
  }

  turn(yaw, pitch) {
    this.orbit.turn(yaw, pitch);
    this.dirty = true;
  }

  bindPointer() {
    const canvas = this.canvas;
    canvas.addEventListener("pointerdown", (event) => {
      try {
        canvas.setPointerCapture(event.pointerId);
      } catch {
        // NB: a pointer the browser does not track (a synthetic event) cannot be captured.
      }
      const point = { x: event.clientX, y: event.clientY, t: event.timeStamp };
      this.pointers.set(event.pointerId, point);
      this.orbit.velocity = { yaw: 0, pitch: 0 };
      this.pinch = this.pinchDistance();
    });
    canvas.addEventListener("pointermove", (event) => {
      const last = this.pointers.get(event.pointerId);
      if (!last) return;
      const now = { x: event.clientX, y: event.clientY, t: event.timeStamp };
      this.pointers.set(event.pointerId, now);
      if (this.pointers.size >= 2) {
        const distance = this.pinchDistance();
        if (this.pinch && distance) this.zoom(this.pinch / distance);
        this.pinch = distance;
        return;
      }
      const rate = orbitOptions.dragRate;
      const [yaw, pitch] = [(now.x - last.x) * rate, (now.y - last.y) * rate];
      this.turn(yaw, pitch);
      const dt = Math.max(1, now.t - last.t) / 1000;
      const v = this.orbit.velocity;
      this.orbit.velocity = {
        yaw: 0.5 * v.yaw + (0.5 * yaw) / dt,
        pitch: 0.5 * v.pitch + (0.5 * pitch) / dt,
      };
      this.lastMove = now.t;
    });
    const release = (event) => {
      if (!this.pointers.delete(event.pointerId)) return;
      this.pinch = this.pinchDistance();
      // A drag that stopped before the pointer went up leaves no spin.
      if (event.timeStamp - (this.lastMove ?? 0) > options.releaseWindow) {
        this.orbit.velocity = { yaw: 0, pitch: 0 };
      }
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        this.zoom(Math.exp(event.deltaY * 0.0015));
      },
      { passive: false },
    );
  }

  pinchDistance() {
    if (this.pointers.size < 2) return 0;
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }
}
