// The explorer's state and its permalink: everything needed to redraw the same picture lives
// in the query string, so a reload or a shared link restores the view.
//
// Query string (every field optional; the empty query is the seed's start view):
//   journey=1-4-4-1-3-3    quadrant taps, 1 top left, 2 top right, 3 bottom left, 4 bottom right
//   x=-0.7436&y=0.1318&zoom=12.5
//                          a free view (after a drag, wheel or pinch): centre real and imaginary
//                          parts and zoom level (the view's side is 3 / 2^zoom); a journey
//                          given with it is made of the taps after that view. Past level 32
//                          the centre is written as long decimals, exact to a fraction of a
//                          pixel at any depth; journeys may be as long as the tiles go deep
//   palette=ultra          tile colouring; omitted means auto (the seed's classic colours while
//                          the iteration cap is at most 1,000, ultra's smooth bands deeper)
//   iter=1000              iteration cap, 1 to 100000; omitted means auto (grows with zoom)
// Shallow numbers are written in JavaScript's shortest round-trip form, so reading them back
// gives the same doubles and the same tiles.

import { centreDecimals, viewFromDecimals } from "./decimal.js";
import { clampView, journeyView, limits, startView } from "./geometry.js";

/** The palettes the tile server knows (`Palette.swift`), with labels for the menu. */
export const palettes = [
  { name: "auto", label: "Auto" }, // the seed's classic, smooth bands deep (renderer.js)
  { name: "classic", label: "Classic (seed)" },
  { name: "ultra", label: "Ultra" },
  { name: "fire", label: "Fire" },
  { name: "ocean", label: "Ocean" },
  { name: "gray", label: "Gray" },
];

/** The accepted iteration caps (`TileRequest.iterationRange`). */
export const iterationRange = { min: 1, max: 100000 };

/**
 * A fresh state: the start view. `anchor` is the free view the journey starts from (null: the
 * start view); `iterations` is null for auto.
 */
export function initialState() {
  return { anchor: null, journey: [], palette: "auto", iterations: null };
}

/** The view a state shows. */
export function stateView(state) {
  return journeyView(state.anchor ?? startView, state.journey);
}

/** How many more quadrant taps a state allows before the deepest level. */
export function tapsLeft(state) {
  return Math.floor(limits.maxZoom - stateView(state).zoom + 1e-9);
}

/** The journey as the seed writes it: `1-4-4-1-3-3`, or the empty string. */
export function journeyText(journey) {
  return journey.join("-");
}

/**
 * Reads a state from a query string (`location.search`). Returns `{state, problems}`: fields
 * that cannot be used are skipped and described in `problems`, one sentence each.
 */
export function parseState(search) {
  const query = new URLSearchParams(search);
  const state = initialState();
  const problems = [];

  const coordinates = ["x", "y", "zoom"].map((name) => query.get(name));
  if (coordinates.some((value) => value !== null)) {
    const [x, y, zoom] = coordinates.map((value) => (value === null ? NaN : Number(value)));
    const deep = Number.isFinite(zoom) && zoom > limits.frameFrom;
    const level = Math.min(limits.maxZoom, Math.floor(zoom)) - limits.frameLag;
    const view = deep ? viewFromDecimals(coordinates[0], coordinates[1], zoom, level) : null;
    if (view) {
      state.anchor = clampView(view);
    } else if (!deep && [x, y, zoom].every(Number.isFinite)) {
      state.anchor = clampView({ x, y, zoom });
    } else {
      problems.push("x, y and zoom must all be numbers; showing the start view.");
    }
  }

  const journey = query.get("journey");
  if (journey !== null && journey !== "") {
    if (/^[1-4](-?[1-4])*$/.test(journey)) {
      state.journey = Array.from(journey.replaceAll("-", ""), Number);
      const depth = (state.anchor ?? startView).zoom;
      const room = Math.max(0, Math.floor(limits.maxZoom - depth + 1e-9));
      if (state.journey.length > room) {
        state.journey = state.journey.slice(0, room);
        problems.push(`The journey is cut to ${room} taps: deeper tiles are not served.`);
      }
    } else {
      problems.push(`The journey "${journey}" is not quadrants 1-4 joined by "-".`);
    }
  }

  const palette = query.get("palette");
  if (palette !== null) {
    if (palettes.some((p) => p.name === palette)) {
      state.palette = palette;
    } else {
      problems.push(`There is no palette "${palette}".`);
    }
  }

  const iter = query.get("iter");
  if (iter !== null && iter !== "auto") {
    const value = Number(iter);
    if (Number.isInteger(value) && value >= iterationRange.min && value <= iterationRange.max) {
      state.iterations = value;
    } else {
      problems.push(`iter must be a whole number from 1 to 100000, not "${iter}".`);
    }
  }
  return { state, problems };
}

/** Writes a state as a query string, `?...`, or the empty string for the default state. */
export function formatState(state) {
  const fields = [];
  if (state.anchor?.frame) {
    const { x, y } = centreDecimals(state.anchor);
    fields.push(`x=${x}`, `y=${y}`, `zoom=${state.anchor.zoom}`);
  } else if (state.anchor) {
    fields.push(`x=${state.anchor.x}`, `y=${state.anchor.y}`, `zoom=${state.anchor.zoom}`);
  }
  if (state.journey.length > 0) fields.push(`journey=${journeyText(state.journey)}`);
  if (state.palette !== "auto") fields.push(`palette=${encodeURIComponent(state.palette)}`);
  if (state.iterations !== null) fields.push(`iter=${state.iterations}`);
  return fields.length > 0 ? `?${fields.join("&")}` : "";
}
