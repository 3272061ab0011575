// The Playfield host library as a plain script:
// `<script src="https://HOST/js/playfield-embed.global.js"></script>` sets
// `window.PlayfieldEmbed`. The ES module `/js/playfield-embed.js` exports the same class.
// It drives one embedded demo over protocol v1 (docs/embedding.md): promise methods for every
// command, `on(type, fn)` for what the frame says, and auto-height on `resize`.
(function install(global) {
  "use strict";

  /** The protocol version this library speaks. */
  const version = 1;
  /** How long a request waits for its reply before it fails, in ms. */
  const replyTimeoutMs = 10000;
  /** The origin this script came from: where the demos live, unless `origin` says otherwise. */
  const scriptOrigin = (() => {
    const script = global.document?.currentScript;
    try {
      return script ? new URL(script.src).origin : null;
    } catch {
      return null;
    }
  })();

  /** The address of an embed page: `/embed/DEMO?option=value...` on `origin`. */
  function embedURL(origin, demo, options = {}) {
    if (!/^[a-z0-9-]+$/.test(demo)) throw new Error(`not a demo name: ${demo}`);
    const url = new URL(`/embed/${demo}`, origin);
    for (const [name, value] of Object.entries(options)) {
      if (value === undefined || value === null) continue;
      const text = typeof value === "object" ? JSON.stringify(value) : String(value);
      url.searchParams.set(name, text === "true" ? "1" : text === "false" ? "0" : text);
    }
    return url.href;
  }

  class PlayfieldEmbed {
    /**
     * Drives the demo in `target`: an `<iframe>` (its `src` is kept unless `demo` is given)
     * or a container element (a new iframe is put in it). Settings: `demo` (a name such as
     * "maze"), `options` (URL options: autoplay, controls, theme, session, watch, seed, and
     * the demo's own fields), `origin` (the Playfield server; default: where this script came
     * from), `width`, `height` (CSS px, for a new iframe), `autoHeight` (follow the frame's
     * `resize` messages: default true for a new iframe), `title`.
     */
    constructor(target, settings = {}) {
      if (typeof target === "string") target = global.document.querySelector(target);
      if (!target) throw new Error("PlayfieldEmbed needs an iframe or a container element");
      const origin = settings.origin ?? PlayfieldEmbed.defaultOrigin ?? global.location.origin;
      let iframe = target;
      let created = false;
      if (target.tagName !== "IFRAME") {
        iframe = global.document.createElement("iframe");
        iframe.width = String(settings.width ?? 640);
        iframe.height = String(settings.height ?? 480);
        iframe.style.border = "0";
        iframe.style.maxWidth = "100%";
        target.append(iframe);
        created = true;
      }
      iframe.setAttribute("allow", "fullscreen; accelerometer; gyroscope");
      iframe.allowFullscreen = true;
      if (settings.title || !iframe.title) {
        iframe.title = settings.title ?? `Playfield: ${settings.demo ?? "demo"}`;
      }
      if (settings.demo) iframe.src = embedURL(origin, settings.demo, settings.options);
      this.iframe = iframe;
      this.origin = new URL(iframe.src, global.location.href).origin;
      this.autoHeight = settings.autoHeight ?? created;
      this.listeners = new Map(); // type -> Set of functions
      this.pending = new Map(); // id -> {resolve, reject, timer}
      this.nextID = 1;
      this.info = null;
      this.state = null;
      this.ready = new Promise((resolve) => {
        this.resolveReady = resolve;
      });
      this.receive = (event) => this.handle(event);
      global.addEventListener("message", this.receive);
    }

    /** Calls `fn(message)` on every message of `type`: ready, state, event, resize, error. */
    on(type, fn) {
      if (!this.listeners.has(type)) this.listeners.set(type, new Set());
      this.listeners.get(type).add(fn);
      if (type === "ready" && this.info) fn(this.info);
      return this;
    }

    /** Stops calling `fn` for `type`. */
    off(type, fn) {
      this.listeners.get(type)?.delete(fn);
      return this;
    }

    /** Runs the simulation. */
    play() {
      return this.request({ type: "play" });
    }

    /** Stops the simulation where it is. */
    pause() {
      return this.request({ type: "pause" });
    }

    /** Back to the start (a new game, the start view...). */
    reset() {
      return this.request({ type: "reset" });
    }

    /** Advances a paused simulation by `count` ticks (1 to 600). */
    step(count = 1) {
      return this.request({ type: "step", count });
    }

    /** Sends one of the demo's inputs, e.g. `{type: "tilt", x: 0.5, y: 0}` (docs/protocol.md). */
    send(input) {
      return this.request({ type: "input", input });
    }

    /** Changes URL-level options: `{theme: "light"}`, `{controls: "none"}`, `{palette: "fire"}`. */
    set(options) {
      return this.request({ type: "set", options });
    }

    /** The demo's state now: `{running, tick, readouts, ...}`. */
    getState() {
      return this.request({ type: "get-state" });
    }

    /** The picture as `{image: "data:image/png;base64,...", width, height}`. */
    capture() {
      return this.request({ type: "capture" });
    }

    /** Asks for these event names again (all are sent until the first `unsubscribe`). */
    subscribe(events) {
      return this.request({ type: "subscribe", events });
    }

    /** Stops these event names. */
    unsubscribe(events) {
      return this.request({ type: "unsubscribe", events });
    }

    /** Stops listening, fails what is pending, and removes an iframe this library made. */
    destroy(removeFrame = false) {
      global.removeEventListener("message", this.receive);
      for (const [, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error("destroyed"));
      }
      this.pending.clear();
      if (removeFrame) this.iframe.remove();
    }

    /** Sends `message` after `ready`; resolves with the reply's result, or rejects. */
    async request(message) {
      await this.ready;
      const id = this.nextID++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new Error(`no reply to ${message.type} within ${replyTimeoutMs} ms`));
        }, replyTimeoutMs);
        this.pending.set(id, { resolve, reject, timer });
        this.iframe.contentWindow.postMessage(
          { playfield: { v: version, id, ...message } },
          this.origin,
        );
      });
    }

    handle(event) {
      if (event.source !== this.iframe.contentWindow || event.origin !== this.origin) return;
      const message = event.data?.playfield;
      if (!message || message.v !== version || typeof message.type !== "string") return;
      switch (message.type) {
        case "ready":
          this.info = message;
          this.resolveReady(message);
          break;
        case "state":
          this.state = message;
          break;
        case "resize":
          if (this.autoHeight && message.height > 0) {
            this.iframe.style.height = `${message.height}px`;
            this.iframe.removeAttribute("height");
          }
          break;
        case "reply": {
          const waiting = this.pending.get(message.id);
          if (!waiting) return;
          this.pending.delete(message.id);
          clearTimeout(waiting.timer);
          if (message.ok) waiting.resolve(message.result);
          else waiting.reject(Object.assign(new Error(message.message), { code: message.error }));
          return;
        }
        default:
          break;
      }
      for (const fn of this.listeners.get(message.type) ?? []) fn(message);
    }
  }

  PlayfieldEmbed.version = version;
  /** Where new frames point when the settings name no `origin`. */
  PlayfieldEmbed.defaultOrigin = scriptOrigin;
  PlayfieldEmbed.embedURL = embedURL;
  global.PlayfieldEmbed = PlayfieldEmbed;
})(globalThis);
