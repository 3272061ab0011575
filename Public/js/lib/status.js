// The status line under every demo: connection, role, pictures drawn and frames received per
// second, round-trip latency, the session's tick, and whether the game loop's budget slows it.

import { RateMeter } from "./frames.js";
import { el, setText } from "./dom.js";

/** How often the line is rewritten, in ms. */
const refreshMs = 250;

/** Every field the line can show, in order. */
const allFields = ["state", "role", "fps", "frames", "latency", "tick", "budget"];

export class StatusLine {
  /**
   * Fills `element` with labelled fields. Options: `fields`, the names to show (all by
   * default); `stoppedText`, what the tick says while the source does not advance.
   */
  constructor(element, { fields = allFields, stoppedText = "stopped" } = {}) {
    this.element = element;
    this.stoppedText = stoppedText;
    this.drawn = new RateMeter();
    this.received = new RateMeter();
    this.fields = {};
    for (const name of fields) {
      this.fields[name] = el("span", { class: `status-${name}`, dataset: { field: name } });
    }
    element.replaceChildren(...Object.values(this.fields));
    this.values = {
      state: "connecting", role: "", latency: null, tick: null, running: null, budget: null,
    };
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

  /** Updates some of: state, role, latency (ms), tick, running, budget (the status's). */
  update(values) {
    Object.assign(this.values, values);
    this.element.dataset.state = this.values.state;
    // Connection and role changes show at once; counters wait for the next refresh.
    if ("state" in values || "role" in values || "budget" in values) this.render();
    // NB: the tick shows at once too, so that it agrees with other readouts of the same frame
    // (the replay's seek bar), instead of lagging up to one refresh behind them.
    else if ("tick" in values || "running" in values) this.renderTick();
  }

  renderTick() {
    const { tick, running } = this.values;
    if (!this.fields.tick) return;
    setText(
      this.fields.tick,
      tick === null ? "" : `tick ${tick}${running === false ? ` (${this.stoppedText})` : ""}`,
    );
  }

  render() {
    const { state, role, latency } = this.values;
    const texts = {
      state,
      role: role === "controller" ? "you control" : role === "spectator" ? "watching" : "",
      fps: `${this.drawn.rate()} fps`,
      frames: `${this.received.rate()} frames/s`,
      latency: `rtt ${latency === null ? "–" : `${latency.toFixed(latency < 10 ? 1 : 0)} ms`}`,
      budget: budgetText(this.values.budget),
    };
    for (const [name, field] of Object.entries(this.fields)) {
      if (name !== "tick") setText(field, texts[name]);
    }
    this.renderTick();
    if (this.fields.state) {
      this.fields.state.className = `status-state state-${state.replace(/\s.*/, "")}`;
    }
  }
}

/** What the line says about the tick budget: nothing unless the session is slowed. */
export function budgetText(budget) {
  if (!budget?.throttled) return "";
  return `heavy: stepped every ${budget.every} ticks (${budget.costMs} ms a step, ` +
    `its share ${budget.shareMs} ms)`;
}
