// Compare (seed "Multiple Video Playback"): 2 to 4 panes of one simulation, the same seed, one
// setting changed per pane, stepped in lockstep by the server (`POST /api/compare`, then
// `/ws/compare/ID`). Each pane is drawn by its demo's own picture code. One transport drives
// them all; the timeline marks the first tick where the panes' frames differ, and a chart
// plots one readout of every pane on one axis. Views: side by side, 2x2 (stacked on a phone),
// overlay (the first pane with the others over it as ghosts, as strong as the ghosts slider
// says) and a wipe between the first two; SWAP moves the first pane last. CAPTURE makes one
// PNG of every pane. The comparison and the view live in the address (`?kind&seed&config
// &variants&ticks&view`), so a link reloads them; the host page's `play`, `pause`, `step` and
// `reset` apply to the whole group (docs/embedding.md).

import { $, el, formatCompact, setText } from "../lib/dom.js";
import { requestJSON } from "../lib/api.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { PanePicture } from "../compare/draw.js";
import { TickChart } from "../compare/chart.js";
import { bestRun, ghostAddress } from "../compare/ghost.js";
import { lastSessionID } from "../lib/join.js";

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
const viewRadios = [...root.querySelectorAll('input[name="view"]')];
const swapButton = $('[data-action="swap"]', root);
const wipeBox = $(".compare-wipe", root);
const wipe = $("#compare-wipe", root);
const ghostBox = $(".compare-ghost", root);
const ghost = $("#compare-ghost", root);
const captureButton = $('[data-action="capture"]', root);
const download = $(".compare-download", root);
const stage = $(".compare-stage", root);
const stageCanvas = $("canvas", stage);
const stageCaption = $(".compare-stage-caption", stage);
const partingButton = $('[data-action="parting"]', root);
const readoutSelect = $('select[name="readout"]', root);
const legend = $(".compare-legend", root);
const announcer = $(".compare-announce", root);
const loopBox = $(".compare-loop", root);
const loopBand = $(".compare-loop-band", root);
const loopText = $(".compare-loop-text", root);
const loopClear = $('[data-action="loop-clear"]', root);
const offsetsBox = $(".compare-offsets", root);
const ambientBox = $(".compare-ambient", root);
const ambientButton = $('[data-action="ambient"]', root);
const ambientNote = $(".compare-ambient-note", root);

/** Options of this page. */
const options = {
  paneColors: ["#ffd400", "#7fc8ff", "#ff8fa3", "#9be564"], // each pane's caption swatch and chart line
  wipeLine: "#f5d90a", // the wipe's line
  captureGap: 8, // px between the panes of a capture
  captureBackground: "#101217",
  views: ["side", "grid", "overlay", "wipe"],
  // The readout charted first when the server names none (a frame's own numbers).
  chartReadout: { "bouncing-balls": "energy", holes: "score", maze: "ball x", "street-soccer": "score x" },
};
const chart = new TickChart($(".compare-plot", root), options.paneColors);

/** What tests and the embed read: the group's hello, frames received, the newest, divergence. */
const state = (window.playfield = {
  hello: null,
  frames: { received: 0, newest: null },
  diverged: null,
  status: null,
  group: null,
  view: null,
  order: [],
  capture: null,
  loop: null,
  offsets: [],
  ambient: null,
  chart,
});
let socket = null;
let panes = []; // {figure, canvas, picture} in variants order
let seeking = false; // the slider is being dragged: status ticks do not move it
let captureURL = null;
let loopFrom = 0; // LOOP FROM HERE's tick, until LOOP TO HERE makes the loop
let ambientPicture = null; // the ambient pane's picture, when the group has one
// The ambient pane plays unless the viewer pauses it or asks for reduced motion; never while
// the page is hidden.
let ambientWanted = !matchMedia("(prefers-reduced-motion: reduce)").matches;

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
  const variants = json("variants", query.has("kind") ? (examples[query.get("kind")] ?? [{}, {}]) : example.variants);
  // NB: recordings alone are as long as the longest of them when the address says nothing.
  const recordings = Array.isArray(variants) && variants.every((v) => v?.recording !== undefined);
  return {
    kind: query.get("kind") ?? example.kind,
    seed: query.has("seed") ? Number(query.get("seed")) : example.seed,
    ticks: query.has("ticks") ? Number(query.get("ticks")) : recordings ? null : example.ticks,
    config: json("config", query.has("kind") ? {} : example.config),
    variants,
    ambient: json("ambient", null),
    view: options.views.includes(query.get("view")) ? query.get("view") : null,
  };
}

