// Compare (seed "Multiple Video Playback"): 2 to 4 panes of one simulation, the same seed, one
// setting changed per pane, stepped in lockstep by the server (`POST /api/compare`, then
// `/ws/compare/ID`). One transport drives them all; the timeline marks the first tick where
// the panes' frames differ. The comparison lives in the address (`?kind&seed&config&variants
// &ticks`), so a link reloads it; the host page's `play`, `pause`, `step` and `reset` apply to
// the whole group (docs/embedding.md).

import { $, el, setText } from "../lib/dom.js";
import { requestJSON } from "../lib/api.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { drawPane } from "../compare/draw.js";

/** What a bare `/compare` shows: two boxes of balls, perfectly elastic against lossy. */
const example = {
  kind: "bouncing-balls",
  seed: 7,
  ticks: 3600,
  config: { balls: 12, width: 400, height: 300, radiusMin: 8, radiusMax: 18 },
  variants: [{ restitution: 1 }, { restitution: 0.8 }],
};

/** What `/compare?kind=K` compares when the address names no variants (a demo's "compare"
 * link): one setting of that model that shows. */
const examples = {
  maze: [{ restitution: 0.9 }, { restitution: 0.3 }],
  holes: [{ holeRadius: 14 }, { holeRadius: 22 }],
  "tag-cloud": [{ autoRotate: 0.5 }, { autoRotate: -1 }],
  "street-soccer": [
    { home: "novice", away: "novice" },
    { home: "novice", away: "strong" },
  ],
};

const root = $(".demo-compare");
const panesBox = $(".compare-panes", root);
const playButton = $('[data-action="play"]', root);
const stepButton = $('[data-action="step"]', root);
const speedSelect = $('select[name="speed"]', root);
const seek = $("#compare-seek", root);
const tickOut = $(".compare-tick", root);
const endOut = $(".compare-end", root);
const mark = $(".compare-mark", root);
const divergedText = $(".compare-diverged", root);
const statusLine = $(".compare-status", root);
const form = $(".compare-form", root);

/** What tests and the embed read: the group's hello, frames received, the newest, divergence. */
const state = (window.playfield = {
  hello: null,
  frames: { received: 0, newest: null },
  diverged: null,
  status: null,
  group: null,
});
let socket = null;
let canvases = [];
let seeking = false; // the slider is being dragged: status ticks do not move it

/** The comparison the address asks for, with the example's parts where it says nothing. */
function fromAddress() {
  const query = new URLSearchParams(location.search);
  const json = (name, fallback) => {
    const text = query.get(name);
    if (text === null) return fallback;
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`the address's ${name} is not JSON`);
    }
  };
  return {
    kind: query.get("kind") ?? example.kind,
    seed: query.has("seed") ? Number(query.get("seed")) : example.seed,
    ticks: query.has("ticks") ? Number(query.get("ticks")) : example.ticks,
    config: json("config", query.has("kind") ? {} : example.config),
    variants: json("variants", query.has("kind") ? (examples[query.get("kind")] ?? [{}, {}]) : example.variants),
  };
}

