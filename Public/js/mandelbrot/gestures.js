// Pointer and wheel input on the explorer's canvas, turned into four intentions: a tap (zoom
// into a quadrant), a drag (pan), a zoom about a point (wheel or pinch), and the end of a
// gesture (time to write the permalink). Mouse, pen and touch all go through pointer events.

/** Options of the gestures. */
const options = {
  tapSlop: { mouse: 4, pen: 8, touch: 12 }, // CSS px a press may travel and still be a tap
  wheelLevels: 1 / 400, // zoom levels per wheel pixel (a mouse notch of 100 px is 1/4 level)
  pinchWheelLevels: 1 / 120, // per pixel of a trackpad pinch (a wheel with ctrlKey)
  lineHeight: 33, // CSS px per wheel line, for wheels that count lines
  wheelIdle: 300, // ms without wheel events that ends a wheel gesture
};

export class Gestures {
  /**
   * Listens on `element`. `handlers`: `tap(x, y)`, `pan(dx, dy)`, `zoom(levels, x, y)` and
   * `end()`; coordinates are CSS px from the element's top left corner.
   */
  constructor(element, handlers) {
    this.element = element;
    this.handlers = handlers;
    this.pointers = new Map(); // pointerId -> {x, y, type}
    this.mode = "idle"; // idle, press, drag or pinch
    this.press = null; // where a possible tap started: {x, y, type}
    this.pinch = null; // the previous two-finger {distance, x, y}
    this.wheelTimer = 0;
    element.addEventListener("pointerdown", (event) => this.down(event));
    element.addEventListener("pointermove", (event) => this.move(event));
    element.addEventListener("pointerup", (event) => this.up(event, true));
    element.addEventListener("pointercancel", (event) => this.up(event, false));
    element.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    element.addEventListener("contextmenu", (event) => {
      if (event.pointerType === "touch") event.preventDefault();
    });
  }

  position(event) {
    const box = this.element.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top, type: event.pointerType };
  }

  down(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    this.element.setPointerCapture?.(event.pointerId);
    const point = this.position(event);
    this.pointers.set(event.pointerId, point);
    if (this.pointers.size === 1) {
      this.mode = "press";
      this.press = point;
    } else if (this.pointers.size === 2) {
      this.mode = "pinch";
      this.pinch = this.twoFingers();
    }
  }

  move(event) {
    const last = this.pointers.get(event.pointerId);
    if (!last) return;
    const point = this.position(event);
    this.pointers.set(event.pointerId, point);
    if (this.mode === "press") {
      const slop = options.tapSlop[point.type] ?? options.tapSlop.touch;
      if (Math.hypot(point.x - this.press.x, point.y - this.press.y) <= slop) return;
      this.mode = "drag";
      this.handlers.pan(point.x - this.press.x, point.y - this.press.y);
    } else if (this.mode === "drag") {
      this.handlers.pan(point.x - last.x, point.y - last.y);
    } else if (this.mode === "pinch" && this.pointers.size >= 2) {
      const now = this.twoFingers();
      if (this.pinch.distance > 0 && now.distance > 0) {
        this.handlers.pan(now.x - this.pinch.x, now.y - this.pinch.y);
        this.handlers.zoom(Math.log2(now.distance / this.pinch.distance), now.x, now.y);
      }
      this.pinch = now;
    }
  }

  up(event, lifted) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.delete(event.pointerId);
    if (this.mode === "press") {
      this.mode = "idle";
      if (lifted) this.handlers.tap(this.press.x, this.press.y);
    } else if (this.mode === "pinch" && this.pointers.size === 1) {
      // NB: the finger left on the glass keeps panning from where it is, without a jump.
      this.mode = "drag";
    } else if (this.pointers.size === 0) {
      const moved = this.mode !== "idle";
      this.mode = "idle";
      if (moved) this.handlers.end();
    }
  }

  twoFingers() {
    const [a, b] = Array.from(this.pointers.values());
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  wheel(event) {
    event.preventDefault();
    const pixels = event.deltaMode === 1 ? event.deltaY * options.lineHeight : event.deltaY;
    const rate = event.ctrlKey ? options.pinchWheelLevels : options.wheelLevels;
    const point = this.position(event);
    this.handlers.zoom(-pixels * rate, point.x, point.y);
    clearTimeout(this.wheelTimer);
    this.wheelTimer = setTimeout(() => this.handlers.end(), options.wheelIdle);
  }
}
