// The status line under every demo: connection, role, pictures drawn and frames received per
// second, round-trip latency, and the session's tick.

import { RateMeter } from "./frames.js";
import { el, setText } from "./dom.js";

/** How often the line is rewritten, in ms. */
const refreshMs = 250;

export class StatusLine {
  /** Fills `element` with labelled fields. */
  constructor(element) {
    this.element = element;
    this.drawn = new RateMeter();
    this.received = new RateMeter();
    this.fields = {};
    for (const name of ["state", "role", "fps", "frames", "latency", "tick"]) {
      this.fields[name] = el("span", { class: `status-${name}`, dataset: { field: name } });
    }
    element.replaceChildren(...Object.values(this.fields));
    this.values = { state: "connecting", role: "", latency: null, tick: null, running: null };
    this.timer = setInterval(() => this.render(), refreshMs);
    this.render();
  }

  /** Counts one picture drawn. */
  countDraw(now) {
    this.drawn.tick(now);
  }

  /** Counts one frame received. */
  countFrame(now) {
    this.received.tick(now);
  }

  /** Updates some of: state, role, latency (ms), tick, running. */
  update(values) {
    Object.assign(this.values, values);
    this.element.dataset.state = this.values.state;
    // Connection and role changes show at once; counters wait for the next refresh.
    if ("state" in values || "role" in values) this.render();
  }

  render() {
    const { state, role, latency, tick, running } = this.values;
    const f = this.fields;
    setText(f.state, state);
    f.state.className = `status-state state-${state.replace(/\s.*/, "")}`;
    setText(f.role, role === "controller" ? "you control" : role === "spectator" ? "watching" : "");
    setText(f.fps, `${this.drawn.rate()} fps`);
    setText(f.frames, `${this.received.rate()} frames/s`);
    const rtt = latency === null ? "–" : `${latency.toFixed(latency < 10 ? 1 : 0)} ms`;
    setText(f.latency, `rtt ${rtt}`);
    const paused = running === false ? " (stopped)" : "";
    setText(f.tick, tick === null ? "" : `tick ${tick}${paused}`);
  }
}
