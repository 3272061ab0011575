// Temperature (seed "iOS – Fahrenheit to Celcius"): the page's one module script. Typing in
// either field converts to the other at once; the slider sets Celsius; the message and the
// picture follow the range; the last good value lives in the URL (`?f=36` or `?c=100`).

import { $, clamp, setText } from "../lib/dom.js";
import { convert, formatTemperature, parseTemperature, rangeOf } from "../temperature/scale.js";

const root = $(".demo-temperature");
const fields = { F: $("#temp-f", root), C: $("#temp-c", root) };
const errors = { F: $('[data-error="F"]', root), C: $('[data-error="C"]', root) };
const slider = $("#temp-slider", root);
const picture = $(".temp-picture", root);
const mercury = $(".temp-mercury", root);
const message = $(".temp-message", root);
const other = { F: "C", C: "F" };

/** The thermometer's scale: Celsius at the bulb and at the top of the tube, in SVG units. */
const thermometer = { lowC: -40, highC: 50, bottomY: 160, topY: 30, baseY: 172 };

/** Shows the range of `celsius` (null: no valid value) in the picture and the message. */
function showRange(celsius) {
  const range = celsius === null ? null : rangeOf(celsius);
  const name = range?.name ?? "none";
  picture.dataset.range = name;
  for (const scene of picture.querySelectorAll("[data-range]")) {
    if (scene.dataset.range === name) scene.removeAttribute("display");
    else scene.setAttribute("display", "none");
  }
  message.dataset.range = name;
  if (celsius === null) return;
  setText(message, range.message);
  const span = thermometer.highC - thermometer.lowC;
  const level = clamp((celsius - thermometer.lowC) / span, 0, 1);
  const y = thermometer.bottomY - level * (thermometer.bottomY - thermometer.topY);
  mercury.setAttribute("y", y.toFixed(1));
  mercury.setAttribute("height", (thermometer.baseY - y).toFixed(1));
}

function setError(unit, text) {
  setText(errors[unit], text);
  if (text) fields[unit].setAttribute("aria-invalid", "true");
  else fields[unit].removeAttribute("aria-invalid");
}

/** Takes the text of the `unit` field: converts it, or says what is wrong with it. */
function read(unit, { fromURL = false } = {}) {
  const result = parseTemperature(fields[unit].value, unit);
  const target = other[unit];
  setError(target, "");
  if (result.error || result.empty) {
    setError(unit, result.error ?? "");
    fields[target].value = "";
    showRange(null);
    const name = unit === "F" ? "Fahrenheit" : "Celsius";
    const hint = result.error ? `Fix the ${name} value to see the other.` : "Type a temperature.";
    setText(message, hint);
    return;
  }
  setError(unit, "");
  const converted = convert(result.value, unit);
  fields[target].value = formatTemperature(converted);
  const celsius = unit === "C" ? result.value : converted;
  slider.value = String(celsius);
  slider.setAttribute("aria-valuetext", `${formatTemperature(celsius)} °C`);
  showRange(celsius);
  if (!fromURL) {
    const query = `?${unit.toLowerCase()}=${encodeURIComponent(formatTemperature(result.value))}`;
    history.replaceState(null, "", location.pathname + query);
  }
}

for (const unit of ["F", "C"]) {
  fields[unit].addEventListener("input", () => read(unit));
}
slider.addEventListener("input", () => {
  fields.C.value = slider.value;
  read("C");
});
$(".temp-form", root).addEventListener("submit", (event) => event.preventDefault());

// Start from the link's value, else 20 °C.
const query = new URLSearchParams(location.search);
const start = query.has("f") ? "F" : "C";
fields[start].value = query.get(start.toLowerCase()) ?? "20";
read(start, { fromURL: true });
window.playfield = { temperature: { read } };
