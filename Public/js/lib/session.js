// The session channel: one WebSocket to /ws/sessions/ID that reconnects with exponential
// backoff and jitter, resumes the same session, and measures round-trip latency with ping/pong.
// The protocol is in docs/protocol.md.

/** Tunables of the channel. */
export const channelOptions = {
  firstRetryMs: 250, // delay before the first reconnect attempt, in ms
  maxRetryMs: 8000, // longest delay between attempts, in ms
  jitter: 0.5, // each delay is scaled by a random factor in [1 - jitter, 1 + jitter]
  pingEveryMs: 2000, // interval between latency pings, in ms
  latencySmoothing: 0.3, // weight of the newest round trip in the smoothed latency (0 to 1)
  tokenAttempts: 2, // failed attempts, with the session there, before the token counts as refused
};

/**
 * The wait before reconnect attempt `attempt` (1, 2, ...) in ms: 250, 500, 1000, ... up to
 * 8000, each scaled by a factor in [1 - jitter, 1 + jitter] picked by `random` in [0, 1).
 */
export function retryDelay(attempt, random) {
  const { firstRetryMs, maxRetryMs, jitter } = channelOptions;
  const base = Math.min(maxRetryMs, firstRetryMs * 2 ** (attempt - 1));
  return base * (1 - jitter + 2 * jitter * random);
}

/** Connection states, as shown on the status line. */
export const State = Object.freeze({
  connecting: "connecting",
  open: "connected",
  waiting: "reconnecting",
  ended: "ended",
});