function toAddress(spec) {
  const query = new URLSearchParams(location.search);
  query.set("kind", spec.kind);
  query.set("seed", String(spec.seed));
  query.set("ticks", String(spec.ticks));
  query.set("config", JSON.stringify(spec.config));
  query.set("variants", JSON.stringify(spec.variants));
  if (spec.ambient) query.set("ambient", JSON.stringify(spec.ambient));
  else query.delete("ambient");
  if (state.view) query.set("view", state.view);
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

function fillForm(spec) {
  form.elements.kind.value = spec.kind;
  form.elements.seed.value = spec.seed;
  form.elements.ticks.value = spec.ticks;
  form.elements.config.value = JSON.stringify(spec.config);
  const variants = Array.isArray(spec.variants) ? spec.variants : [spec.variants];
  form.elements.variants.value = variants.map((v) => JSON.stringify(v)).join("\n");
  form.elements.ambient.value = spec.ambient ? JSON.stringify(spec.ambient) : "";
}

function say(text) {
  setText(statusLine, text);
}

function setEnabled(enabled) {
  for (const control of [playButton, stepButton, speedSelect, seek]) control.disabled = !enabled;
  partingButton.disabled = !enabled || state.diverged === null;
}

/** Makes a group for `spec` and watches it; a refusal says why and leaves the form to fix it. */
async function start(spec) {
  socket?.close();
  socket = null;
  setEnabled(false);
  state.hello = null;
  state.diverged = null;
  state.frames = { received: 0, newest: null };
  captureButton.disabled = true;
  mark.hidden = true;
  divergedText.classList.remove("parted");
  setText(divergedText, "The panes have not parted yet.");
  setText(partingButton, "GO TO THE PARTING");
  say("");
  let group;
  try {
    const { kind, seed, ticks, config, variants, ambient } = spec; // NB: the view is this page's alone
    const body = { kind, seed, ticks: ticks ?? undefined, config, variants, ambient: ambient ?? undefined };
    group = await requestJSON("/api/compare", { method: "POST", body });
    form.elements.ticks.value = group.end;
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
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "play" }));
    if (spec.ambient) sendAmbient();
  });
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

/** A pane's words: a recording's session, its overrides, or the shared config. */
function paneLabel(variant) {
  if (typeof variant !== "object" || variant === null) return JSON.stringify(variant);
  const { recording, ...overrides } = variant;
  const words = Object.entries(overrides).map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  // NB: a recording has its own config and seed, not the shared ones (docs/protocol.md 6b).
  if (recording !== undefined) words.unshift(`a recording of session ${recording}`);
  return words.length ? words.join(", ") : "the shared config";
}

/** A pane's colour, as a swatch beside its words. */
function swatch(index) {
  const background = options.paneColors[index % options.paneColors.length];
  return el("span", { class: "compare-swatch", "aria-hidden": "true", style: { background } });
}

