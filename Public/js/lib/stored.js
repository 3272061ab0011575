// Whether what the user did is stored: the session socket's `stored` watermark
// (docs/protocol.md, section 3). After its inputs the page sends a `flush`; the server answers
// it (a `stored` message with its id) once every input sent before it is in the committed log.
// A small status under the picture says "Saved", "Saving…" or "Not saved: why", politely to
// screen readers, and only when that changes: while inputs keep coming and keep being stored
// (a commit every 250 ms) it stays "Saved".

import { requestJSON } from "./api.js";
import { setText } from "./dom.js";

/** Tunables of the status. */
export const storedOptions = {
  // An input not yet stored this long after it was sent shows "Saving…" (younger ones leave
  // "Saved" as it is: the server commits every 250 ms, and the text must not flicker).
  graceMs: 1500,
  // Not stored this long after it was sent: "Not saved", with the server's reason when known.
  overdueMs: 4000,
  // How long one `flush` may wait for its answer before the page asks again, in ms.
  flushTimeoutMs: 30000,
  // How often the status is checked against the clock (and a flush sent when due), in ms.
  refreshMs: 250,
};

/** What the page sends that is not an input of the model (never counted as one). */
const controlTypes = new Set(["ping", "flush", "start", "stop", "step"]);

/** Whether `message`, sent on the session socket, is an input the server logs. */
export function isInput(message) {
  return typeof message?.type === "string" && !controlTypes.has(message.type);
}

/** What the status says while the database cannot be written (the server's words vary). */
export const cannotWrite = "the database cannot be written";

/**
 * The watermark's bookkeeping for one page, with no DOM and no clock of its own: every call
 * that depends on time takes `now` (ms). The server counts a connection's inputs afresh, so
 * the page does too; `flushing` is the one flush in flight, `through` the inputs it covers.
 */
export class StoredTracker {
  constructor() {
    this.memoryOnly = false; // the session has no database: nothing of it is ever stored
    this.everStored = false; // some input of this page was stored
    this.problem = null; // why inputs are not stored (a refusal, or the server's health)
    this.lost = null; // inputs of an earlier connection that are gone, or may be: a view
    this.lastTick = null; // the newest tick seen, to tell a session that went back
    this.pendingSince = null;
    this.open(null);
  }

  /** A new connection (`hello`, or null before the first): its inputs are counted from 0. */
  open(hello) {
    if (hello && this.pendingSince !== null) {
      // NB: the dropped socket's inputs were queued before any new one: a later input
      // stored on this connection means they are stored too, unless the session went back.
      const back = this.lastTick !== null && hello.tick < this.lastTick;
      this.lost = back
        ? {
            state: "unsaved",
            text: `Not saved: the session went back to tick ${hello.tick}; your last changes are lost`,
          }
        : {
            state: "unknown",
            text: "Maybe not saved: the connection dropped before your last change was stored",
          };
    }
    this.sent = 0; // inputs sent on this connection
    this.covered = 0; // of them, how many a flush answer said are stored
    this.flushing = null; // {through}: the flush in flight
    this.pendingSince = null; // when the oldest input not known to be stored was sent
    this.nextSince = null; // when the first input after the flush in flight was sent
  }

  /** The session's newest tick (from frames). */
  tick(tick) {
    this.lastTick = tick;
  }

  /** One input sent at `now`. */
  input(now) {
    this.sent += 1;
    this.pendingSince ??= now;
    if (this.flushing) this.nextSince ??= now;
  }

  /** Whether a flush should be sent now. */
  get flushDue() {
    return !this.memoryOnly && !this.flushing && this.sent > this.covered;
  }

  /** A flush was sent, covering every input so far. */
  flushSent() {
    this.flushing = { through: this.sent };
    this.nextSince = null;
  }

  /** The flush in flight was answered: every input it covers is stored. */
  flushAnswered() {
    if (!this.flushing) return;
    const { through } = this.flushing;
    this.covered = through;
    this.flushing = null;
    this.pendingSince = this.sent > this.covered ? this.nextSince : null;
    this.nextSince = null;
    // NB: a flush covering nothing is answered at once, stored or not: it proves nothing.
    if (through === 0) return;
    this.everStored = true;
    this.problem = null;
    this.lost = null;
  }

  /** The flush in flight was refused with `code` (`not-stored`: kept in memory only), or not
   * answered in time (asked again). */
  flushFailed(code) {
    this.flushing = null;
    if (code === "not-stored") this.memoryOnly = true;
  }

  /** The server says why inputs are not stored (a `storage-backlog` refusal, its health). */
  failing(reason) {
    this.problem = reason;
  }

  /** Whether the status waits long enough to ask the server why. */
  overdue(now) {
    return this.pendingSince !== null && now - this.pendingSince >= storedOptions.overdueMs;
  }

