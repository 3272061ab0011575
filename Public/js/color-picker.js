// <playfield-color-picker>: the HSV picker of seed 003 as a reusable, form-associated custom
// element. A hue ring around a saturation/brightness box, both drawn on a canvas, with a marker
// on each. Drag with a pointer or finger; or focus a marker and use the keyboard: on the ring,
// arrows turn the hue (Home 0°, End 359°); in the box, Left/Right change saturation, Up/Down
// brightness (Home/End saturation 0 / 100 %, Page Up/Down brightness ±10 %); Shift moves 10x.
//
//   <playfield-color-picker name="color" value="#ff8800" label="Brush colour">
//
// `value` (property and attribute) is `#rrggbb`. It fires `input` while the colour changes and
// `change` when a drag ends or a key changes it; inside a <form> it submits under its `name`.

/** Tunables of the picker. */
export const colorPickerOptions = {
  size: 220, // width and height before the picker is laid out, in CSS px (CSS: --picker-size)
  ringWidth: 0.13, // ring thickness as a fraction of the size
  gap: 4, // space between the ring and the box, in CSS px
  hueStep: 1, // hue change per arrow key, in degrees
  percentStep: 1, // saturation or brightness change per arrow key, in %
  pageStep: 10, // the change of Page Up/Down and of Shift with an arrow, in % or degrees
};

