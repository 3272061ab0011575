// The part every simulation page shares: choose or create the session (or open a replay of
// one), open the channel, keep frames in a buffer, draw on requestAnimationFrame, keep the
// info and status lines current, and (inside an iframe) speak the embed protocol (embed.js).

import { $, $all, el, setText } from "./dom.js";
import { FittedView } from "./canvas.js";
import { sessionCommands, startEmbed } from "./embed.js";
import { FrameBuffer } from "./frames.js";
import { chooseSession, forgetToken, watchLink } from "./join.js";
import { ReplayClient, ReplayControls } from "./replay.js";
import { SessionClient } from "./session.js";
import { StatusLine } from "./status.js";
import { StoredStatus } from "./stored.js";
import { TiltInput } from "./tilt.js";

/** How long a notice (an error or an event worth telling) stays, in ms. */
const noticeMs = 4000;

/**
 * Runs a demo page, live or as a replay. `page` has:
 * - `kind`: the session kind, e.g. "maze"; `config`: the config for a new session;
 *   `fresh`: create a new session even if this browser has one of this kind;
 * - `stage`: what the picture is drawn into, `"canvas"` (default) or `"cloud"` (DOM labels);
 * - `setup(demo)`: bind what shows the state (readouts), once, before the channel opens;
 * - `controls(demo)`: bind the inputs, once, on live pages only (a replay is watched);
 * - `hello(message, demo)`: (re)build from a hello (after a reconnect, or a replay's seek);
 * - `event(message, demo)`: an event of the model, optional;
 * - `draw(sample, demo, now)`: draw `sample = {a, b, alpha}` from the frame buffer;
 * - `frame(message, demo)`: extra work per frame received, optional;
 * - `urlConfig`: config fields a page address may set (`/embed/maze?rows=8`), optional;
 * - `connection(state, detail, demo)`: the channel's state changed (session.js `State`), optional;
 * - `inputs`, `events`: the model's input types and event names, for the embed protocol.
 * The source is the page's: a replay when its `.demo` has `data-replay="ID"` (the replay
 * page), else a live session (see join.js). Returns the demo context: `{client, frames,
 * status, stored, send, notice, redraw, running, readout, ...}` (`stored`: whether the user's
 * inputs are stored, live pages only; stored.js).
 */
export async function runDemo(page) {
  const root = $(".demo");
  const replayID = root.dataset.replay;
  const demo = {
    root,
    kind: page.kind,
    mode: replayID ? "replay" : "live",
    client: null,
    frames: new FrameBuffer(),
    status: new StatusLine($(".status", root), replayID ? replayStatusOptions : {}),
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
    /** The `[data-readout=name]` value element; made under `.readouts` if the page has none. */
    readout(name, label = name) {
      const found = root.querySelector(`[data-readout="${name}"]`);
      if (found) return found;
      const value = el("dd", { dataset: { readout: name } }, "–");
      $(".readouts", root).append(el("div", {}, el("dt", {}, label), value));
      return value;
    },
  };
  window.playfield = demo; // for the browser tests and the curious

  if (replayID) {
    fillStage(root, page);
    page.setup?.(demo);
    demo.client = new ReplayClient(replayID, viewHandlers(demo, page));
    demo.replay = new ReplayControls(demo);
  } else if (!(await joinLive(demo, page))) {
    return demo;
  }
  demo.client.connect();
  // Leaving the page closes the channel on purpose: no reconnect attempts while unloading,
  // and a page restored from the back-forward cache opens it again.
  window.addEventListener("pagehide", () => demo.client.close());
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) demo.client.connect();
  });
  drawLoop(demo, page);
  return demo;
}

/** The status line of a replay: no role and no latency; a paused replay says so. */
const replayStatusOptions = {
  fields: ["state", "fps", "frames", "tick"],
  stoppedText: "paused",
};

/**
 * What both sources share: rebuild on hello, buffer frames, pass events on, show errors and
 * the connection state.
 */