function buildPanes(spec, started) {
  panesBox.replaceChildren();
  // NB: a refused address may hold anything here: the server has said why in the status line.
  const variants = Array.isArray(spec.variants) ? spec.variants : [];
  panesBox.dataset.count = String(variants.length);
  panes = variants.map((overrides, index) => {
    const label = paneLabel(overrides);
    const canvas = el("canvas", { role: "img", "aria-label": `pane ${index + 1}: ${label}` });
    const note = el("span", { class: "compare-note" });
    const name = el("b", {}, `Pane ${index + 1}`);
    const caption = el("figcaption", {}, swatch(index), name, ` · ${label}`, note);
    if (!started[index]) caption.append(el("span", { class: "compare-error" }, " (not started)"));
    const figure = el("figure", { class: "compare-pane", dataset: { pane: index } }, canvas, caption);
    return { figure, canvas, note, label, picture: null };
  });
  state.order = panes.map((_, index) => index);
  chart.reset(0, panes.length);
  readoutSelect.replaceChildren();
  legend.replaceChildren(
    ...panes.map((_, index) =>
      el("li", {}, swatch(index), `Pane ${index + 1}: `, el("output", { class: "compare-value" }, "–")),
    ),
  );
  setView(state.view ?? (panes.length > 2 ? "grid" : "side"));
}

/** Shows the panes in `state.order`; overlay and wipe draw them on the stage instead. */
function setView(view) {
  state.view = view;
  for (const radio of viewRadios) radio.checked = radio.value === view;
  const composite = view === "overlay" || view === "wipe";
  panesBox.dataset.view = view;
  panesBox.classList.toggle("composite", composite);
  stage.hidden = !composite;
  wipeBox.hidden = view !== "wipe";
  ghostBox.hidden = view !== "overlay";
  panesBox.replaceChildren(...state.order.map((index) => panes[index].figure));
  describeStage();
  render();
}

/** The stage's caption (and its picture's name): which pane is where. */
function describeStage() {
  const [first, second, ...rest] = state.order.map((index) => ({ index, label: panes[index].label }));
  if (!first || !second) return;
  const name = (pane) => `pane ${pane.index + 1} (${pane.label})`;
  const text =
    state.view === "wipe"
      ? `Wipe: ${name(first)} left of the line, ${name(second)} right of it.`
      : `Overlay: ${name(first)}, with ${[second, ...rest].map(name).join(" and ")} as ghosts over it.`;
  setText(stageCaption, text);
  stageCanvas.setAttribute("aria-label", text);
}

function receive(message) {
  switch (message.type) {
    case "hello":
      state.hello = message;
      seek.max = String(message.end);
      setText(endOut, String(message.end));
      panes.forEach((pane, index) => {
        const hello = message.panes[index];
        pane.picture = hello ? new PanePicture(pane.canvas, message.kind, hello) : null;
        const recording = hello?.recording;
        if (recording?.session) setText(pane.note, ` (its ticks ${recording.first} to ${recording.last})`);
      });
      chart.reset(message.end, panes.length);
      // NB: a server without loop marks sends no `loop`: the page offers none.
      loopBox.hidden = !("loop" in message);
      showLoop(message.loop ?? null);
      buildOffsets(message.panes.map((pane) => pane.offset ?? 0), message.end);
      showAmbient(message);
      setEnabled(true);
      break;
    case "ambient":
      drawAmbient(message.ambient);
      break;
    case "frames":
      if (message.ambient) drawAmbient(message.ambient);
      state.frames.received += 1;
      state.frames.newest = message;
      render();
      chartFrames(message);
      captureButton.disabled = false;
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
      if ("loop" in message) showLoop(message.loop);
      if (message.offsets) showOffsets(message.offsets);
      embed.stateChanged();
      break;
    case "error":
      say(message.message);
      break;
  }
}

/** Draws the newest frames: every pane's canvas, and the stage in overlay and wipe. */
function render() {
  const message = state.frames.newest;
  if (!state.hello || !message) return;
  const composite = state.view === "overlay" || state.view === "wipe";
  const stageWidth = stage.clientWidth;
  panes.forEach((pane, index) => {
    const frame = message.panes[index];
    if (pane.picture && frame) pane.picture.draw(frame, composite ? stageWidth : pane.figure.clientWidth);
  });
  if (composite) drawStage();
}

