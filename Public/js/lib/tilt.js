// The shared tilt and motion input: the device's motion sensor, a virtual tilt pad (pointer and
// keyboard), and the arrow keys, merged into one reading. The reading is the seed's
// accelerometer value, gravity in the screen's axes in g: x > 0 when the right edge is down,
// y > 0 when the top edge is down, z = -1 lying flat face up. Its x and y are the tilt that
// maze and holes send (a ball rolls that way). A held key or a touched pad wins over the
// sensor; letting go falls back to the sensor, or to level. iOS asks for the sensor permission
// on a tap, so there the component offers a button.

import { clamp, el } from "./dom.js";

/** Tunables of tilt input. */
// NB: keys and pad reach the seed's full tilt, 1 g on each axis (the sensor's range on a
// phone held on edge): at 0.6 g (the keys' old tilt) a ball rolled towards the flag falls into
// the middle hole every time, while the seed, steered by a script at 1 g, scores.
export const tiltOptions = {
  keyTilt: 1, // tilt per held direction key, in g
  padTilt: 1, // tilt at the pad's edge on each axis, in g (its corners tilt both axes fully)
  maxTilt: 2, // largest tilt sent, in g (the protocol allows -2 to 2)
  sendEveryMs: 33, // at most one tilt message this often, in ms
  deadZone: 0.005, // changes smaller than this (g) are not sent
  standardGravity: 9.80665, // m/s² per g, to turn the sensor's reading into g
  sensorWaitMs: 1500, // after the sensor is allowed, how long to wait for a reading, in ms
};

/** What the sensor button leaves behind, by outcome: it never just vanishes. */
const sensorSays = {
  waiting: "Waiting for the motion sensor…",
  on: "Motion sensor on.",
  none: "No motion sensor answered (a desktop has none): tilt with the pad or the arrow keys.",
  refused: "The motion sensor was not allowed: tilt with the pad or the arrow keys.",
};

const keyDirections = {
  ArrowLeft: [-1, 0], KeyA: [-1, 0],
  ArrowRight: [1, 0], KeyD: [1, 0],
  ArrowUp: [0, 1], KeyW: [0, 1],
  ArrowDown: [0, -1], KeyS: [0, -1],
};

/** A level reading: flat on a table, face up. */
const level = Object.freeze({ x: 0, y: 0, z: -1, source: "level" });

export class TiltInput {
  /**
   * @param {HTMLElement} pad an empty element to turn into the tilt pad
   * @param {((tilt: {x: number, y: number}) => void) | null} send called at most every
   *   `sendEveryMs` with the tilt to send, or null when nothing is sent (a readout only)
   * @param {{onReading?: (reading: {x, y, z, source}) => void, offerSensor?: boolean}} options
   *   `onReading` gets every new reading; `offerSensor` shows the sensor button on any screen
   */
  constructor(pad, send, { onReading = null, offerSensor = false } = {}) {
    this.send = send;
    this.onReading = onReading;
    this.offerSensor = offerSensor;
    this.enabled = true;
    this.keys = new Set();
    this.padTilt = null; // {x, y} while the pad is held
    this.deviceReading = null; // {x, y, z} once the sensor reports
    this.motionSeen = false; // devicemotion reported gravity: orientation is not needed
    this.motionSign = 1; // -1 on browsers whose motion axes point the other way (see fromMotion)
    this.signVotes = 0; // readings in which motion and orientation disagreed, less agreed ones
    this.orientationTilt = null; // {x, y} from the orientation sensor, to check motion against
    this.reading = level;
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
      // Each axis on its own, as a phone's sensor reads them: towards a corner tilts both fully.
      const x = clamp((event.clientX - box.left - radius) / radius, -1, 1);
      const y = clamp(-(event.clientY - box.top - radius) / radius, -1, 1);
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
    // NB: a frame without `allow="accelerometer"` may not read motion (and says so loudly).
    const hasMotion = "DeviceMotionEvent" in window && allowed("accelerometer");
    const hasOrientation =
      "DeviceOrientationEvent" in window && allowed("accelerometer") && allowed("gyroscope");
    if (!hasMotion && !hasOrientation) return;
    // NB: listening costs nothing where permission is still to be asked: no events come.
    if (hasMotion) window.addEventListener("devicemotion", (event) => this.fromMotion(event));
    if (hasOrientation) {
      window.addEventListener("deviceorientation", (event) => this.fromOrientation(event));
    }
    const askers = [window.DeviceMotionEvent, window.DeviceOrientationEvent].filter(
      (type) => typeof type?.requestPermission === "function",
    );
    if (!askers.length) return;
    // iOS (and some newer browsers): the permission prompt must come from a tap. Only offer
    // it where a sensor is likely, on touch screens, unless the page asks for it everywhere.
    if (!this.offerSensor && !matchMedia("(pointer: coarse)").matches) return;
    this.motionButton = el(
      "button",
      {
        type: "button",
        class: "motion-button",
        onclick: () => this.askForSensor(askers),
      },
      "Use motion sensor",
    );
    this.pad.after(this.motionButton);
  }

