// The Mandelbrot explorer (seed "iOS - Mandelbrot"): the seed's square with its quadrant zoom,
// journey, Back and RESET, plus drag, wheel and pinch over server-rendered tiles, palettes,
// iterations, a readout and a permalink kept in the address bar.
//
// History: a quadrant tap and RESET push a history entry, so the browser's Back button and
// ours agree; drags, wheel zooms, palette and iteration changes replace the current entry.
// Our Back goes back in history when the previous entry is one of ours, and otherwise (after
// a reload or from a shared link) drops the journey's last tap. Embedded, the page only ever
// replaces its entry (an iframe's pushes would take over the host page's Back button) and
// keeps its earlier views in memory instead.

import { centreDecimals, viewFromDecimals } from "./decimal.js";
import {
  depthText,
  idealLevel,
  limits,
  normalizeView,
  panBy,
  quadrantAt,
  sameView,
  tiles,
  zoomAbout,
} from "./geometry.js";
import { Gestures } from "./gestures.js";
import { places } from "./places.js";
import { Renderer } from "./renderer.js";
import { TileStore } from "./tile-store.js";
import { Transition } from "./transition.js";
import {
  formatState,
  initialState,
  iterationRange,
  journeyText,
  palettes,
  parseState,
  stateView,
  tapsLeft,
} from "./url-state.js";

/** Options of the explorer. */
const options = {
  iterationChoices: [100, 200, 400, 800, 1000, 2000, 5000, 10000, 20000, 50000, 100000],
  centreDigits: 16, // decimals the centre readout shows (a deeper centre's are in its title)
  keyPan: 1 / 8, // of the view's side per arrow key press
  keyZoom: 1, // levels per + or - press
  zoomPrecision: 1000, // zoom levels are kept to 1/1000 so permalinks stay short
  maxDevicePixelRatio: 3, // sharper screens draw at 3x: more tiles for no visible gain
  failureNotice: 8000, // ms a tile failure stays on screen
  shortNotice: 4000, // ms a refused action's explanation stays on screen
};

/** The explorer's state of one history entry: whether we pushed it from an earlier view. */
function entry(pushed) {
  return { explorer: { pushed } };
}

/** Whether the current history entry was pushed by us from an earlier view. */
function pushedEntry() {
  return Boolean(history.state?.explorer?.pushed);
}

export class Explorer {
  /** Runs the explorer inside `root`, the page's `.explorer` section. */
  constructor(root) {
    this.root = root;
    this.canvas = root.querySelector(".explorer-canvas");
    this.stage = root.querySelector(".explorer-stage");
    this.noticeElement = root.querySelector(".explorer-notice");
    this.openLink = root.querySelector(".explorer-open");
    this.readouts = {};
    for (const element of root.querySelectorAll("[data-readout]")) {
      this.readouts[element.dataset.readout] = element;
    }
    this.buttons = {};
    for (const button of root.querySelectorAll("[data-action]")) {
      this.buttons[button.dataset.action] = button;
    }
    this.controls = {};
    for (const control of root.querySelectorAll("[data-control]")) {
      this.controls[control.dataset.control] = control;
    }

    this.store = new TileStore({
      onLoad: () => this.requestDraw(),
      onFailure: (message) => this.notify("tiles", message, options.failureNotice),
    });
    this.renderer = new Renderer(this.canvas, this.store);
    this.notices = new Map(); // kind -> text
    this.bias = 0; // detail, in tile levels
    this.dpr = 1;
    this.cssSize = 0;
    this.drawScheduled = false;
    this.transition = null;
    this.embedded = root.classList.contains("explorer-embedded");
    this.past = []; // earlier states, embedded only (elsewhere the browser's history has them)
    this.reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

    const { state, problems } = parseState(location.search);
    this.state = state;
    this.view = stateView(state); // where the state says we are
    this.shown = this.view; // what is drawn: the same, or on the way there
    if (problems.length > 0) this.notify("address", problems.join(" "));
    history.replaceState(entry(pushedEntry()), "", this.url());

    this.fillControls();
    this.listen();
    new ResizeObserver(() => this.fit()).observe(this.stage);
    this.fit();
    this.showState();
  }

  // Actions

  /** Zooms 2x into quadrant `q` (1-4), as the seed's tap does. */
  quadrant(q) {
    if (tapsLeft(this.state) < 1) {
      const text = `This is the deepest level served (${limits.maxZoom}).`;
      this.notify("depth", text, options.shortNotice);
      return;
    }
    this.go({ ...this.state, journey: [...this.state.journey, q] }, { push: true });
  }