/** Overlay: the first pane, the others over it as ghosts. Wipe: the first pane left of the
 * line, the second right of it. */
function drawStage() {
  const shown = state.order.map((index) => panes[index]).filter((pane) => pane.picture);
  if (shown.length === 0) return;
  const width = Math.max(...shown.map((pane) => pane.canvas.width));
  const height = Math.max(...shown.map((pane) => pane.canvas.height));
  if (stageCanvas.width !== width || stageCanvas.height !== height) {
    stageCanvas.width = width;
    stageCanvas.height = height;
  }
  stageCanvas.style.width = shown[0].canvas.style.width;
  const context = stageCanvas.getContext("2d");
  context.globalAlpha = 1;
  context.fillStyle = "#000";
  context.fillRect(0, 0, width, height);
  context.drawImage(shown[0].canvas, 0, 0);
  if (state.view === "overlay") {
    context.globalAlpha = Number(ghost.value) / 100;
    for (const pane of shown.slice(1)) context.drawImage(pane.canvas, 0, 0);
    context.globalAlpha = 1;
    return;
  }
  const second = shown[1];
  if (!second) return;
  const split = Math.round((width * Number(wipe.value)) / 100);
  context.save();
  context.beginPath();
  context.rect(split, 0, width - split, height);
  context.clip();
  context.drawImage(second.canvas, 0, 0);
  context.restore();
  context.fillStyle = options.wipeLine;
  context.fillRect(split - 1, 0, 2, height);
}

/** Keeps the frames' readouts for the chart; offers each new one in the chart's list. */
function chartFrames(message) {
  // NB: the server's named readouts (`hello.readouts`, one array per pane in `frames`) come
  // first in the chart's list when it sends them; the frames' own numbers follow.
  const names = state.hello.readouts;
  const frames = message.panes.map((frame, index) => {
    const values = message.readouts?.[index];
    if (!Array.isArray(names) || !Array.isArray(values)) return frame;
    return { ...frame, readouts: Object.fromEntries(names.map((name, i) => [name, values[i]])) };
  });
  if (chart.record(message.tick, frames)) {
    const chosen = readoutSelect.value;
    readoutSelect.replaceChildren(...chart.names.map((name) => el("option", { value: name }, name)));
    const first = names?.[0] ?? options.chartReadout[state.hello.kind];
    readoutSelect.value = chosen || (chart.names.includes(first) ? first : chart.names[0]);
    chart.choose(readoutSelect.value);
  }
  const values = chart.valuesAt(message.tick);
  legend.querySelectorAll("output").forEach((out, index) => setText(out, formatCompact(values[index])));
  const canvas = chart.canvas;
  const parted = state.diverged === null ? "" : `; the panes part at tick ${state.diverged}`;
  const label = readoutSelect.value
    ? `${readoutSelect.value} of every pane by tick, 0 to ${state.hello.end}${parted}`
    : `no readout to chart: these frames hold no single numbers${parted}`;
  if (canvas.getAttribute("aria-label") !== label) canvas.setAttribute("aria-label", label);
}

/** The loop (`{from, to}` or null) on the timeline and in words. */
function showLoop(loop) {
  state.loop = loop;
  loopBand.hidden = !loop;
  loopClear.disabled = !loop;
  const end = Number(seek.max) || 1;
  if (loop) {
    loopFrom = loop.from;
    loopBand.style.left = `${(100 * loop.from) / end}%`;
    loopBand.style.width = `${(100 * (loop.to - loop.from)) / end}%`;
  }
  setText(loopText, loop ? `loops ticks ${loop.from} to ${loop.to}` : "no loop");
}

/** The tick shown now. */
function shownTick() {
  return state.frames.newest?.tick ?? 0;
}