function viewHandlers(demo, page) {
  const root = demo.root;
  return {
    hello(message) {
      demo.hello = message;
      demo.running = message.running;
      demo.frames.reset();
      demo.status.update({ role: message.role, running: message.running, tick: message.tick });
      page.hello(message, demo);
      demo.dirty = true;
    },
    frame(message) {
      const now = performance.now();
      // NB: an older tick means the source went back (a replay seeking without a hello yet).
      const newest = demo.frames.newest;
      if (newest && message.tick < newest.tick) demo.frames.reset();
      demo.frames.push(message, now);
      demo.status.countFrame(now);
      page.frame?.(message, demo);
    },
    event(message) {
      if (message.name === "input-rejected") demo.notice(message.reason, "error");
      page.event?.(message, demo);
      demo.embed?.event(message.name, message);
    },
    error(message) {
      demo.notice(message.message, "error");
      demo.embed?.error(message.error, message.message);
    },
    state(state, detail) {
      demo.status.update({ state: detail && state === "ended" ? `ended: ${detail}` : state });
      root.dataset.connection = state;
      page.connection?.(state, detail, demo);
      demo.embed?.event("connection", { state, detail });
    },
  };
}

/**
 * Chooses or creates the live session, makes its client and binds the page's controls;
 * false (with a notice) when there is no session to show.
 */
async function joinLive(demo, page) {
  const root = demo.root;
  demo.embed = embedSession(demo, page);
  let session;
  try {
    session = await chooseSession(
      page.kind,
      page.config ?? {},
      Boolean(page.fresh),
      page.urlConfig ?? [],
    );
  } catch (error) {
    refuseToStart(demo, page, error);
    return false;
  }
  demo.session = session;
  showShareLink(root, page.kind, session.id);

  const view = viewHandlers(demo, page);
  demo.client = new SessionClient(session.id, session.token, {
    ...view,
    hello(message) {
      setRole(root, message.role);
      demo.tilt?.setEnabled(message.role === "controller");
      view.hello(message);
      refreshRun();
      root.dataset.running = String(message.running);
      if (!demo.embed.options.autoplay && !demo.paused && message.role === "controller") {
        demo.paused = true;
        demo.send({ type: "stop" });
      }
      demo.embed.ready({ session: message.session, role: message.role });
      demo.embed.stateChanged();
      demo.stored?.hello(message);
    },
    frame(message) {
      view.frame(message);
      demo.stored?.frame(message.tick);
    },
    error(message) {
      view.error(message);
      demo.stored?.error(message);
    },
    sent(message) {
      demo.stored?.sent(message);
    },
    unstored(message) {
      demo.stored?.unstored(message);
    },
    status(message) {
      demo.running = message.running;
      demo.status.update({ running: message.running, budget: message.budget ?? null });
      root.dataset.running = String(message.running);
      refreshRun();
      page.status?.(message, demo);
      demo.embed.stateChanged();
    },
    refused(reason) {
      forgetToken(session.id);
      demo.notice(reason, "error");
    },
  });
  // Whether what the user did is stored (the `stored` watermark; stored.js).
  const storedSlot = root.querySelector(".demo-stored");
  if (storedSlot) {
    demo.stored = new StoredStatus(storedSlot, demo.client, () => demo.running !== false);
  }
  const refreshRun = bindRunControls(demo);
  page.setup?.(demo);
  page.controls?.(demo);
  return true;
}

/**
 * No session could be made (a bad option in the address, a full server): the page says why,
 * for good (not a passing notice), turns its controls off, hides the empty picture and offers
 * a session with the defaults instead.
 */
function refuseToStart(demo, page, error) {
  const root = demo.root;
  const field = error.field ? ` (${error.field.replace(/^config\./, "")} in the address)` : "";
  const text = `Cannot start a session: ${error.message}${field}.`;
  demo.status.update({ state: "no session" });
  root.dataset.connection = "refused";
  const notice = root.querySelector(".demo-notice");
  if (notice) {
    setText(notice, text);
    notice.dataset.kind = "error";
    notice.hidden = false;
  }
  const role = root.querySelector(".demo-role");
  if (role) setText(role, "No session.");
  // NB: what starts a new session (`data-without-session`) stays on.
  const controls = ".controls :is(button, input, select):not([data-without-session] *)";
  for (const control of $all(controls, root)) control.disabled = true;
  const slot = root.querySelector(".demo-share");
  if (slot) {
    const fresh = el("a", { href: `${location.pathname}?new` }, "start one with the defaults");
    slot.replaceChildren("You can ", fresh, ".");
  }
  demo.embed.error(error.field ? "bad-option" : "no-session", text);
}