/** `{h: 0..360, s: 0..1, v: 0..1}` as `{r, g, b}` in 0..255. */
export function hsvToRgb({ h, s, v }) {
  const f = (n) => {
    const k = (n + h / 60) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return { r: f(5), g: f(3), b: f(1) };
}

/** `{r, g, b}` in 0..255 as `{h, s, v}`; a grey keeps hue 0. */
export function rgbToHsv({ r, g, b }) {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const delta = max - Math.min(R, G, B);
  let h = 0;
  if (delta > 0) {
    if (max === R) h = 60 * (((G - B) / delta + 6) % 6);
    else if (max === G) h = 60 * ((B - R) / delta + 2);
    else h = 60 * ((R - G) / delta + 4);
  }
  return { h, s: max === 0 ? 0 : delta / max, v: max };
}

/** `#rrggbb` as `{r, g, b}`, or null when it is not one. */
export function parseHex(text) {
  const match = /^#?([0-9a-f]{6})$/i.exec(String(text ?? "").trim());
  if (!match) return null;
  const n = parseInt(match[1], 16);
  return { r: n >> 16, g: (n >> 8) & 255, b: n & 255 };
}

/** `{r, g, b}` as `#rrggbb`. */
export function toHex({ r, g, b }) {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** The picker's own styles, adopted by its shadow root (no inline <style>: the CSP forbids it). */
const styles = `
  :host { display: inline-block; position: relative; touch-action: none; user-select: none;
    width: var(--picker-size, 220px); height: var(--picker-size, 220px); }
  :host([disabled]) { opacity: 0.45; pointer-events: none; }
  [role="group"] { position: relative; width: 100%; height: 100%; }
  canvas { display: block; width: 100%; height: 100%; cursor: crosshair; }
  .marker { position: absolute; width: 18px; height: 18px; margin: -9px 0 0 -9px; box-sizing: border-box;
    border-radius: 50%; border: 3px solid #fff; box-shadow: 0 0 0 1px #000, inset 0 0 0 1px #000;
    outline: none; }
  .marker:focus-visible { box-shadow: 0 0 0 2px #000, 0 0 0 5px #ffd400; }
`;

let sheet = null;

const template = `
<div part="group" role="group">
  <canvas part="canvas" aria-hidden="true"></canvas>
  <div class="marker ring-marker" part="marker" role="slider" tabindex="0" aria-label="Hue"
    aria-valuemin="0" aria-valuemax="359"></div>
  <div class="marker box-marker" part="marker" role="slider" tabindex="0"
    aria-label="Saturation (left and right) and brightness (up and down)"
    aria-valuemin="0" aria-valuemax="100"></div>
</div>`;

export class PlayfieldColorPicker extends HTMLElement {
  static formAssociated = true;
  static observedAttributes = ["value", "label", "disabled"];

  constructor() {
    super();
    this.internals = this.attachInternals?.() ?? null;
    const root = this.attachShadow({ mode: "open", delegatesFocus: false });
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(styles);
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = template;
    this.group = root.querySelector('[role="group"]');
    this.canvas = root.querySelector("canvas");
    this.ringMarker = root.querySelector(".ring-marker");
    this.boxMarker = root.querySelector(".box-marker");
    this.hsv = { h: 0, s: 0, v: 1 };
    this.dragging = null; // "ring" or "box" while a pointer drags
    this.changed = false; // the value moved since the last `change`
    this.canvas.addEventListener("pointerdown", (event) => this.press(event));
    this.canvas.addEventListener("pointermove", (event) => this.move(event));
    this.canvas.addEventListener("pointerup", (event) => this.release(event));
    this.canvas.addEventListener("pointercancel", (event) => this.release(event));
    this.ringMarker.addEventListener("keydown", (event) => this.key(event, "ring"));
    this.boxMarker.addEventListener("keydown", (event) => this.key(event, "box"));
    this.observer = new ResizeObserver(() => this.render());
  }

  connectedCallback() {
    if (!this.hasAttribute("value")) this.setHSV({ h: 0, s: 0, v: 1 }, false);
    this.group.setAttribute("aria-label", this.getAttribute("label") ?? "Colour picker");
    this.observer.observe(this);
    this.render();
  }

  disconnectedCallback() {
    this.observer.disconnect();
  }

  attributeChangedCallback(name, _old, value) {
    if (name === "value") {
      const rgb = parseHex(value);
      if (rgb) this.setRGB(rgb, false);
    } else if (name === "label") {
      this.group.setAttribute("aria-label", value ?? "Colour picker");
    } else if (name === "disabled") {
      for (const marker of [this.ringMarker, this.boxMarker]) {
        marker.tabIndex = value === null ? 0 : -1;
        marker.setAttribute("aria-disabled", String(value !== null));
      }
    }
  }

  /** The colour as `#rrggbb`. */
  get value() {
    return toHex(hsvToRgb(this.hsv));
  }

  /** Sets the colour from `#rrggbb` (other text is ignored); fires no events. */
  set value(text) {
    const rgb = parseHex(text);
    if (rgb) this.setRGB(rgb, false);
  }

  /** The colour as `{h, s, v}` (degrees, 0..1, 0..1). */
  get hsvValue() {
    return { ...this.hsv };
  }

  get form() {
    return this.internals?.form ?? null;
  }

  get name() {
    return this.getAttribute("name");
  }

  formResetCallback() {
    this.setRGB(parseHex(this.getAttribute("value")) ?? { r: 255, g: 255, b: 255 }, false);
  }

  formStateRestoreCallback(state) {
    this.value = state;
  }

  setRGB(rgb, notify) {
    const hsv = rgbToHsv(rgb);
    // A grey has no hue of its own: keep the ring where it was.
    if (hsv.s === 0 || hsv.v === 0) hsv.h = this.hsv.h;
    this.setHSV(hsv, notify);
  }

  setHSV({ h, s, v }, notify) {
    const before = this.value;
    this.hsv = {
      h: ((h % 360) + 360) % 360,
      s: Math.min(1, Math.max(0, s)),
      v: Math.min(1, Math.max(0, v)),
    };
    this.internals?.setFormValue(this.value);
    this.render();
    if (notify && this.value !== before) {
      this.changed = true;
      this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    }
  }

  /** Fires `change` if the value moved since the last one. */
  commit() {
    if (!this.changed) return;
    this.changed = false;
    this.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /** Ring and box sizes in CSS px: centre, ring radii and the box's half side. */
  get geometry() {
    const size = this.canvas.clientWidth || colorPickerOptions.size;
    const outer = size / 2;
    const inner = outer - size * colorPickerOptions.ringWidth;
    const half = (inner - colorPickerOptions.gap) / Math.SQRT2;
    return { size, centre: size / 2, outer, inner, half };
  }

  render() {
    const { size, centre, outer, inner, half } = this.geometry;
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const pixels = Math.round(size * dpr);
    // NB: both sides: a new canvas is 300 x 150, so at 300 px the width alone already matches.
    if (this.canvas.width !== pixels || this.canvas.height !== pixels) {
      this.canvas.width = pixels;
      this.canvas.height = pixels;
    }
    const context = this.canvas.getContext("2d");
    context.setTransform(dpr, 0, 0, dpr, 0, 0);
    context.clearRect(0, 0, size, size);
    // The ring: one thin wedge per degree, red at the top, hue rising clockwise.
    for (let degree = 0; degree < 360; degree += 1) {
      const start = ((degree - 90.6) * Math.PI) / 180;
      const end = ((degree - 89.4 + 1) * Math.PI) / 180;
      context.beginPath();
      context.arc(centre, centre, outer, start, end);
      context.arc(centre, centre, inner, end, start, true);
      context.closePath();
      context.fillStyle = `hsl(${degree} 100% 50%)`;
      context.fill();
    }
    // The box: the pure hue, white towards the left, black towards the bottom.
    const left = centre - half;
    const top = centre - half;
    const side = 2 * half;
    context.fillStyle = `hsl(${this.hsv.h} 100% 50%)`;
    context.fillRect(left, top, side, side);
    const white = context.createLinearGradient(left, 0, left + side, 0);
    white.addColorStop(0, "#fff");
    white.addColorStop(1, "rgb(255 255 255 / 0)");
    context.fillStyle = white;
    context.fillRect(left, top, side, side);
    const black = context.createLinearGradient(0, top, 0, top + side);
    black.addColorStop(0, "rgb(0 0 0 / 0)");
    black.addColorStop(1, "#000");
    context.fillStyle = black;
    context.fillRect(left, top, side, side);
    this.placeMarkers();
  }

  placeMarkers() {
    const { centre, outer, inner, half } = this.geometry;
    const { h, s, v } = this.hsv;
    const angle = ((h - 90) * Math.PI) / 180;
    const middle = (outer + inner) / 2;
    this.ringMarker.style.left = `${centre + middle * Math.cos(angle)}px`;
    this.ringMarker.style.top = `${centre + middle * Math.sin(angle)}px`;
    this.ringMarker.style.background = `hsl(${h} 100% 50%)`;
    this.boxMarker.style.left = `${centre - half + s * 2 * half}px`;
    this.boxMarker.style.top = `${centre - half + (1 - v) * 2 * half}px`;
    this.boxMarker.style.background = this.value;
    const hue = Math.round(h) % 360;
    this.ringMarker.setAttribute("aria-valuenow", String(hue));
    this.ringMarker.setAttribute("aria-valuetext", `hue ${hue} degrees`);
    const saturation = Math.round(s * 100);
    const brightness = Math.round(v * 100);
    this.boxMarker.setAttribute("aria-valuenow", String(saturation));
    this.boxMarker.setAttribute(
      "aria-valuetext",
      `saturation ${saturation} percent, brightness ${brightness} percent, ${this.value}`,
    );
  }

  /** Which part a point (CSS px from the canvas corner) is on: "ring", "box" or null. */
  partAt(x, y) {
    const { centre, outer, inner, half } = this.geometry;
    const distance = Math.hypot(x - centre, y - centre);
    if (distance >= inner - 2 && distance <= outer + 2) return "ring";
    if (Math.abs(x - centre) <= half + 2 && Math.abs(y - centre) <= half + 2) return "box";
    return null;
  }

  pick(event, part) {
    const box = this.canvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const { centre, half } = this.geometry;
    if (part === "ring") {
      const degrees = (Math.atan2(y - centre, x - centre) * 180) / Math.PI + 90;
      this.setHSV({ ...this.hsv, h: Math.round(degrees) }, true);
    } else {
      const s = (x - (centre - half)) / (2 * half);
      const v = 1 - (y - (centre - half)) / (2 * half);
      this.setHSV({ ...this.hsv, s: Math.round(s * 100) / 100, v: Math.round(v * 100) / 100 }, true);
    }
  }

  press(event) {
    if (this.hasAttribute("disabled")) return;
    const box = this.canvas.getBoundingClientRect();
    const part = this.partAt(event.clientX - box.left, event.clientY - box.top);
    if (!part) return;
    event.preventDefault();
    this.dragging = part;
    this.canvas.setPointerCapture(event.pointerId);
    (part === "ring" ? this.ringMarker : this.boxMarker).focus({ preventScroll: true });
    this.pick(event, part);
  }

  move(event) {
    if (this.dragging && this.canvas.hasPointerCapture(event.pointerId)) {
      this.pick(event, this.dragging);
    }
  }

  release(event) {
    if (!this.dragging) return;
    if (this.canvas.hasPointerCapture(event.pointerId)) {
      this.canvas.releasePointerCapture(event.pointerId);
    }
    this.dragging = null;
    this.commit();
  }

  key(event, part) {
    const { hueStep, percentStep, pageStep } = colorPickerOptions;
    const big = event.shiftKey ? pageStep : 1;
    let { h, s, v } = this.hsv;
    const percent = (percentStep * big) / 100;
    if (part === "ring") {
      const turns = {
        ArrowRight: hueStep * big, ArrowUp: hueStep * big,
        ArrowLeft: -hueStep * big, ArrowDown: -hueStep * big,
        PageUp: pageStep, PageDown: -pageStep,
      };
      if (event.key in turns) h = Math.round(h) + turns[event.key];
      else if (event.key === "Home") h = 0;
      else if (event.key === "End") h = 359;
      else return;
    } else {
      const moves = {
        ArrowRight: [percent, 0], ArrowLeft: [-percent, 0],
        ArrowUp: [0, percent], ArrowDown: [0, -percent],
        PageUp: [0, pageStep / 100], PageDown: [0, -pageStep / 100],
      };
      if (event.key in moves) {
        s = Math.round((s + moves[event.key][0]) * 100) / 100;
        v = Math.round((v + moves[event.key][1]) * 100) / 100;
      } else if (event.key === "Home") s = 0;
      else if (event.key === "End") s = 1;
      else return;
    }
    event.preventDefault();
    this.setHSV({ h, s, v }, true);
    this.commit();
  }
}

if (!customElements.get("playfield-color-picker")) {
  customElements.define("playfield-color-picker", PlayfieldColorPicker);
}
