// Tilt input in g, x > 0 rolling right and y > 0 rolling up, from three sources: the
// keyboard (arrows or WASD), a pointer tilt pad, and the device's orientation sensor where
// there is one (iOS asks for permission on a user gesture). A held key or a touched pad wins
// over the sensor; letting go falls back to the sensor, or to level.

import { clamp, el } from "./dom.js";

/** Tunables of tilt input. */
export const tiltOptions = {
  keyTilt: 0.6, // tilt per held direction key, in g
  padTilt: 1, // tilt at the pad's rim, in g
  maxTilt: 2, // largest tilt sent, in g (the protocol allows -2 to 2)
  sendEveryMs: 33, // at most one tilt message this often, in ms
  deadZone: 0.005, // changes smaller than this (g) are not sent
};

const keyDirections = {
  ArrowLeft: [-1, 0], KeyA: [-1, 0],
  ArrowRight: [1, 0], KeyD: [1, 0],
  ArrowUp: [0, 1], KeyW: [0, 1],
  ArrowDown: [0, -1], KeyS: [0, -1],
};

export class TiltInput {
  /**
   * @param {HTMLElement} pad an empty element to turn into the tilt pad
   * @param {(tilt: {x: number, y: number}) => void} send called at most every `sendEveryMs`
   */
  constructor(pad, send) {
    this.send = send;
    this.enabled = true;
    this.keys = new Set();
    this.padTilt = null; // {x, y} while the pad is held
    this.deviceTilt = null; // {x, y} once the sensor reports
    this.current = { x: 0, y: 0 };
    this.sent = { x: 0, y: 0 };
    this.lastSend = 0;
    this.timer = null;
    this.buildPad(pad);
    this.listenToKeys();
    this.listenToDevice();
  }

  /** Turns input on or off (spectators cannot steer). */
  setEnabled(enabled) {
    this.enabled = enabled;
    this.pad.classList.toggle("disabled", !enabled);
    this.motionButton?.toggleAttribute("disabled", !enabled);
  }

  buildPad(pad) {
    this.pad = pad;
    this.knob = el("span", { class: "tilt-knob" });
    pad.replaceChildren(this.knob);
    // NB: a slider needs a value; a 2D pad reports its x tilt and says both axes in words.
    pad.setAttribute("role", "slider");
    pad.setAttribute("aria-label", "tilt pad: drag to tilt, or use the arrow keys");
    pad.setAttribute("aria-valuemin", String(-tiltOptions.maxTilt));
    pad.setAttribute("aria-valuemax", String(tiltOptions.maxTilt));
    this.describe({ x: 0, y: 0 });
    pad.tabIndex = 0;
    const read = (event) => {
      const box = pad.getBoundingClientRect();
      const radius = box.width / 2;
      let x = (event.clientX - box.left - radius) / radius;
      let y = -(event.clientY - box.top - radius) / radius;
      const length = Math.hypot(x, y);
      if (length > 1) {
        x /= length;
        y /= length;
      }
      this.padTilt = { x: x * tiltOptions.padTilt, y: y * tiltOptions.padTilt };
      this.update();
    };
    pad.addEventListener("pointerdown", (event) => {
      if (!this.enabled) return;
      pad.setPointerCapture(event.pointerId);
      read(event);
    });
    pad.addEventListener("pointermove", (event) => {
      if (this.padTilt && pad.hasPointerCapture(event.pointerId)) read(event);
    });
    const release = () => {
      this.padTilt = null;
      this.update();
    };
    pad.addEventListener("pointerup", release);
    pad.addEventListener("pointercancel", release);
  }

  listenToKeys() {
    window.addEventListener("keydown", (event) => {
      if (!keyDirections[event.code] || !this.enabled || isTyping(event.target)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      this.keys.add(event.code);
      this.update();
    });
    window.addEventListener("keyup", (event) => {
      if (this.keys.delete(event.code)) this.update();
    });
    window.addEventListener("blur", () => {
      this.keys.clear();
      this.update();
    });
  }

  listenToDevice() {
    if (!("DeviceOrientationEvent" in window)) return;
    const start = () =>
      window.addEventListener("deviceorientation", (event) => this.fromOrientation(event));
    if (typeof DeviceOrientationEvent.requestPermission === "function") {
      // iOS (and newer Chromium): the permission prompt must come from a tap. Only offer it
      // where a sensor is likely, on touch screens.
      if (!matchMedia("(pointer: coarse)").matches) return;
      this.motionButton = el(
        "button",
        {
          type: "button",
          class: "motion-button",
          onclick: async () => {
            try {
              if ((await DeviceOrientationEvent.requestPermission()) === "granted") start();
            } finally {
              this.motionButton.remove();
            }
          },
        },
        "Use tilt sensor",
      );
      this.pad.after(this.motionButton);
    } else {
      start();
    }
  }

  /** Tilt from the orientation sensor: gamma tilts right, beta tips the top towards the user. */
  fromOrientation(event) {
    if (event.beta === null || event.gamma === null) return;
    const rad = Math.PI / 180;
    let x = Math.sin(clamp(event.gamma, -90, 90) * rad);
    let y = -Math.sin(clamp(event.beta, -90, 90) * rad);
    // Turn the reading into screen axes when the screen is rotated.
    const angle = (screen.orientation?.angle ?? 0) * rad;
    if (angle) {
      const [c, s] = [Math.cos(angle), Math.sin(angle)];
      [x, y] = [x * c - y * s, x * s + y * c];
    }
    this.deviceTilt = { x, y };
    this.update();
  }

  /** The tilt now, from the highest-priority source that is active. */
  resolve() {
    if (this.padTilt) return this.padTilt;
    if (this.keys.size) {
      let x = 0;
      let y = 0;
      for (const code of this.keys) {
        x += keyDirections[code][0];
        y += keyDirections[code][1];
      }
      return { x: clamp(x, -1, 1) * tiltOptions.keyTilt, y: clamp(y, -1, 1) * tiltOptions.keyTilt };
    }
    return this.deviceTilt ?? { x: 0, y: 0 };
  }

  update() {
    const tilt = this.resolve();
    const max = tiltOptions.maxTilt;
    this.current = { x: clamp(tilt.x, -max, max), y: clamp(tilt.y, -max, max) };
    const shown = tiltOptions.padTilt;
    this.knob.style.left = `${50 + clamp(this.current.x / shown, -1, 1) * 38}%`;
    this.knob.style.top = `${50 - clamp(this.current.y / shown, -1, 1) * 38}%`;
    this.describe(this.current);
    this.schedule();
  }

  /** Tells assistive technology the tilt, in g. */
  describe({ x, y }) {
    this.pad.setAttribute("aria-valuenow", x.toFixed(2));
    this.pad.setAttribute("aria-valuetext", `tilt x ${x.toFixed(2)} g, y ${y.toFixed(2)} g`);
  }

  /** Sends the current tilt now or, if one was sent recently, when the interval is up. */
  schedule() {
    if (!this.enabled || this.timer !== null) return;
    const { x, y } = this.current;
    const still = tiltOptions.deadZone;
    if (Math.abs(x - this.sent.x) < still && Math.abs(y - this.sent.y) < still) return;
    const wait = this.lastSend + tiltOptions.sendEveryMs - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.schedule();
      }, wait);
      return;
    }
    this.lastSend = performance.now();
    this.sent = { x: round(x), y: round(y) };
    this.send(this.sent);
  }
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}

function isTyping(target) {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    Boolean(target?.isContentEditable)
  );
}
