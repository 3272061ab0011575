// Colour picker (seed 003): the <playfield-color-picker> component inside a form, with the
// chosen colour's swatch and its hex, RGB and HSV values. USE submits the form (the value the
// component gives it is shown); RESET puts the form's default back.

import { $, setText } from "../lib/dom.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { hsvToRgb } from "../color-picker.js";

const root = $(".demo");
const form = $(".picker-form", root);
const picker = $("playfield-color-picker", form);
const swatch = $(".picker-swatch", root);
const events = { input: 0, change: 0 };
window.playfield = { picker, events }; // for the browser tests and the curious
let embed = null; // the embed protocol (docs/embedding.md), started below

/** The chosen colour: `{value, rgb: [r, g, b], hsv: [h°, s %, v %]}`. */
function colour() {
  const { h, s, v } = picker.hsvValue;
  const { r, g, b } = hsvToRgb({ h, s, v });
  return {
    value: picker.value,
    rgb: [r, g, b],
    hsv: [Math.round(h), Math.round(s * 100), Math.round(v * 100)],
  };
}

/** A host page's colour: `#rrggbb` (any case), or a bad-field error naming `field`. */
function choose(text, field) {
  if (typeof text !== "string" || !/^#[0-9a-fA-F]{6}$/.test(text)) {
    throw new EmbedError("bad-field", `${field} must be a colour written #rrggbb`);
  }
  picker.value = text.toLowerCase();
  show();
  embed.event("change", { value: picker.value });
}

function show() {
  embed?.stateChanged();
  const { h, s, v } = picker.hsvValue;
  const { r, g, b } = hsvToRgb({ h, s, v });
  setText($('[data-readout="hex"]', root), picker.value);
  setText($('[data-readout="rgb"]', root), `${r}, ${g}, ${b}`);
  setText(
    $('[data-readout="hsv"]', root),
    `${Math.round(h)}°, ${Math.round(s * 100)}%, ${Math.round(v * 100)}%`,
  );
  swatch.style.setProperty("--picked", picker.value);
}

picker.addEventListener("input", () => {
  events.input += 1;
  show();
});
picker.addEventListener("change", () => {
  events.change += 1;
  show();
  embed?.event("change", { value: picker.value });
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const value = new FormData(form).get("color");
  setText($(".picker-submitted", root), `The form sent color=${value}.`);
});
form.addEventListener("reset", () => setTimeout(show));
embed = startEmbed({
  demo: "color-picker",
  ...pageCommands({
    name: "The colour picker",
    run: {
      reset() {
        form.reset();
        return new Promise((resolve) => setTimeout(() => resolve(show()), 0));
      },
    },
    inputs: { color: ({ value }) => choose(value, "value") },
    set(options) {
      const names = Object.keys(options);
      if (names.length !== 1 || names[0] !== "value") {
        throw new EmbedError("bad-field", "set takes one option: value");
      }
      return choose(options.value, "value");
    },
  }),
  events: ["change"],
  getState: () => ({ running: false, tick: null, ...colour() }),
  capture: () => picker.canvas,
});
customElements.whenDefined("playfield-color-picker").then(() => {
  show();
  embed.ready();
});