  /**
   * What the status says at `now`, for a session `running` or not: `{state, text}`, state one
   * of `none` (nothing done yet), `saved`, `saving`, `waiting` (inputs wait for the stopped
   * session's next step, and so does their storing), `unsaved`, `unknown` (sent on a
   * connection that dropped first), `memory` (no database).
   */
  view(now, running = true) {
    if (this.memoryOnly) {
      return { state: "memory", text: "Not saved: this session has no database (memory only)" };
    }
    if (!running && this.pendingSince !== null && !this.problem) {
      return { state: "waiting", text: "Not saved yet: the session is stopped (saved once it steps)" };
    }
    const waited = this.pendingSince === null ? 0 : now - this.pendingSince;
    if (this.problem && this.pendingSince !== null) {
      return { state: "unsaved", text: `Not saved: ${this.problem}` };
    }
    if (waited >= storedOptions.overdueMs) {
      const why = this.problem ?? "the server has not stored your last change yet";
      return { state: "unsaved", text: `Not saved: ${why}` };
    }
    if (this.lost) return this.lost;
    if (waited >= storedOptions.graceMs) return { state: "saving", text: "Saving…" };
    if (this.everStored) return { state: "saved", text: "Saved" };
    return { state: "none", text: "" };
  }
}

/**
 * The status element `element` (a live region) kept current for `client` (a SessionClient):
 * call `sent`, `hello`, `frame` and `error` from its handlers (demo.js does).
 */
export class StoredStatus {
  /** `running()` says whether the session runs (a stopped one applies inputs only as it
   * steps, and stores them then). */
  constructor(element, client, running = () => true) {
    this.element = element;
    this.client = client;
    this.running = running;
    this.tracker = new StoredTracker();
    this.asking = false; // a /healthz request is under way
    this.askedAt = -Infinity;
    this.timer = setInterval(() => this.refresh(), storedOptions.refreshMs);
    this.render();
  }

  /** A message went out on the socket. */
  sent(message) {
    // NB: a guest (the paintbrush's drawer) sends inputs too; only spectators send none.
    if (!isInput(message) || this.client.role === "spectator") return;
    this.tracker.input(performance.now());
    // NB: one flush for a burst of inputs sent in the same task.
    queueMicrotask(() => this.flush());
  }

  /** A new connection: counts afresh, and a first flush (covering nothing) tells a session
   * without a database, whose flushes are refused. */
  hello(message) {
    this.tracker.open(message);
    if (message.role !== "spectator") this.flush(true);
    this.render();
  }

  /** A frame of tick `tick` came. */
  frame(tick) {
    this.tracker.tick(tick);
  }

  /** The server refused something: a refused input because the database cannot keep up. */
  error(message) {
    if (message.error === "storage-backlog") {
      this.tracker.failing(cannotWrite);
      this.render();
    }
  }

  /** The server says it cannot store inputs now (`unstored`, docs/protocol.md): its reason,
   * until a flush is answered with them stored. */
  unstored(message) {
    this.tracker.failing(String(message.reason ?? cannotWrite));
    this.render();
  }

  /** Sends a flush when one is due (or `probe`: even with nothing to cover). */
  flush(probe = false) {
    const tracker = this.tracker;
    if (this.client.state !== "connected" || tracker.memoryOnly || tracker.flushing) return;
    if (!probe && !tracker.flushDue) return;
    tracker.flushSent();
    const mine = tracker.flushing;
    this.client.request({ type: "flush" }, storedOptions.flushTimeoutMs).then(
      () => {
        if (tracker.flushing === mine) tracker.flushAnswered();
        this.render();
      },
      (error) => {
        if (tracker.flushing === mine) tracker.flushFailed(error.code);
        this.render();
      },
    );
  }

  /** On the clock: a flush when due, the reason asked for when overdue, the text. */
  refresh() {
    this.flush();
    const now = performance.now();
    if (
      this.running() &&
      this.tracker.overdue(now) &&
      !this.asking &&
      now - this.askedAt > storedOptions.overdueMs
    ) {
      this.askWhy(now);
    }
    this.render();
  }

  /** Asks the server's health why nothing is stored: its storage says when it cannot write. */
  async askWhy(now) {
    this.asking = true;
    this.askedAt = now;
    try {
      const health = await requestJSON("/healthz");
      const storage = String(health?.storage ?? "");
      if (/cannot (be )?write|cannot be written/.test(storage) || health?.database) {
        this.tracker.failing(cannotWrite);
      }
    } catch {
      // The server cannot be reached: the connection's own state says so.
    } finally {
      this.asking = false;
      this.render();
    }
  }

  render() {
    const { state, text } = this.tracker.view(performance.now(), this.running());
    this.element.dataset.state = state;
    setText(this.element, text);
    this.element.title = text;
  }
}
