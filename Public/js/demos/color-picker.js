// Colour picker (seed 003): the <playfield-color-picker> component inside a form, with the
// chosen colour's swatch and its hex, RGB and HSV values. USE submits the form (the value the
// component gives it is shown); RESET puts the form's default back.

import { $, setText } from "../lib/dom.js";
import { hsvToRgb } from "../color-picker.js";

const root = $(".demo");
const form = $(".picker-form", root);
const picker = $("playfield-color-picker", form);
const swatch = $(".picker-swatch", root);
const events = { input: 0, change: 0 };
window.playfield = { picker, events }; // for the browser tests and the curious

function show() {
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
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const value = new FormData(form).get("color");
  setText($(".picker-submitted", root), `The form sent color=${value}.`);
});
form.addEventListener("reset", () => setTimeout(show));
customElements.whenDefined("playfield-color-picker").then(show);
