// Replays: a stored session played again from the start of its log (its first tick, or an
// on-demand session's oldest kept snapshot) over /ws/replays/ID, exactly as it ran, with
// play/pause, 0.25x to 8x and a seek bar. The server sends `hello` (with `end`,
// the last tick there is), `frame`s and `event`s as the live channel does, and `status`
// {tick, end, playing, speed, seeking}; the viewer sends `play`, `pause`, `speed {value}` and
// `seek {tick}`. After a seek the server sends a fresh `hello` with the whole state.

import { $, $all, setText } from "./dom.js";
import { SessionClient } from "./session.js";

/** Tunables of the replay controls. */
export const replayOptions = {
  speeds: [0.25, 0.5, 1, 2, 4, 8], // the speeds offered, ticks per server tick
  seekEveryMs: 80, // while the seek bar is dragged, at most one seek this often, in ms
};

/** A replay channel: the session channel's reconnects, without input and without pings. */
export class ReplayClient extends SessionClient {
  /** @param {string} id the session id; `handlers` as for SessionClient */
  constructor(id, handlers = {}) {
    super(id, null, {
      ...handlers,
      hello: (message) => {
        handlers.hello?.(message);
        this.resume();
      },
      status: (message) => {
        this.position = {
          tick: message.tick,
          playing: message.playing,
          speed: message.speed,
        };
        handlers.status?.(message);
      },
    });
    this.position = null; // {tick, playing, speed} as the server last reported
    this.resuming = null; // the position to restore once a new connection says hello
  }

  /** The replay channel on this page's host. */
  get url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/replays/${encodeURIComponent(this.id)}`;
  }

  /** A replay is watched: nothing the page sends counts as input. */
  get controls() {
    return false;
  }

  connect() {
    // A new connection starts a new replay at tick 0: go back to where the last one was.
    this.resuming = this.position;
    super.connect();
  }

  /** The replay channel answers no pings: latency means nothing for a recording. */
  startPings() {}

  play() {
    return this.send({ type: "play" });
  }

  pause() {
    return this.send({ type: "pause" });
  }

  /** `speed`: 0.25 to 8. */
  setSpeed(speed) {
    return this.send({ type: "speed", value: speed });
  }

  /** `tick`: 0 to the replay's end. */
  seek(tick) {
    return this.send({ type: "seek", tick: Math.max(0, Math.round(tick)) });
  }

  resume() {
    const position = this.resuming;
    this.resuming = null;
    if (!position) return;
    if (position.speed !== 1) this.setSpeed(position.speed);
    if (position.tick > 0) this.seek(position.tick);
    if (!position.playing) this.pause();
  }
}

/** `m:ss.s` for a number of seconds, or `h:mm:ss` from an hour on. */
export function formatTime(seconds) {
  const tenths = Math.round(seconds * 10);
  const pad = (value, width) => String(value).padStart(width, "0");
  if (tenths >= 36_000) {
    const whole = Math.round(seconds);
    const h = Math.floor(whole / 3600);
    return `${h}:${pad(Math.floor((whole % 3600) / 60), 2)}:${pad(whole % 60, 2)}`;
  }
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${pad(s.toFixed(1), 4)}`;
}

/**
 * The replay page's controls: the play/pause button (`[data-action="play"]`), the speed
 * buttons (`[data-speed]`), the seek bar (`.seek-bar`, a range input) and its readout
 * (`.seek-time`). `demo` is the context of runDemo, whose client is a ReplayClient.
 */
export class ReplayControls {
  constructor(demo) {
    this.demo = demo;
    const root = demo.root;
    this.state = { tick: 0, end: 0, playing: false, speed: 1, seeking: false };
    this.playButton = $('[data-action="play"]', root);
    this.speedButtons = $all("[data-speed]", root);
    this.bar = $(".seek-bar", root);
    this.time = $(".seek-time", root);
    this.dragging = false;
    this.target = null; // the tick asked for, shown on the bar until the seek's hello comes
    this.lastSeek = 0;
    this.seekTimer = null;
    this.bind();
    this.listen();
    this.render();
  }

