// The part every simulation page shares: choose or create the session, open the channel,
// keep frames in a buffer, draw on requestAnimationFrame, keep the info and status lines
// current, and (inside an iframe) talk to the host page with postMessage.

import { $, $all, el, setText } from "./dom.js";
import { FittedView } from "./canvas.js";
import { FrameBuffer } from "./frames.js";
import { chooseSession, forgetToken, watchLink } from "./join.js";
import { SessionClient } from "./session.js";
import { StatusLine } from "./status.js";
import { TiltInput } from "./tilt.js";

/** How long a notice (an error or an event worth telling) stays, in ms. */
const noticeMs = 4000;

/**
 * Runs a demo page. `page` has:
 * - `kind`: the session kind, e.g. "maze"; `config`: the config for a new session;
 *   `fresh`: create a new session even if this browser has one of this kind;
 * - `hello(message, demo)`: (re)build from a hello (also after a reconnect);
 * - `event(message, demo)`: an event of the model, optional;
 * - `draw(sample, demo, now)`: draw `sample = {a, b, alpha}` from the frame buffer;
 * - `frame(message, demo)`: extra work per frame received, optional;
 * - `setup(demo)`: bind the page's controls once, before the channel opens, optional.
 * Returns the demo context: `{client, frames, status, send, notice, redraw, running, ...}`.
 */
export async function runDemo(page) {
  const root = $(".demo");
  const demo = {
    root,
    kind: page.kind,
    client: null,
    frames: new FrameBuffer(),
    status: new StatusLine($(".status", root)),
    hello: null,
    running: null,
    send: (message) => demo.client?.controls && demo.client.send(message),
    notice: (text, kind = "info") => showNotice(root, text, kind),
    redraw: () => {
      demo.dirty = true;
    },
    dirty: true,
    view: null,
    tilt: null,
    /** Sends `message` (or what `message()` returns) when a `data-action` button is clicked. */
    bind(action, message) {
      for (const button of $all(`[data-action="${action}"]`, root)) {
        button.addEventListener("click", () =>
          demo.send(typeof message === "function" ? message() : message),
        );
      }
    },
    /** Fits `target` (the canvas by default) to the stage for `world`; one view for the page. */
    fit(world, target = root.querySelector("canvas.view"), onResize = demo.redraw) {
      if (demo.view) demo.view.setWorld(world);
      else demo.view = new FittedView($(".stage", root), target, world, onResize);
      return demo.view;
    },
    /** Turns the page's `.tilt-pad` (and the keyboard and motion sensor) into `tilt` inputs. */
    useTilt() {
      const send = (tilt) => demo.send({ type: "tilt", ...tilt });
      demo.tilt = new TiltInput($(".tilt-pad", root), send);
    },
  };
  window.playfield = demo; // for the browser tests and the curious

  let session;
  try {
    session = await chooseSession(page.kind, page.config ?? {}, Boolean(page.fresh));
  } catch (error) {
    demo.status.update({ state: "no session" });
    demo.notice(`Cannot start a session: ${error.message}`, "error");
    return demo;
  }
  demo.session = session;
  showShareLink(root, page.kind, session.id);

  demo.client = new SessionClient(session.id, session.token, {
    hello(message) {
      demo.hello = message;
      demo.running = message.running;
      demo.frames.reset();
      setRole(root, message.role);
      demo.tilt?.setEnabled(message.role === "controller");
      demo.status.update({ role: message.role, running: message.running, tick: message.tick });
      page.hello(message, demo);
      refreshRun();
      demo.dirty = true;
      tellHost({ type: "hello", session: message.session, kind: message.kind, role: message.role });
    },
    frame(message) {
      const now = performance.now();
      demo.frames.push(message, now);
      demo.status.countFrame(now);
      page.frame?.(message, demo);
    },
    event(message) {
      if (message.name === "input-rejected") demo.notice(message.reason, "error");
      page.event?.(message, demo);
    },
    status(message) {
      demo.running = message.running;
      demo.status.update({ running: message.running });
      root.dataset.running = String(message.running);
      refreshRun();
      page.status?.(message, demo);
      tellHost({ type: "status", ...message });
    },
    error(message) {
      demo.notice(message.message, "error");
    },
    refused(reason) {
      forgetToken(session.id);
      demo.notice(reason, "error");
    },
    state(state, detail) {
      demo.status.update({ state: detail && state === "ended" ? `ended: ${detail}` : state });
      root.dataset.connection = state;
      tellHost({ type: "connection", state, detail });
    },
  });
  const refreshRun = bindRunControls(demo);
  page.setup?.(demo);
  demo.client.connect();
  // Leaving the page closes the channel on purpose: no reconnect attempts while unloading,
  // and a page restored from the back-forward cache opens it again.
  window.addEventListener("pagehide", () => demo.client.close());
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) demo.client.connect();
  });
  listenToHost(demo);

  let lastKey = "";
  const loop = (now) => {
    requestAnimationFrame(loop);
    const sample = demo.frames.sample(now);
    const newest = demo.frames.newest;
    if (newest) demo.status.update({ tick: newest.tick, latency: demo.client.latencyMs });
    if (!sample || !demo.hello) return;
    const key = `${sample.a.tick}:${sample.b.tick}:${sample.alpha.toFixed(3)}`;
    if (key === lastKey && !demo.dirty) return;
    lastKey = key;
    demo.dirty = false;
    page.draw(sample, demo, now);
    demo.status.countDraw(now);
  };
  requestAnimationFrame(loop);
  return demo;
}

