// Small DOM helpers shared by every page.

/** The first element matching `selector` under `root`; throws if there is none. */
export function $(selector, root = document) {
  const element = root.querySelector(selector);
  if (!element) throw new Error(`missing element ${selector}`);
  return element;
}

/** Every element matching `selector` under `root`, as an array. */
export function $all(selector, root = document) {
  return Array.from(root.querySelectorAll(selector));
}

/**
 * Makes an element: `el("a", { href: "/", class: "tag" }, "text", child)`.
 * Attributes starting with "on" become event listeners; `dataset` and `style` take objects.
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style") Object.assign(element.style, value);
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Sets an element's text only when it changed (cheap to call every frame). */
export function setText(element, text) {
  const value = String(text);
  if (element.textContent !== value) element.textContent = value;
}

/** A number with `digits` decimals and thin-space thousands separators. */
export function formatNumber(value, digits = 0) {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-GB", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Clamps `value` into [low, high]. */
export function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

/** SI prefixes for `formatCompact`, from 10^3 up. */
const prefixes = ["k", "M", "G", "T", "P", "E"];

/**
 * A number for people: three significant digits and an SI prefix, e.g. 10049538 -> "10.0 M",
 * 1234 -> "1.23 k", 12.5 -> "12.5", -0.004 -> "0.00".
 */
export function formatCompact(value) {
  if (!Number.isFinite(value)) return "–";
  let scaled = Math.abs(value);
  let prefix = "";
  for (let i = 0; scaled >= 999.5 && i < prefixes.length; i += 1) {
    scaled /= 1000;
    prefix = prefixes[i];
  }
  const digits = scaled >= 99.95 ? 0 : scaled >= 9.995 ? 1 : 2;
  const sign = value < 0 && scaled.toFixed(digits) !== (0).toFixed(digits) ? "−" : "";
  return `${sign}${scaled.toFixed(digits)}${prefix ? ` ${prefix}` : ""}`;
}
