// Temperature (seed "iOS – Fahrenheit to Celcius"): the page's one module script. Typing in
// either field converts to the other at once; the slider sets Celsius; the message and the
// picture follow the range; what was typed lives in the URL (`?f=36` or `?c=100`), exactly,
// so that the address reloads as it shows. It speaks the embed protocol (docs/embedding.md):
// the host can set the temperature too.

import { $, clamp, setText } from "../lib/dom.js";
import { EmbedError, pageCommands, startEmbed } from "../lib/embed.js";
import { svgToCanvas } from "../lib/svg-capture.js";
import {
  convert,
  formatField,
  formatTemperature,
  parseTemperature,
  rangeOf,
} from "../temperature/scale.js";

const root = $(".demo-temperature");
const fields = { F: $("#temp-f", root), C: $("#temp-c", root) };
const errors = { F: $('[data-error="F"]', root), C: $('[data-error="C"]', root) };
const slider = $("#temp-slider", root);
const picture = $(".temp-picture", root);
const mercury = $(".temp-mercury", root);
const message = $(".temp-message", root);
const other = { F: "C", C: "F" };
/** The last good value, in Celsius (null: none), and the unit it was typed in. */
let current = { celsius: null, unit: "C" };
let embed = null; // the embed protocol, once started (below)

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
  // No temperature: the tube is empty (not the last good level).
  let y = thermometer.baseY;
  if (celsius !== null) {
    setText(message, range.message);
    const span = thermometer.highC - thermometer.lowC;
    const level = clamp((celsius - thermometer.lowC) / span, 0, 1);
    y = thermometer.bottomY - level * (thermometer.bottomY - thermometer.topY);
  }
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
  if (!fromURL) remember(unit, fields[unit].value.trim());
  if (result.error || result.empty) {
    setError(unit, result.error ?? "");
    fields[target].value = "";
    showRange(null);
    const name = unit === "F" ? "Fahrenheit" : "Celsius";
    const hint = result.error ? `Fix the ${name} value to see the other.` : "Type a temperature.";
    setText(message, hint);
    // The slider shows no temperature (dimmed), or where a number that is none would be.
    if (result.number !== undefined) slider.value = String(inCelsius(result.number, unit));
    slider.dataset.empty = "true";
    slider.setAttribute("aria-valuetext", "no temperature");
    changed(null, unit);
    return;
  }
  setError(unit, "");
  const converted = convert(result.value, unit);
  fields[target].value = formatField(converted, target);
  const celsius = inCelsius(result.value, unit);
  slider.value = String(celsius);
  delete slider.dataset.empty;
  slider.setAttribute("aria-valuetext", `${formatTemperature(celsius)} °C`);
  showRange(celsius);
  changed(celsius, unit);
}

function inCelsius(value, unit) {
  return unit === "C" ? value : convert(value, unit);
}

/** Puts what the `unit` field holds in the address, as typed (a rounded value may not read
 * back: −459.67 °F is absolute zero, −459.7 °F is too cold), keeping the other options. */
function remember(unit, text) {
  const query = new URLSearchParams(location.search);
  query.delete("f");
  query.delete("c");
  query.set(unit.toLowerCase(), text);
  history.replaceState(null, "", `${location.pathname}?${query}`);
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

// The embed protocol: `input` `{type: "celsius" or "fahrenheit", value}` and `set` with
// `celsius` or `fahrenheit` type a value into that field; `reset` goes back to 20 °C.
const units = { celsius: "C", fahrenheit: "F" };
embed = startEmbed({
  demo: "temperature",
  ...pageCommands({
    name: "Temperature",
    run: { reset: () => enter("C", 20) },
    inputs: {
      celsius: ({ value }) => enter("C", value, "value"),
      fahrenheit: ({ value }) => enter("F", value, "value"),
    },
    set(options) {
      const names = Object.keys(options);
      if (names.length !== 1 || !units[names[0]]) {
        throw new EmbedError("bad-field", "set takes one option: celsius or fahrenheit");
      }
      return enter(units[names[0]], options[names[0]], names[0]);
    },
  }),
  events: ["temperature", "range"],
  getState: () => ({ running: false, tick: null, ...reading() }),
  capture: () => svgToCanvas(picture),
});
embed.ready();

/** The value now: `{celsius, fahrenheit, range, error}` (numbers rounded as shown). */
function reading() {
  const { celsius } = current;
  const error = errors.F.textContent || errors.C.textContent || null;
  if (celsius === null) return { celsius: null, fahrenheit: null, range: null, error };
  const fahrenheit = convert(celsius, "C");
  const round = (value) => Number(formatTemperature(value));
  const range = rangeOf(celsius).name;
  return { celsius: round(celsius), fahrenheit: round(fahrenheit), range, error };
}

/** Types `value` into the `unit` field for the host; a bad value is refused, naming `field`. */
function enter(unit, value, field = "value") {
  if (typeof value !== "number" && typeof value !== "string") {
    throw new EmbedError("bad-field", `${field} must be a number or a string`);
  }
  const parsed = parseTemperature(value, unit);
  if (parsed.error || parsed.empty) {
    throw new EmbedError("bad-field", `${field}: ${parsed.error ?? "type a temperature"}`);
  }
  fields[unit].value = String(value);
  read(unit);
  return reading();
}

/** After every read: tells the host (an event per change, and the state). */
function changed(celsius, unit) {
  const before = current.celsius;
  current = { celsius, unit };
  if (!embed) return;
  const now = reading();
  if (celsius !== before) embed.event("temperature", now);
  const range = celsius === null ? null : rangeOf(celsius).name;
  const previous = before === null ? null : rangeOf(before).name;
  if (range !== previous) embed.event("range", { range, message: message.textContent });
  embed.stateChanged();
}
window.playfield = { temperature: { read } };
