// The frame's side of protocol v1 (docs/embedding.md): `{playfield: {v: 1, type, ...}}`
// messages with the host page (ready, resize, state, event, error, reply), commands taken only
// from `window.parent`, every malformed or refused one answered, and a request's `reply` sent
// when its command has really finished (for a session, when the server accepted or refused it).
// The chrome of `/embed/` pages is embed-chrome.js; what each command does, embed-commands.js.

import { $all } from "./dom.js";

/** The protocol version this file speaks. */
export const version = 1;

/** Options of the protocol. */
const options = {
  stateEveryMs: 200, // fewest ms between two unasked `state` messages while only the tick moves
  maxEvents: 64, // longest `subscribe` / `unsubscribe` list
};

/** Commands every demo takes, and those that drive a session (not listed to spectators). */
const commonCommands = ["get-state", "capture", "set", "subscribe", "unsubscribe"];
const controlCommands = new Set(["play", "pause", "reset", "step", "input"]);

/** URL options every embed reads, with their allowed values (`boolean`: 1/0, true/false). */
export const choices = { controls: ["full", "minimal", "none"], theme: ["dark", "light"] };

/** A refused command: `code` is machine-readable, `message` says what to do instead. */
export class EmbedError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Speaks the embed protocol for one demo page (`startEmbed` in embed.js adds the chrome).
 * `spec`:
 * - `demo`: the demo's name; `commands`: the host commands it takes besides the common ones
 *   (`play`, `pause`, `reset`, `step`, `input`); `events`: the event names it sends;
 *   `inputs`: the input types `input` accepts (for `ready`);
 * - `getState()`: the demo's state, e.g. `{running, tick}` (readouts are added here);
 * - `capture()`: the canvas to capture (or a promise of one);
 * - `onCommand(message)`: runs a demo command (`play`, `input`, a `set` of the demo's own
 *   options...); returns a result, or a promise that settles when the command has really
 *   finished (a session's when the server answered); throws or rejects with an `EmbedError`.
 *   `pageCommands` and `sessionCommands` (embed-commands.js) make one from tables.
 * - `onOptions(options)`: the URL options changed (`set` of `theme`, `controls`).
 * Returns `{embedded, options, ready(info), event(name, fields), stateChanged(), error(code,
 * message), run(message), naturalAspect()}`.
 */
export function startProtocol(spec) {
  const parsed = readOptions(location.search);
  const embed = {
    embedded: window.parent !== window,
    options: parsed.options,
    role: null,
    session: null,
    isReady: false,
    subscribed: null, // null: every event; else a Set of names
    lastState: null,
    lastStateAt: 0,
    stateTimer: 0,

    /** Says `ready` (once, after the demo can take commands): `{session, role}` when live. */
    ready(info = {}) {
      embed.session = info.session ?? null;
      embed.role = info.role ?? null;
      document.body.dataset.role = embed.role ?? "";
      if (embed.isReady) return;
      embed.isReady = true;
      const aspect = frameAspect();
      post({
        type: "ready",
        demo: spec.demo,
        session: embed.session,
        role: embed.role,
        commands: allowedCommands(),
        events: spec.events ?? [],
        inputs: spec.inputs ?? [],
        aspect,
        options: embed.options,
      });
      for (const problem of parsed.problems) embed.error("bad-option", problem);
      sendResize();
      embed.stateChanged(true);
    },

    /** Sends a demo event `name` with `fields`, if the host wants it. */
    event(name, fields = {}) {
      if (!embed.isReady || (embed.subscribed && !embed.subscribed.has(name))) return;
      const { type, name: _name, ...rest } = fields;
      post({ type: "event", name, ...rest });
    },

    /** The state may have changed: sends it now if `running` did, else at most every 200 ms. */
    stateChanged(force = false) {
      if (!embed.isReady || !embed.embedded) return;
      const flipped = spec.getState?.().running !== embed.lastState?.running;
      if (!force && !flipped && embed.stateTimer) return;
      const state = currentState();
      const previous = embed.lastState;
      const now = performance.now();
      if (!force && previous && JSON.stringify(previous) === JSON.stringify(state)) return;
      const urgent = force || !previous || previous.running !== state.running;
      if (urgent || now - embed.lastStateAt >= options.stateEveryMs) {
        clearTimeout(embed.stateTimer);
        embed.stateTimer = 0;
        embed.lastState = state;
        embed.lastStateAt = now;
        post({ type: "state", ...state });
      } else if (!embed.stateTimer) {
        const wait = options.stateEveryMs - (now - embed.lastStateAt);
        embed.stateTimer = setTimeout(() => {
          embed.stateTimer = 0;
          embed.stateChanged();
        }, wait);
      }
    },

    /** Tells the host about a problem that no request caused (a refused input, a lost link). */
    error(code, message) {
      post({ type: "error", error: code, message });
    },

    /** Runs a command as if the host had sent it (the toolbar's buttons); returns a promise. */
    run(message) {
      return execute(message);
    },
  };

  function allowedCommands() {
    const own = (spec.commands ?? []).filter(
      (name) => embed.role !== "spectator" || !controlCommands.has(name),
    );
    return [...own, ...commonCommands];
  }

  function currentState() {
    return { ...(spec.getState?.() ?? {}), readouts: readouts() };
  }

  /** The natural frame's width / height (embed.mustache has it from the server), exact. */
  function naturalAspect() {
    const { frameWidth, frameHeight } = document.body.dataset;
    const width = Number(frameWidth);
    const height = Number(frameHeight);
    return width > 0 && height > 0 ? width / height : 4 / 3;
  }

  function frameAspect() {
    return Math.round(naturalAspect() * 1000) / 1000;
  }

  let resizedWidth = 0;
  function sendResize() {
    const width = window.innerWidth;
    if (!embed.isReady || width === resizedWidth) return;
    resizedWidth = width;
    post({ type: "resize", width, height: Math.round(width / naturalAspect()) });
  }

  function post(message) {
    if (embed.embedded) window.parent.postMessage({ playfield: { v: version, ...message } }, "*");
  }

  /** Checks and runs one command; resolves with its result or rejects with an EmbedError. */
  async function execute(message) {
    const type = message.type;
    if (type === "get-state") return currentState();
    if (type === "capture") return captureImage();
    if (type === "subscribe" || type === "unsubscribe") return subscription(message);
    if (type === "set") return setOptions(message);
    if (!(spec.commands ?? []).includes(type)) {
      throw new EmbedError("unknown-command", `${spec.demo} has no command "${type}"`);
    }
    if (!embed.isReady) throw new EmbedError("not-ready", "wait for the ready message");
    if (type === "input") {
      const input = message.input;
      if (typeof input !== "object" || input === null || typeof input.type !== "string") {
        throw new EmbedError("bad-field", "input must be an object with a string type");
      }
    }
    const result = await spec.onCommand?.(message);
    embed.stateChanged();
    return result ?? null;
  }

  async function captureImage() {
    const canvas = await spec.capture?.();
    if (!canvas) throw new EmbedError("unsupported", `${spec.demo} has nothing to capture yet`);
    try {
      return { image: canvas.toDataURL("image/png"), width: canvas.width, height: canvas.height };
    } catch {
      throw new EmbedError("unsupported", "the picture cannot be read back");
    }
  }

  function subscription(message) {
    const names = message.events;
    if (
      !Array.isArray(names) ||
      names.length > options.maxEvents ||
      !names.every((name) => typeof name === "string")
    ) {
      throw new EmbedError("bad-field", "events must be a list of event names");
    }
    const known = new Set(spec.events ?? []);
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new EmbedError("bad-field", `${spec.demo} sends no event ${unknown.join(", ")}`);
    }
    if (message.type === "subscribe") {
      if (embed.subscribed) for (const name of names) embed.subscribed.add(name);
    } else {
      embed.subscribed ??= new Set(known);
      for (const name of names) embed.subscribed.delete(name);
    }
    return { events: embed.subscribed ? [...embed.subscribed] : [...known] };
  }

  async function setOptions(message) {
    const values = message.options;
    if (typeof values !== "object" || values === null || Array.isArray(values)) {
      throw new EmbedError("bad-field", "options must be an object");
    }
    const own = {};
    for (const [name, value] of Object.entries(values)) {
      if (choices[name]) {
        if (!choices[name].includes(value)) {
          throw new EmbedError("bad-field", `${name} must be one of ${choices[name].join(", ")}`);
        }
      } else {
        own[name] = value;
      }
    }
    if (Object.keys(own).length > 0) {
      if (!(spec.commands ?? []).includes("set")) {
        throw new EmbedError("bad-field", `${spec.demo} has no option ${Object.keys(own)[0]}`);
      }
      await spec.onCommand?.({ type: "set", options: own });
    }
    for (const name of Object.keys(choices)) {
      if (values[name] !== undefined) embed.options[name] = values[name];
    }
    spec.onOptions?.(embed.options);
    return { options: embed.options };
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || window.parent === window) return;
    const message = event.data?.playfield;
    if (message === undefined) return;
    const id = message?.id;
    const answer = (body) => post(id === undefined ? body : { ...body, id });
    const fail = (code, text) =>
      id === undefined
        ? post({ type: "error", error: code, message: text, request: message?.type ?? null })
        : post({ type: "reply", id, ok: false, error: code, message: text });
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      post({ type: "error", error: "bad-message", message: "playfield must be an object" });
      return;
    }
    if (message.v !== version) {
      fail("bad-version", `this frame speaks protocol version ${version}: send v: 1`);
      return;
    }
    if (id !== undefined && typeof id !== "string" && typeof id !== "number") {
      post({ type: "error", error: "bad-id", message: "id must be a string or a number" });
      return;
    }
    if (typeof message.type !== "string") {
      fail("missing-type", "a request needs a string type");
      return;
    }
    execute(message).then(
      (result) => id !== undefined && answer({ type: "reply", ok: true, result }),
      (error) =>
        fail(
          error instanceof EmbedError ? error.code : "failed",
          error?.message ?? String(error),
        ),
    );
  });
  window.addEventListener("resize", sendResize);
  embed.naturalAspect = naturalAspect;
  return embed;
}

/**
 * Reads the URL options every embed takes: `autoplay` (1/0, true/false), `controls` (full,
 * minimal, none), `theme` (dark, light). Unknown names are ignored; bad values are reported
 * in `problems` and fall back to the default.
 */
export function readOptions(search) {
  const query = new URLSearchParams(search);
  const values = { autoplay: true, controls: "full", theme: "dark" };
  const problems = [];
  const autoplay = query.get("autoplay");
  if (autoplay !== null) {
    if (["", "1", "true", "yes"].includes(autoplay)) values.autoplay = true;
    else if (["0", "false", "no"].includes(autoplay)) values.autoplay = false;
    else problems.push(`autoplay must be 1 or 0, not "${autoplay}"`);
  }
  for (const [name, allowed] of Object.entries(choices)) {
    const value = query.get(name);
    if (value === null) continue;
    if (allowed.includes(value)) values[name] = value;
    else problems.push(`${name} must be one of ${allowed.join(", ")}, not "${value}"`);
  }
  return { options: values, problems };
}

/** The text of every `[data-readout]` element, by name. */
function readouts() {
  const out = {};
  for (const element of $all("[data-readout]")) {
    out[element.dataset.readout] = element.textContent.trim();
  }
  return out;
}