  /** The button's tap: asks for the permission, then says what came of it (in place of the
   * button): on, refused, or no reading within `sensorWaitMs` (a desktop has no sensor). */
  async askForSensor(askers) {
    let granted = false;
    try {
      const answers = await Promise.all(askers.map((type) => type.requestPermission()));
      granted = answers.every((answer) => answer === "granted");
    } catch {
      granted = false;
    }
    this.motionStatus = el("span", { class: "motion-status", role: "status" });
    this.motionButton.replaceWith(this.motionStatus);
    this.motionButton = null;
    if (!granted) {
      this.motionStatus.textContent = sensorSays.refused;
      return;
    }
    this.motionStatus.textContent = this.deviceReading ? sensorSays.on : sensorSays.waiting;
    setTimeout(() => {
      if (!this.deviceReading) this.motionStatus.textContent = sensorSays.none;
    }, tiltOptions.sensorWaitMs);
  }

  /** Gravity from the motion sensor: the opposite of `accelerationIncludingGravity`, in g. */
  fromMotion(event) {
    const a = event.accelerationIncludingGravity;
    if (!a || a.x === null || a.y === null || a.z === null) return;
    this.motionSeen = true;
    const k = -this.motionSign / tiltOptions.standardGravity;
    const [x, y, z] = [a.x * k, a.y * k, a.z * k];
    // NB: browsers have not always agreed on the sign of accelerationIncludingGravity, while
    // beta and gamma agree everywhere: where both sensors report a clear tilt, let them vote.
    const o = this.orientationTilt;
    if (o && Math.abs(o.x) > 0.2 && Math.abs(x) > 0.2) {
      this.signVotes = Math.max(0, this.signVotes + (Math.sign(o.x) === Math.sign(x) ? -1 : 1));
      if (this.signVotes >= 5) {
        this.motionSign = -this.motionSign;
        this.signVotes = 0;
      }
    }
    this.fromDevice(x, y, z);
  }

  /** Tilt from the orientation sensor (kept to check motion against; used where motion is absent). */
  fromOrientation(event) {
    if (event.beta === null || event.gamma === null) return;
    const rad = Math.PI / 180;
    const x = Math.sin(clamp(event.gamma, -90, 90) * rad);
    const y = -Math.sin(clamp(event.beta, -90, 90) * rad);
    this.orientationTilt = { x, y };
    if (this.motionSeen) return;
    this.fromDevice(x, y, -Math.sqrt(Math.max(0, 1 - x * x - y * y)));
  }

  /** A device reading in the device's axes, turned into the screen's when it is rotated. */
  fromDevice(x, y, z) {
    const angle = ((screen.orientation?.angle ?? 0) * Math.PI) / 180;
    if (angle) {
      const [c, s] = [Math.cos(angle), Math.sin(angle)];
      [x, y] = [x * c - y * s, x * s + y * c];
    }
    this.deviceReading = { x, y, z };
    if (this.motionStatus) this.motionStatus.textContent = sensorSays.on;
    this.update();
  }

  /** The reading now, from the highest-priority source that is active. */
  resolve() {
    const fromTilt = (x, y, source) => ({
      x, y, z: -Math.sqrt(Math.max(0, 1 - x * x - y * y)), source,
    });
    if (this.padTilt) return fromTilt(this.padTilt.x, this.padTilt.y, "pad");
    if (this.keys.size) {
      let x = 0;
      let y = 0;
      for (const code of this.keys) {
        x += keyDirections[code][0];
        y += keyDirections[code][1];
      }
      const k = tiltOptions.keyTilt;
      return fromTilt(clamp(x, -1, 1) * k, clamp(y, -1, 1) * k, "keys");
    }
    return this.deviceReading ? { ...this.deviceReading, source: "sensor" } : level;
  }

  update() {
    this.reading = this.resolve();
    const max = tiltOptions.maxTilt;
    this.current = { x: clamp(this.reading.x, -max, max), y: clamp(this.reading.y, -max, max) };
    const shown = tiltOptions.padTilt;
    this.knob.style.left = `${50 + clamp(this.current.x / shown, -1, 1) * 38}%`;
    this.knob.style.top = `${50 - clamp(this.current.y / shown, -1, 1) * 38}%`;
    this.describe(this.current);
    this.onReading?.(this.reading);
    this.schedule();
  }

  /** Tells assistive technology the tilt, in g. */
  describe({ x, y }) {
    this.pad.setAttribute("aria-valuenow", x.toFixed(2));
    this.pad.setAttribute("aria-valuetext", `tilt x ${x.toFixed(2)} g, y ${y.toFixed(2)} g`);
  }

  /** Sends the current tilt now or, if one was sent recently, when the interval is up. */
  schedule() {
    if (!this.send || !this.enabled || this.timer !== null) return;
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

/** Whether the page's permissions policy lets it use `feature` (true where nobody says). */
function allowed(feature) {
  const policy = document.permissionsPolicy ?? document.featurePolicy;
  return typeof policy?.allowsFeature === "function" ? policy.allowsFeature(feature) : true;
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