function showDivergence() {
  const tick = state.diverged;
  const end = Number(seek.max) || 1;
  mark.hidden = false;
  mark.style.left = `${(100 * tick) / end}%`;
  chart.mark(tick);
  partingButton.disabled = seek.disabled;
  setText(partingButton, `GO TO TICK ${tick}`);
  divergedText.classList.add("parted");
  setText(
    divergedText,
    tick === 0
      ? "The panes differ from the first tick."
      : `The panes part at tick ${tick} (${(tick / 60).toFixed(2)} s).`,
  );
  embed.event("diverged", { tick });
}

/** The ambient pane, when the group has one: small, beside the panes, looping on its own. */
function showAmbient(hello) {
  ambientBox.hidden = !hello.ambient;
  ambientPicture = hello.ambient ? new PanePicture($("canvas", ambientBox), hello.kind, hello.ambient) : null;
  state.ambient = hello.ambient ? { tick: null, frame: null } : null;
  const recording = hello.ambient?.recording;
  setText(ambientNote, recording ? `(a recording of session ${recording.session})` : "");
  showAmbientButton();
}

function drawAmbient(ambient) {
  if (!ambientPicture || !ambient) return;
  state.ambient = ambient;
  ambientPicture.draw(ambient.frame, Math.min(192, ambientBox.clientWidth));
}

/** Tells the server whether this page wants the ambient pane played: as asked, and never
 * while the page is hidden. */
function sendAmbient() {
  send({ type: "ambient", playing: ambientWanted && document.visibilityState === "visible" });
}

function showAmbientButton() {
  setText(ambientButton, ambientWanted ? "PAUSE AMBIENT" : "PLAY AMBIENT");
  ambientButton.setAttribute("aria-pressed", String(ambientWanted));
}

ambientButton.addEventListener("click", () => {
  ambientWanted = !ambientWanted;
  showAmbientButton();
  sendAmbient();
});
document.addEventListener("visibilitychange", () => {
  if (ambientPicture) sendAmbient();
});

/** One number field per pane: its offset, sent (`offset`) when changed. */
function buildOffsets(offsets, end) {
  state.offsets = offsets;
  const fields = offsets.map((value, index) => {
    const input = el("input", { type: "number", min: -end, max: end, step: 1, value, name: `offset-${index}` });
    input.addEventListener("change", () => {
      const wanted = Number(input.value);
      if (Number.isInteger(wanted) && Math.abs(wanted) <= end) {
        send({ type: "offset", pane: index, value: wanted });
      } else {
        say(`An offset is a whole number of ticks from -${end} to ${end}.`);
        input.value = state.offsets[index];
      }
    });
    return el("label", {}, swatch(index), `pane ${index + 1} `, input);
  });
  offsetsBox.replaceChildren($("legend", offsetsBox), ...fields);
  offsetsBox.hidden = false;
}

/** The server's offsets: a change re-runs the panes, so the parting is found again. */
function showOffsets(offsets) {
  const changed = offsets.some((value, index) => value !== state.offsets[index]);
  state.offsets = offsets;
  offsetsBox.querySelectorAll("input").forEach((input, index) => {
    if (document.activeElement !== input) input.value = offsets[index];
  });
  if (!changed) return;
  state.diverged = null;
  mark.hidden = true;
  chart.forget();
  partingButton.disabled = true;
  setText(partingButton, "GO TO THE PARTING");
  divergedText.classList.remove("parted");
  setText(divergedText, "The panes have not parted yet.");
  setText(announcer, `Offsets now ${offsets.join(", ")} ticks.`);
}

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function toggle() {
  send({ type: state.status?.playing ? "pause" : "play" });
}