function toAddress(spec) {
  const query = new URLSearchParams(location.search);
  query.set("kind", spec.kind);
  query.set("seed", String(spec.seed));
  query.set("ticks", String(spec.ticks));
  query.set("config", JSON.stringify(spec.config));
  query.set("variants", JSON.stringify(spec.variants));
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

function fillForm(spec) {
  form.elements.kind.value = spec.kind;
  form.elements.seed.value = spec.seed;
  form.elements.ticks.value = spec.ticks;
  form.elements.config.value = JSON.stringify(spec.config);
  form.elements.variants.value = spec.variants.map((v) => JSON.stringify(v)).join("\n");
}

function say(text) {
  setText(statusLine, text);
}

function setEnabled(enabled) {
  for (const control of [playButton, stepButton, speedSelect, seek]) control.disabled = !enabled;
}

/** Makes a group for `spec` and watches it; a refusal says why and leaves the form to fix it. */
async function start(spec) {
  socket?.close();
  socket = null;
  setEnabled(false);
  state.hello = null;
  state.diverged = null;
  state.frames = { received: 0, newest: null };
  say("");
  let group;
  try {
    group = await requestJSON("/api/compare", { method: "POST", body: spec });
  } catch (error) {
    say(`The comparison cannot start: ${error.message}`);
    buildPanes(spec, []);
    embed.error("bad-config", error.message);
    return;
  }
  state.group = group;
  buildPanes(spec, group.panes);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}${group.urls.socket}?token=${group.token}`);
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "play" })));
  ws.addEventListener("message", (event) => {
    if (socket === ws) receive(JSON.parse(event.data));
  });
  ws.addEventListener("close", () => {
    if (socket === ws) {
      setEnabled(false);
      say("The connection to the server closed; reload to compare again.");
    }
  });
}

function buildPanes(spec, panes) {
  panesBox.replaceChildren();
  panesBox.dataset.count = String(spec.variants.length);
  canvases = spec.variants.map((overrides, index) => {
    const label = Object.keys(overrides).length
      ? Object.entries(overrides).map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ")
      : "the shared config";
    const canvas = el("canvas", { role: "img", "aria-label": `pane ${index + 1}: ${label}` });
    const caption = el("figcaption", {}, el("b", {}, `Pane ${index + 1}`), ` · ${label}`);
    if (!panes[index]) caption.append(el("span", { class: "compare-error" }, " (not started)"));
    panesBox.append(el("figure", { class: "compare-pane" }, canvas, caption));
    return canvas;
  });
}

function receive(message) {
  switch (message.type) {
    case "hello":
      state.hello = message;
      seek.max = String(message.end);
      setText(endOut, String(message.end));
      setEnabled(true);
      break;
    case "frames":
      state.frames.received += 1;
      state.frames.newest = message;
      draw(message);
      if (!seeking) seek.value = String(message.tick);
      setText(tickOut, String(message.tick));
      break;
    case "diverged":
      state.diverged = message.tick;
      showDivergence();
      break;
    case "status":
      state.status = message;
      setText(playButton, message.playing ? "PAUSE" : "PLAY");
      playButton.setAttribute("aria-pressed", String(message.playing));
      speedSelect.value = String(message.speed);
      embed.stateChanged();
      break;
    case "error":
      say(message.message);
      break;
  }
}

function draw(message) {
  if (!state.hello) return;
  message.panes.forEach((frame, index) => {
    const canvas = canvases[index];
    if (canvas) drawPane(canvas, state.hello.kind, state.hello.panes[index], frame);
  });
}

function showDivergence() {
  const tick = state.diverged;
  const end = Number(seek.max) || 1;
  mark.hidden = false;
  mark.style.left = `${(100 * tick) / end}%`;
  divergedText.classList.add("parted");
  setText(
    divergedText,
    tick === 0
      ? "The panes differ from the first tick."
      : `The panes part at tick ${tick} (${(tick / 60).toFixed(2)} s).`,
  );
  embed.event("diverged", { tick });
}

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function toggle() {
  send({ type: state.status?.playing ? "pause" : "play" });
}

playButton.addEventListener("click", toggle);
stepButton.addEventListener("click", () => send({ type: "step", count: 1 }));
speedSelect.addEventListener("change", () => send({ type: "speed", value: Number(speedSelect.value) }));
seek.addEventListener("input", () => {
  seeking = true;
  setText(tickOut, seek.value);
  send({ type: "seek", tick: Number(seek.value) });
});
seek.addEventListener("change", () => {
  seeking = false;
});
root.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, summary")) return;
  if (event.key === ".") send({ type: "step", count: 1 });
  else if (event.key === " " && event.target === document.body) toggle();
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  let spec;
  try {
    spec = {
      kind: form.elements.kind.value,
      seed: Number(form.elements.seed.value),
      ticks: Number(form.elements.ticks.value),
      config: JSON.parse(form.elements.config.value || "{}"),
      variants: form.elements.variants.value
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line)),
    };
  } catch {
    say("The config and each line of overrides must be JSON objects.");
    return;
  }
  toAddress(spec);
  start(spec);
});

const embed = startEmbed({
  demo: "compare",
  ...pageCommands({
    name: "Compare",
    run: {
      play: () => send({ type: "play" }),
      pause: () => send({ type: "pause" }),
      step: () => send({ type: "step", count: 1 }),
      reset: () => send({ type: "seek", tick: 0 }),
    },
    inputs: {
      seek: ({ tick }) => {
        if (!Number.isInteger(tick) || tick < 0) throw new EmbedError("bad-field", "tick must be a whole number");
        send({ type: "seek", tick });
      },
    },
  }),
  events: ["diverged"],
  getState: () => ({
    running: state.status?.playing ?? false,
    tick: state.frames.newest?.tick ?? null,
    diverged: state.diverged,
  }),
  capture: captureAll,
});

/** Every pane side by side in one picture (the embed's `capture`), `captureGap` px apart. */
function captureAll() {
  const shown = canvases.filter((canvas) => canvas.width > 0 && canvas.height > 0);
  if (shown.length === 0) return null;
  const captureGap = 8;
  const picture = document.createElement("canvas");
  picture.width = shown.reduce((sum, canvas) => sum + canvas.width, 0) + captureGap * (shown.length - 1);
  picture.height = Math.max(...shown.map((canvas) => canvas.height));
  const context = picture.getContext("2d");
  context.fillStyle = "#101217";
  context.fillRect(0, 0, picture.width, picture.height);
  let x = 0;
  for (const canvas of shown) {
    context.drawImage(canvas, x, 0);
    x += canvas.width + captureGap;
  }
  return picture;
}

async function boot() {
  try {
    const listing = await requestJSON("/api/demos");
    for (const demo of listing.demos.filter((d) => d.session)) {
      form.elements.kind.append(el("option", { value: demo.name }, demo.title));
    }
  } catch {
    // NB: the form still shows the address's kind below.
  }
  let spec;
  try {
    spec = fromAddress();
  } catch (error) {
    say(error.message);
    spec = example;
  }
  if (![...form.elements.kind.options].some((o) => o.value === spec.kind)) {
    form.elements.kind.append(el("option", { value: spec.kind }, spec.kind));
  }
  fillForm(spec);
  embed.ready();
  await start(spec);
}

boot();