/** Draws on every animation frame in which the sample (or the page) changed. */
function drawLoop(demo, page) {
  let lastKey = "";
  const loop = (now) => {
    requestAnimationFrame(loop);
    const sample = demo.frames.sample(now);
    const newest = demo.frames.newest;
    if (newest) demo.status.update({ tick: newest.tick, latency: demo.client.latencyMs });
    if (newest) demo.embed?.stateChanged();
    if (!sample || !demo.hello) return;
    const key = `${sample.a.tick}:${sample.b.tick}:${sample.alpha.toFixed(3)}`;
    if (key === lastKey && !demo.dirty) return;
    lastKey = key;
    demo.dirty = false;
    page.draw(sample, demo, now);
    demo.status.countDraw(now);
  };
  requestAnimationFrame(loop);
}

/** The replay page's stage starts empty: put in what the demo draws into. */
function fillStage(root, page) {
  const stage = $(".stage", root);
  if (stage.childElementCount) return;
  const label = `${page.kind} replay`;
  stage.append(
    page.stage === "cloud"
      ? el("nav", { class: "cloud", "aria-label": label })
      : el("canvas", { class: "view", "aria-label": label }),
  );
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
  // NB: the address bar holds no token (join.js), so it is a watch link too.
  const link = el("a", { href, target, rel: "noopener", class: "share-link" }, "watch link");
  const copy = el(
    "button",
    {
      type: "button",
      class: "share-copy",
      "aria-label": "copy the watch link",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(href);
          setText(copy, "copied");
        } catch {
          setText(copy, "copy failed");
        }
      },
    },
    "copy link",
  );
  const fresh = el("a", { href: `${location.pathname}?new` }, "new session");
  const away = { target, rel: target && "noopener" };
  const replay = el("a", { href: `/sessions/${encodeURIComponent(id)}/replay`, ...away }, "replay");
  const all = el("a", { href: "/sessions", ...away }, "all sessions");
  // NB: embedded pages hide the last two (the stylesheet's `.more`): a frame has little room.
  const more = el("span", { class: "more" }, " · ", replay, " · ", all);
  slot.replaceChildren("Share: ", link, " ", copy, " · ", fresh, more);
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

/**
 * The embed protocol for a live session: the host's commands become session messages, and
 * each reply waits for the server's answer (`sessionCommands`).
 */
function embedSession(demo, page) {
  return startEmbed({
    demo: page.kind,
    ...sessionCommands(() => demo.client, {
      resetInput: page.resetInput,
      refused: (error) => demo.notice(error.message, "error"),
    }),
    events: [...(page.events ?? []), "input-rejected", "dropped", "connection"],
    inputs: page.inputs ?? [],
    getState: () => ({
      running: Boolean(demo.running),
      tick: demo.frames.newest?.tick ?? demo.hello?.tick ?? null,
      session: demo.session?.id ?? null,
      role: demo.client?.role ?? null,
    }),
    capture: () => captureStage(demo.root),
  });
}

/** The stage as a canvas: the demo's own, or the tag cloud's labels drawn on a new one. */
function captureStage(root) {
  const canvas = root.querySelector("canvas.view");
  if (canvas) return canvas;
  const cloud = root.querySelector(".cloud");
  if (!cloud) return null;
  const box = cloud.getBoundingClientRect();
  const picture = el("canvas", { width: Math.round(box.width), height: Math.round(box.height) });
  const context = picture.getContext("2d");
  context.fillStyle = getComputedStyle(cloud).backgroundColor || "#101418";
  context.fillRect(0, 0, picture.width, picture.height);
  context.textAlign = "center";
  context.textBaseline = "middle";
  for (const label of cloud.querySelectorAll("a")) {
    const rect = label.getBoundingClientRect();
    const style = getComputedStyle(label);
    context.globalAlpha = Number(style.opacity) || 1;
    context.fillStyle = style.color;
    // NB: labels are scaled by a transform, so their box, not their font size, is what shows.
    context.font = `${style.fontWeight} ${Math.round(rect.height * 0.8)}px ${style.fontFamily}`;
    context.fillText(
      label.textContent,
      rect.left - box.left + rect.width / 2,
      rect.top - box.top + rect.height / 2,
    );
  }
  return picture;
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