/** Marks the page with the role and turns controller-only controls on or off. */
function setRole(root, role) {
  root.dataset.role = role;
  const controls = role === "controller";
  for (const control of $all("[data-needs-control]", root)) control.disabled = !controls;
  const label = root.querySelector(".demo-role");
  if (label) setText(label, controls ? "You control this session." : "You are watching.");
}

function showShareLink(root, kind, id) {
  const slot = root.querySelector(".demo-share");
  if (!slot) return;
  const href = watchLink(kind, id);
  const target = window.top === window ? null : "_blank";
  const link = el("a", { href, target, rel: "noopener" }, "watch link");
  const copy = el(
    "button",
    {
      type: "button",
      class: "link-button",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(href);
          setText(copy, "copied");
        } catch {
          setText(copy, "copy failed");
        }
      },
    },
    "copy",
  );
  const fresh = el("a", { href: `${location.pathname}?new` }, "new session");
  slot.replaceChildren("Share: ", link, " ", copy, " · ", fresh);
}

function showNotice(root, text, kind) {
  const slot = root.querySelector(".demo-notice");
  if (!slot) return;
  setText(slot, text);
  slot.dataset.kind = kind;
  slot.hidden = false;
  clearTimeout(slot.timer);
  slot.timer = setTimeout(() => {
    slot.hidden = true;
  }, noticeMs);
}

const embedded = window.parent !== window;

/** Tells the host page (when embedded) what happened: `{playfield: {type, ...}}`. */
function tellHost(message) {
  if (embedded) window.parent.postMessage({ playfield: message }, "*");
}

/**
 * Lets the host page drive an embedded demo: it posts `{playfield: {type: "stop"}}` and the
 * like, which go to the session as if the page had sent them (controller pages only).
 */
function listenToHost(demo) {
  if (!embedded) return;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = event.data?.playfield;
    if (!message || typeof message.type !== "string" || message.type === "ping") return;
    if (!demo.send(message)) {
      tellHost({ type: "refused", reason: "this page does not control the session" });
    }
  });
}

/** Wires the START/STOP toggle and STEP buttons (by `data-action`); returns their refresh. */
function bindRunControls(demo) {
  const toggle = demo.root.querySelector('[data-action="run"]');
  const step = demo.root.querySelector('[data-action="step"]');
  const refresh = () => {
    if (!toggle) return;
    setText(toggle, demo.running ? "STOP" : "START");
    toggle.setAttribute("aria-pressed", String(Boolean(demo.running)));
    if (step) step.disabled = Boolean(demo.running) || !demo.client?.controls;
  };
  toggle?.addEventListener("click", () => demo.send({ type: demo.running ? "stop" : "start" }));
  step?.addEventListener("click", () => demo.send({ type: "step", count: 1 }));
  return refresh;
}