playButton.addEventListener("click", toggle);
partingButton.addEventListener("click", () => {
  if (state.diverged !== null) send({ type: "seek", tick: state.diverged });
});
for (const radio of viewRadios) {
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    setView(radio.value);
    const query = new URLSearchParams(location.search);
    query.set("view", radio.value);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  });
}
swapButton.addEventListener("click", () => {
  state.order.push(state.order.shift());
  setView(state.view);
  setText(announcer, `Panes in order ${state.order.map((index) => index + 1).join(", ")}.`);
});
wipe.addEventListener("input", () => render());
$('[data-action="loop-from"]', root).addEventListener("click", () => {
  loopFrom = shownTick();
  const to = state.loop?.to;
  if (to !== undefined && to > loopFrom) send({ type: "loop", from: loopFrom, to });
  else setText(loopText, `from tick ${loopFrom}: now LOOP TO HERE at a later tick`);
});
$('[data-action="loop-to"]', root).addEventListener("click", () => {
  const to = shownTick();
  if (to > loopFrom) send({ type: "loop", from: loopFrom, to });
  else setText(loopText, `a loop must end after it starts (tick ${loopFrom})`);
});
loopClear.addEventListener("click", () => {
  loopFrom = 0;
  send({ type: "loop" });
});
ghost.addEventListener("input", () => render());
readoutSelect.addEventListener("change", () => chart.choose(readoutSelect.value));
captureButton.addEventListener("click", async () => {
  const picture = captureAll();
  if (!picture) return;
  const blob = await new Promise((resolve) => picture.toBlob(resolve, "image/png"));
  if (!blob) {
    say("The capture could not be made.");
    return;
  }
  if (captureURL) URL.revokeObjectURL(captureURL);
  captureURL = URL.createObjectURL(blob);
  const tick = state.frames.newest?.tick ?? 0;
  download.href = captureURL;
  download.download = `compare-${state.hello?.kind ?? "panes"}-tick-${tick}.png`;
  setText(download, `Download the capture (PNG, ${picture.width}×${picture.height}, tick ${tick})`);
  download.hidden = false;
  state.capture = { width: picture.width, height: picture.height, size: blob.size, tick };
  download.focus();
});
addEventListener("resize", () => render());
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
      ambient: form.elements.ambient.value.trim() ? JSON.parse(form.elements.ambient.value) : null,
    };
  } catch {
    say("The config and each line of overrides must be JSON objects.");
    return;
  }
  toAddress(spec);
  start(spec);
});

/** RACE THE BEST HOLES RUN: this browser's last holes run, the best stored run as its ghost. */
$('[data-action="race"]', root).addEventListener("click", async () => {
  const mine = lastSessionID("holes");
  if (!mine) {
    say("Play a game of holes first: your run goes beside the ghost.");
    return;
  }
  try {
    const { scores } = await requestJSON("/api/highscores");
    const best = bestRun(scores, mine);
    if (best) location.assign(ghostAddress(mine, best.session));
    else say("No high score keeps its run yet.");
  } catch (error) {
    say(`The high scores cannot be read: ${error.message}`);
  }
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

/** Every pane side by side in one picture, in the order shown (the CAPTURE button's and the
 * embed's `capture`), `captureGap` px apart. */
function captureAll() {
  const shown = state.order
    .map((index) => panes[index])
    .filter((pane) => pane.picture && pane.canvas.width > 1 && pane.canvas.height > 1)
    .map((pane) => pane.canvas);
  if (shown.length === 0) return null;
  const gap = options.captureGap;
  const picture = document.createElement("canvas");
  picture.width = shown.reduce((sum, canvas) => sum + canvas.width, 0) + gap * (shown.length - 1);
  picture.height = Math.max(...shown.map((canvas) => canvas.height));
  const context = picture.getContext("2d");
  context.fillStyle = options.captureBackground;
  context.fillRect(0, 0, picture.width, picture.height);
  let x = 0;
  for (const canvas of shown) {
    context.drawImage(canvas, x, 0);
    x += canvas.width + gap;
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
  state.view = spec.view;
  embed.ready();
  await start(spec);
}

boot();