/** A command the server refused or did not answer: `code` is the server's (or ours). */
function refusal(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * A client of one session. Handlers: `hello(message)`, `frame(message)`, `event(message)`,
 * `status(message)`, `stored(message)`, `error(message)`, `state(name, detail)`,
 * `refused(reason)` (the token did not work, now watching), `sent(message)` (a message went
 * out); each is optional.
 */
export class SessionClient {
  /**
   * @param {string} id the session id
   * @param {string|null} token the control token, or null to watch as a spectator
   * @param {object} handlers callbacks by message type
   */
  constructor(id, token, handlers = {}) {
    this.id = id;
    this.token = token;
    this.handlers = handlers;
    this.state = State.connecting;
    this.role = token ? "controller" : "spectator";
    this.hello = null;
    this.latencyMs = null; // smoothed round trip, in ms
    this.attempt = 0; // failed attempts since the last open socket
    this.connections = 0; // sockets that opened, over the client's life
    this.socket = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pingId = 0;
    this.requestId = 0;
    this.requests = new Map(); // id -> {resolve, reject, timer}: commands waiting for an answer
    this.closedByUs = false;
  }

  /** The channel URL on this page's host, ws: or wss: to match the page. */
  get url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}//${location.host}/ws/sessions/${encodeURIComponent(this.id)}${query}`;
  }

  /** Opens the channel (again). */
  connect() {
    clearTimeout(this.retryTimer);
    this.closedByUs = false;
    this.setState(State.connecting);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      this.attempt = 0;
      this.connections += 1;
      this.startPings();
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPings();
      this.failRequests("the session channel closed before the server answered");
      if (this.closedByUs) return;
      this.scheduleReconnect(opened, event);
    });
  }

  /** Closes the channel for good. */
  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    this.stopPings();
    this.socket?.close(1000, "bye");
    this.socket = null;
    this.failRequests("the session channel was closed");
    this.setState(State.ended);
  }

  /** Drops the socket as a network failure would; the client reconnects (for tests). */
  drop() {
    this.socket?.close(4000, "dropped by the page");
  }

  /** Sends one message object; false if the channel is not open. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    this.handlers.sent?.(message);
    return true;
  }

  /**
   * Sends a command with an `id` and resolves when the server accepts it (`ack`; for a `step`,
   * once it ran: its `ack`, or on demand the frame carrying the id; for a `flush`, with the
   * `stored` message that answers it); rejects with
   * an Error whose `code` is the server's when it refuses it (its `error`), or `not-connected`,
   * or `no-answer` after `timeoutMs` (docs/protocol.md, `ack`).
   */
  request(message, timeoutMs) {
    const id = `pf-${++this.requestId}`;
    if (!this.send({ ...message, id })) {
      return Promise.reject(refusal("not-connected", "the session is not connected"));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.requests.delete(id);
        reject(refusal("no-answer", `the server did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.requests.set(id, { resolve, reject, timer });
    });
  }

  /** Settles the request `message.id` answers; false when no request waits for it. */
  answer(message) {
    const waiting = this.requests.get(message.id);
    if (!waiting) return false;
    this.requests.delete(message.id);
    clearTimeout(waiting.timer);
    // NB: an on-demand session answers a `step` with the frame of its last tick, carrying the id.
    if (message.type === "ack" || message.type === "frame") waiting.resolve(null);
    else if (message.type === "answer" || message.type === "stored") waiting.resolve(message);
    // NB: a flush answered while the server cannot store (docs/protocol.md, `unstored`).
    else if (message.type === "unstored") waiting.reject(refusal("unstored", message.reason));
    else waiting.reject(refusal(message.error, message.message));
    return true;
  }

  /** Rejects every request still waiting: the channel it was sent on is gone. */
  failRequests(reason) {
    for (const [, waiting] of this.requests) {
      clearTimeout(waiting.timer);
      waiting.reject(refusal("not-connected", reason));
    }
    this.requests.clear();
  }

  /** Whether this client may send inputs. */
  get controls() {
    return this.role === "controller";
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    switch (message.type) {
      case "hello":
        this.hello = message;
        this.role = message.role;
        this.setState(State.open);
        break;
      case "pong":
        this.measure(message);
        return;
      case "ack":
        this.answer(message);
        return;
      case "frame":
        if (message.id !== undefined) this.answer(message);
        break;
      case "answer":
      case "stored":
        // A query's answer (street soccer's `plan`), a flush's, goes to whoever asked.
        if (message.id !== undefined && this.answer(message)) return;
        break;
      case "unstored":
        // A waiting flush is answered by it; the page's handler hears it too.
        if (message.id !== undefined) this.answer(message);
        break;
      case "error":
        // A refusal of a request goes to whoever waits for it, not to the page's handler.
        if (message.id !== undefined && this.answer(message)) return;
        break;
      default:
        break;
    }
    this.handlers[message.type]?.(message);
  }

  measure(pong) {
    if (typeof pong.t !== "number") return;
    const sample = performance.now() - pong.t;
    const weight = channelOptions.latencySmoothing;
    this.latencyMs =
      this.latencyMs === null ? sample : this.latencyMs * (1 - weight) + sample * weight;
  }

  startPings() {
    this.stopPings();
    const ping = () => this.send({ type: "ping", id: ++this.pingId, t: performance.now() });
    ping();
    this.pingTimer = setInterval(ping, channelOptions.pingEveryMs);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** Waits 250 ms, 500 ms, 1 s, ... up to 8 s (each with jitter), then connects again. */
  async scheduleReconnect(opened, event) {
    this.attempt += 1;
    // A socket that never opened may mean the session is gone, or that the token was
    // refused (the browser does not say which): ask the API before retrying.
    if (!opened) {
      const answer = await this.sessionStatus();
      if (answer === 404) {
        this.setState(State.ended, "the session no longer exists");
        return;
      }
      if (answer === 200 && this.token && this.attempt >= channelOptions.tokenAttempts) {
        this.token = null;
        this.handlers.refused?.("the control token was refused; watching instead");
      }
    }
    if (event.code === 1001 && /deleted|expired/.test(event.reason)) {
      this.setState(State.ended, event.reason);
      return;
    }
    const delay = retryDelay(this.attempt, Math.random());
    this.setState(State.waiting, `retry in ${(delay / 1000).toFixed(1)} s`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** The HTTP status of `GET /api/sessions/ID`, or 0 when the server cannot be reached. */
  async sessionStatus() {
    try {
      const response = await fetch(`/api/sessions/${encodeURIComponent(this.id)}`, {
        cache: "no-store",
      });
      await response.text();
      return response.status;
    } catch {
      return 0;
    }
  }

  setState(state, detail = "") {
    this.state = state;
    this.handlers.state?.(state, detail);
  }
}
