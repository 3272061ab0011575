// Stick Man (seed "iOS – Stick Man"): the page's one module script. The figure is an SVG of
// stacked transparent layers (`[data-layer]`), each holding variants (`[data-variant]`) of
// which one shows; a button sets the pose's layers, says its line and plays its frames. It
// speaks the embed protocol (docs/embedding.md): the host can press the buttons too.

import { $, $all, setText } from "../lib/dom.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { svgToCanvas } from "../lib/svg-capture.js";
import {
  formatState,
  greeting,
  hatSays,
  initialState,
  layersFor,
  parseState,
  poses,
} from "../stick-man/poses.js";

const root = $(".demo-stick-man");
const figure = $(".stick-figure", root);
const speech = $('[data-readout="speech"]', root);
const hatButton = $('[data-action="hat"]', root);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const shared = parseState(location.search);
let state = shared.state;
let timer = 0;

/** Shows one variant per layer; the others get `display="none"`. */
function show(layers) {
  for (const layer of $all("[data-layer]", figure)) {
    const wanted = layers[layer.dataset.layer];
    if (wanted === undefined) continue;
    for (const variant of layer.children) {
      const on = variant.dataset.variant === wanted;
      if (on) variant.removeAttribute("display");
      else variant.setAttribute("display", "none");
    }
  }
  figure.dataset.pose = state.pose ?? "rest";
}

/** Plays the pose's frames (`cycles` times), then rests on its still frame. */
function animate() {
  clearTimeout(timer);
  const pose = poses[state.pose];
  if (!pose || reducedMotion.matches) {
    show(layersFor(state));
    return;
  }
  const total = pose.frames.length * pose.cycles;
  let frame = 0;
  const next = () => {
    if (frame >= total) {
      show(layersFor(state));
      figure.dataset.playing = "false";
      return;
    }
    show(layersFor(state, frame));
    frame += 1;
    timer = setTimeout(next, pose.frameMs);
  };
  figure.dataset.playing = "true";
  next();
}

function remember() {
  history.replaceState(null, "", location.pathname + formatState(state, location.search));
  hatButton.setAttribute("aria-pressed", String(state.hat));
}

/** Runs one button: a pose, or the hat toggle (which leaves the running pose alone). */
function press(action) {
  if (action === "hat") {
    state = { ...state, hat: !state.hat };
    setText(speech, hatSays[state.hat ? "on" : "off"]);
    show({ hat: layersFor(state).hat });
  } else {
    state = { ...state, pose: action };
    setText(speech, poses[action].says);
    animate();
  }
  remember();
  tellHost();
}

/** Back to the start: no pose, no hat, the greeting. */
function reset() {
  clearTimeout(timer);
  state = initialState();
  setText(speech, greeting);
  show(layersFor(state));
  figure.dataset.playing = "false";
  remember();
  tellHost();
}

for (const button of $all("[data-action]", root)) {
  button.addEventListener("click", () => press(button.dataset.action));
}

const keys = { t: "hat" };
for (const [name, pose] of Object.entries(poses)) keys[pose.key] = name;
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const action = keys[event.key.toLowerCase()];
  if (!action) return;
  event.preventDefault();
  press(action);
});

// A shared link starts in its pose; the line is the pose's own.
setText(speech, state.pose ? poses[state.pose].says : state.hat ? hatSays.on : greeting);
hatButton.setAttribute("aria-pressed", String(state.hat));
animate();

// The embed protocol: `input` presses a button (`{type: "happy"}`, `{type: "hat"}`), `set`
// takes `pose` (a pose name or null) and `hat` (true or false), `reset` goes back to the start.
const actions = [...Object.keys(poses), "hat"];
const embed = startEmbed({
  demo: "stick-man",
  ...pageCommands({
    name: "Stick Man",
    run: { reset },
    inputs: Object.fromEntries(actions.map((action) => [action, () => press(action)])),
    options: {
      hat: {
        check(hat) {
          if (typeof hat !== "boolean") {
            throw new EmbedError("bad-field", "hat must be true or false");
          }
        },
        apply(hat) {
          if (hat !== state.hat) press("hat");
        },
      },
      pose: {
        check(pose) {
          if (pose !== null && !Object.hasOwn(poses, pose)) {
            const names = Object.keys(poses).join(", ");
            throw new EmbedError("bad-field", `pose must be null or one of ${names}`);
          }
        },
        apply(pose) {
          if (pose !== null) return press(pose);
          if (state.pose === null) return;
          state = { ...state, pose: null };
          setText(speech, greeting);
          animate();
          remember();
          tellHost();
        },
      },
    },
  }),
  events: ["pose"],
  getState: () => ({
    running: false,
    tick: null,
    pose: state.pose,
    hat: state.hat,
    playing: figure.dataset.playing === "true",
  }),
  capture: () => svgToCanvas(figure),
});

/** Tells the host page about the new pose (an event and the state). */
function tellHost() {
  embed.event("pose", { pose: state.pose, hat: state.hat, says: speech.textContent });
  embed.stateChanged();
}

new MutationObserver(() => embed.stateChanged()).observe(figure, {
  attributes: true,
  attributeFilter: ["data-playing"],
});
embed.ready();

// A link with a pose or hat this page does not know says so (and starts as it can).
if (shared.problems.length) {
  const text = `Left out of this link: ${shared.problems.join("; ")}.`;
  const notice = $(".demo-notice", root);
  setText(notice, text);
  notice.dataset.kind = "error";
  notice.hidden = false;
  embed.error("bad-option", text);
}
window.playfield = { stickMan: { press, reset, state: () => state } };