  /** Flies to bookmark `index` of `places`, with its cap and palette (else auto and ours). */
  visit(index) {
    const place = places[index];
    if (!place) return;
    const level = place.zoom > limits.frameFrom ? Math.floor(place.zoom) - limits.frameLag : 0;
    const view = normalizeView(viewFromDecimals(place.x, place.y, place.zoom, level));
    const iterations = place.iterations ?? null;
    const palette = place.palette ?? this.state.palette;
    this.go({ ...this.state, anchor: view, journey: [], iterations, palette }, { push: true });
  }

  /** Returns to the previous view. */
  back() {
    if (this.embedded && this.past.length > 0) {
      this.go(this.withLook(this.past.pop()), { push: false });
    } else if (!this.embedded && pushedEntry()) {
      history.back();
    } else if (this.state.journey.length > 0) {
      this.go({ ...this.state, journey: this.state.journey.slice(0, -1) }, { push: false });
    }
  }

  /** Returns to the seed's start view, keeping the palette and iterations. */
  reset() {
    if (this.atStart()) return;
    const { palette, iterations } = this.state;
    this.go({ ...initialState(), palette, iterations }, { push: true });
  }

  /** Zooms by `levels` about the point (x, y) in CSS px, at once (wheel and pinch). */
  zoomBy(levels, x, y, animate = false) {
    const target = this.quantized(this.view.zoom + levels);
    const view = zoomAbout(this.view, target - this.view.zoom, x, y, this.cssSize);
    this.moveTo(view, animate);
  }

  /** Zooms by `levels` about the centre, animated (keys and buttons). */
  zoomStep(levels) {
    this.zoomBy(levels, this.cssSize / 2, this.cssSize / 2, true);
  }

  /** Pans so the picture follows the pointer by (dx, dy) CSS px. */
  panBy(dx, dy, animate = false) {
    this.moveTo(panBy(this.view, dx, dy, this.cssSize), animate);
  }

  /** Moves to a free view (not on the quadrant grid): the journey starts again from there. */
  moveTo(view, animate) {
    if (sameView(view, this.view)) return;
    this.setState({ ...this.state, anchor: view, journey: [] }, animate);
    if (animate) this.writeURL(false);
  }

  /** Ends a drag, wheel or pinch: the permalink now names the new view. */
  settle() {
    this.writeURL(false);
  }

  /** Moves to `state`, animated, and writes the address (`push`: as a new step). */
  go(state, { push }) {
    if (push && this.embedded) this.past.push(this.state);
    this.setState(state, true);
    this.writeURL(push && !this.embedded);
  }

  canGoBack() {
    const earlier = this.embedded ? this.past.length > 0 : pushedEntry();
    return earlier || this.state.journey.length > 0;
  }

  setState(state, animate) {
    const to = stateView(state);
    const now = performance.now();
    this.transition =
      animate && !this.reducedMotion ? new Transition(this.shown, to, now) : null;
    if (!this.transition) this.shown = to;
    this.state = state;
    this.view = to;
    this.showState();
    this.requestDraw();
  }

  /** `state`'s view with the current palette and iterations: going back keeps the look. */
  withLook(state) {
    return { ...state, palette: this.state.palette, iterations: this.state.iterations };
  }

  atStart() {
    return this.state.anchor === null && this.state.journey.length === 0;
  }

  quantized(zoom) {
    const clamped = Math.min(limits.maxZoom, Math.max(limits.minZoom, zoom));
    return Math.round(clamped * options.zoomPrecision) / options.zoomPrecision;
  }

  url() {
    return location.pathname + formatState(this.state) + location.hash;
  }

  writeURL(push) {
    if (push) {
      history.pushState(entry(true), "", this.url());
    } else {
      history.replaceState(entry(pushedEntry()), "", this.url());
    }
    this.showState();
  }

  // Input