  /** Wraps the client's handlers so that hello, status and frames move the controls. */
  listen() {
    const handlers = this.demo.client.handlers;
    const { hello, status, frame } = handlers;
    handlers.hello = (message) => {
      hello(message);
      this.target = null;
      Object.assign(this.state, { tick: message.tick, end: message.end });
      this.setPlaying(message.running);
      this.render();
    };
    handlers.status = (message) => {
      status?.(message);
      if (message.speed !== this.state.speed) this.demo.frames.setSpeed(message.speed);
      const { tick, end, speed, seeking } = message;
      Object.assign(this.state, { tick, end, speed, seeking });
      this.setPlaying(message.playing);
      this.demo.root.dataset.seeking = String(seeking);
      this.render();
    };
    handlers.frame = (message) => {
      frame(message);
      this.state.tick = message.tick;
      this.renderSoon();
    };
  }

  bind() {
    const client = () => this.demo.client;
    this.playButton.addEventListener("click", () => this.toggle());
    for (const button of this.speedButtons) {
      button.addEventListener("click", () => client().setSpeed(Number(button.dataset.speed)));
    }
    // The bar seeks while it is dragged (throttled), and once more where it is let go.
    this.bar.addEventListener("input", () => {
      this.dragging = true;
      this.showTime(Number(this.bar.value));
      this.seekSoon();
    });
    this.bar.addEventListener("change", () => {
      this.dragging = false;
      clearTimeout(this.seekTimer);
      this.seekTimer = null;
      this.seek(Number(this.bar.value));
    });
    window.addEventListener("keydown", (event) => {
      if (event.code !== "Space" || event.repeat || isControl(event.target)) return;
      event.preventDefault();
      this.toggle();
    });
  }

  toggle() {
    const client = this.demo.client;
    if (this.state.playing) client.pause();
    else client.play();
  }

  seekSoon() {
    if (this.seekTimer !== null) return;
    const wait = Math.max(0, this.lastSeek + replayOptions.seekEveryMs - performance.now());
    this.seekTimer = setTimeout(() => {
      this.seekTimer = null;
      this.lastSeek = performance.now();
      this.seek(Number(this.bar.value));
    }, wait);
  }

  seek(tick) {
    if (this.demo.client.seek(tick)) this.target = tick;
  }

  setPlaying(playing) {
    this.state.playing = playing;
    this.demo.running = playing;
    this.demo.status.update({ running: playing });
    this.demo.root.dataset.playing = String(playing);
  }

  renderSoon() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  render() {
    const { tick, end, playing, speed } = this.state;
    const atEnd = end > 0 && tick >= end;
    setText(this.playButton, playing ? "PAUSE" : atEnd ? "REPLAY" : "PLAY");
    this.playButton.setAttribute("aria-pressed", String(playing));
    for (const button of this.speedButtons) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.speed) === speed));
    }
    this.bar.max = String(end);
    if (!this.dragging) {
      const shown = this.target ?? tick;
      this.bar.value = String(Math.min(shown, end));
      this.showTime(shown);
    }
  }

  /** The readout beside the bar: tick and time of `tick` against the end. */
  showTime(tick) {
    const { end } = this.state;
    const [now, last] = [formatTime(tick / 60), formatTime(end / 60)];
    setText(this.time, `tick ${tick} / ${end} · ${now} / ${last}`);
    this.bar.setAttribute("aria-valuetext", `${now} of ${last}`);
  }
}

/** Whether Space already means something where the focus is (a button, a text field). */
function isControl(target) {
  if (target instanceof HTMLInputElement) return target.type !== "range";
  return target instanceof HTMLButtonElement || target instanceof HTMLSelectElement;
}