  listen() {
    this.gestures = new Gestures(this.canvas, {
      tap: (x, y) => this.quadrant(quadrantAt(x, y, this.cssSize)),
      pan: (dx, dy) => this.panBy(dx, dy),
      zoom: (levels, x, y) => this.zoomBy(levels, x, y),
      end: () => this.settle(),
    });
    this.buttons.back.addEventListener("click", () => this.back());
    this.buttons.reset.addEventListener("click", () => this.reset());
    this.buttons["zoom-in"].addEventListener("click", () => this.zoomStep(options.keyZoom));
    this.buttons["zoom-out"].addEventListener("click", () => this.zoomStep(-options.keyZoom));
    this.controls.palette.addEventListener("change", () => {
      this.setState({ ...this.state, palette: this.controls.palette.value }, false);
      this.writeURL(false);
    });
    this.controls.iterations.addEventListener("change", () => {
      const value = this.controls.iterations.value;
      this.setState({ ...this.state, iterations: value === "auto" ? null : Number(value) }, false);
      this.writeURL(false);
    });
    this.controls.bookmark?.addEventListener("change", () => {
      const index = Number(this.controls.bookmark.value);
      this.controls.bookmark.value = "";
      this.visit(index);
    });
    this.controls.detail.addEventListener("change", () => {
      this.bias = Number(this.controls.detail.value);
      this.showState();
      this.requestDraw();
    });
    document.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("popstate", () => {
      this.setState(this.withLook(parseState(location.search).state), true);
      this.writeURL(false);
    });
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
    const step = this.cssSize * options.keyPan;
    const actions = {
      1: () => this.quadrant(1),
      2: () => this.quadrant(2),
      3: () => this.quadrant(3),
      4: () => this.quadrant(4),
      Backspace: () => this.back(),
      r: () => this.reset(),
      R: () => this.reset(),
      ArrowLeft: () => this.panBy(step, 0, true),
      ArrowRight: () => this.panBy(-step, 0, true),
      ArrowUp: () => this.panBy(0, step, true),
      ArrowDown: () => this.panBy(0, -step, true),
      "+": () => this.zoomStep(options.keyZoom),
      "=": () => this.zoomStep(options.keyZoom),
      "-": () => this.zoomStep(-options.keyZoom),
      _: () => this.zoomStep(-options.keyZoom),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // Drawing

  /** Sizes the canvas to the largest square the stage holds, sharp on dense screens. */
  fit() {
    const box = this.stage.getBoundingClientRect();
    const height = box.height > 0 ? box.height : box.width;
    const size = Math.max(64, Math.floor(Math.min(box.width, height)));
    const dpr = Math.min(window.devicePixelRatio || 1, options.maxDevicePixelRatio);
    if (size === this.cssSize && dpr === this.dpr) return;
    this.cssSize = size;
    this.dpr = dpr;
    this.canvas.style.width = `${size}px`;
    this.canvas.style.height = `${size}px`;
    this.canvas.width = Math.round(size * dpr);
    this.canvas.height = Math.round(size * dpr);
    this.showState();
    this.requestDraw();
  }

  requestDraw() {
    this.root.dataset.ready = "false";
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame((now) => this.frame(now));
  }

  frame(now) {
    this.drawScheduled = false;
    if (this.transition) {
      this.shown = this.transition.at(now);
      if (this.transition.done(now)) this.transition = null;
    }
    const drawn = this.renderer.draw(this.shown, this.state, this.bias, this.dpr);
    this.store.want(this.renderer.plan(this.view, this.state, this.bias));
    if (this.transition) this.requestDraw();
    const ready = !this.transition && drawn.complete && this.store.pendingCount === 0;
    this.root.dataset.ready = String(ready);
    this.setText("tiles", ready ? "ready" : `loading ${this.store.pendingCount}`);
  }

  // Readouts and controls

  fillControls() {
    const palette = this.controls.palette;
    for (const { name, label } of palettes) palette.append(new Option(label, name));
    this.controls.iterations.append(new Option("auto", "auto"));
    for (const n of options.iterationChoices) {
      if (n >= iterationRange.min && n <= iterationRange.max) {
        this.controls.iterations.append(new Option(n.toLocaleString("en-GB"), String(n)));
      }
    }
    const bookmark = this.controls.bookmark;
    if (bookmark) {
      bookmark.append(new Option("Go to…", ""));
      places.forEach(({ label }, index) => bookmark.append(new Option(label, String(index))));
    }
  }

  /** Writes the journey, readouts, buttons and controls for the current state. */
  showState() {
    const { state, view } = this;
    const journey = journeyText(state.journey);
    let journeyLabel = journey || "start";
    if (state.anchor) journeyLabel = journey ? `free view, then ${journey}` : "free view";
    this.setText("journey", journeyLabel);

    const size = this.canvas.width || 1;
    const level = Math.min(idealLevel(view.zoom, size, this.bias), tiles.maxZoom);
    const iterations = state.iterations ?? Renderer.params(state, level).iterations;
    const magnification = 2 ** view.zoom;
    const zoomText =
      magnification < 1e6
        ? `${magnification.toLocaleString("en-GB", { maximumFractionDigits: 1 })}×`
        : `${magnificationText(view.zoom)}×`;
    const centre = formatComplex(view, this.cssSize);
    this.setText("centre", centre.text);
    if (this.readouts.centre) this.readouts.centre.title = centre.full;
    this.setText("zoom", `${zoomText} (level ${Math.round(view.zoom * 100) / 100})`);
    this.setText("depth", depthText(view.zoom));
    const count = iterations.toLocaleString("en-GB");
    this.setText("iterations", state.iterations ? count : `${count} (auto)`);
    this.setText("summary", `· ${zoomText} · ${count} iterations`);

    this.buttons.back.disabled = !this.canGoBack();
    this.buttons.reset.disabled = this.atStart() && !this.transition;
    this.buttons["zoom-in"].disabled = view.zoom >= limits.maxZoom;
    this.root.dataset.zoom = String(view.zoom);
    this.buttons["zoom-out"].disabled = view.zoom <= limits.minZoom;
    this.controls.palette.value = state.palette;
    this.selectIterations(state.iterations);
    if (this.openLink) this.openLink.href = `/demos/mandelbrot${formatState(state)}`;
    this.root.dataset.journey = journey;
  }

  selectIterations(iterations) {
    const select = this.controls.iterations;
    const value = iterations === null ? "auto" : String(iterations);
    if (!Array.from(select.options).some((option) => option.value === value)) {
      select.append(new Option(Number(value).toLocaleString("en-GB"), value));
    }
    select.value = value;
  }

  setText(name, text) {
    const element = this.readouts[name];
    if (element && element.textContent !== text) element.textContent = text;
  }

  /** Shows `text` under the picture (replacing the notice of the same kind); "" removes it. */
  notify(kind, text, lifetime = 0) {
    if ((this.notices.get(kind) ?? "") === text) return;
    if (text) this.notices.set(kind, text);
    else this.notices.delete(kind);
    if (text && lifetime > 0) {
      setTimeout(() => {
        if (this.notices.get(kind) === text) this.notify(kind, "");
      }, lifetime);
    }
    const element = this.noticeElement;
    element.replaceChildren(
      ...Array.from(this.notices, ([name, message]) => {
        const line = document.createElement("span");
        line.dataset.kind = name;
        line.textContent = message;
        return line;
      }),
    );
    element.hidden = this.notices.size === 0;
    element.dataset.kind = this.notices.has("precision") ? "precision" : "message";
  }
}

/** 2^zoom as `1.23e+45`, for magnifications past what Numbers hold. */
function magnificationText(zoom) {
  const exponent = zoom * Math.log10(2);
  const power = Math.floor(exponent);
  return `${(10 ** (exponent - power)).toFixed(2)}e+${power}`;
}

/** The centre as `a + bi` with as many decimals as a screen pixel of a `size` px view needs. */
function formatComplex(view, size) {
  const pixel = Math.log10(3) - view.zoom * Math.log10(2) - Math.log10(Math.max(1, size));
  const digits = Math.min(400, Math.max(2, Math.ceil(-pixel) + 1));
  const { x, y } = centreDecimals(view, digits);
  const fixed = (text, shown) => {
    const [whole, fraction = ""] = text.replace("-", "").split(".");
    const all = fraction.padEnd(digits, "0");
    return shown < digits ? `${whole}.${all.slice(0, shown)}…` : `${whole}.${all}`;
  };
  const write = (shown) => {
    const sign = y.startsWith("-") ? "−" : "+";
    return `${x.startsWith("-") ? "−" : ""}${fixed(x, shown)} ${sign} ${fixed(y, shown)}i`;
  };
  // NB: a deep centre has hundreds of digits: the readout shows the first ones and how many
  // there are (one line, not a wall of digits); all of them are in its title and the address.
  if (digits <= options.centreDigits) return { text: write(digits), full: write(digits) };
  const text = `${write(options.centreDigits)} (${digits} decimals)`;
  return { text, full: write(digits) };
}
