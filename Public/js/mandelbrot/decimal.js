// A view's centre as decimal strings and back, exactly enough for any depth: BigInt fixed
// point between the decimal digits and the view's frame tile (see geometry.js).

import { frameLevel, position, reframe, tiles } from "./geometry.js";

/** Bits of the frame offsets kept when converting (doubles hold 53). */
const offsetBits = 60;

/** Decimal digits that pin a view's centre to well within a pixel of a 4000 px canvas. */
export function digitsFor(zoom) {
  return Math.max(4, Math.ceil((zoom + 14) * Math.LOG10E * Math.LN2) + 1);
}

/** The centre of `view` as decimal strings `{x, y}` with `digits` after the point (trimmed). */
export function centreDecimals(view, digits = digitsFor(view.zoom)) {
  const p = position(view);
  const bits = BigInt(p.level + offsetBits);
  const scaled = (f, u) => (f << BigInt(offsetBits)) + BigInt(Math.round(u * 2 ** offsetBits));
  // re = -2 + 3(fx + u)/2^level; im = 1.5 - 3(fy + v)/2^level, both over 2^(level + bits).
  const re = 3n * scaled(p.fx, p.u) - (2n << bits);
  const im = (3n << (bits - 1n)) - 3n * scaled(p.fy, p.v);
  return { x: toDecimal(re, bits, digits), y: toDecimal(im, bits, digits) };
}

/** numerator / 2^bits rounded to `digits` decimals, without trailing zeros. */
function toDecimal(numerator, bits, digits) {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const scale = 10n ** BigInt(digits);
  const rounded = (magnitude * scale + (1n << (bits - 1n))) >> bits;
  const whole = rounded / scale;
  let fraction = (rounded % scale).toString().padStart(digits, "0").replace(/0+$/, "");
  if (rounded === 0n) return "0";
  fraction = fraction ? `.${fraction}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** A decimal string (`-0.75`, `1.5e-3`) as `{numerator, digits}` (value = n / 10^digits). */
export function parseDecimal(text) {
  const match = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/.exec(text ?? "");
  if (!match) return null;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let digits = fraction.length - Number(exponent);
  let numerator = BigInt(whole + fraction);
  if (digits < 0) {
    numerator *= 10n ** BigInt(-digits);
    digits = 0;
  }
  return { numerator: sign === "-" ? -numerator : numerator, digits };
}

/**
 * The view centred on decimal (x, y) at `zoom`, framed at `level` (0: plain doubles), or null
 * when a coordinate is not a decimal. Centres outside the seed's window are pulled onto its edge.
 */
export function viewFromDecimals(x, y, zoom, level) {
  const re = parseDecimal(x);
  const im = parseDecimal(y);
  if (!re || !im) return null;
  if (level === 0) return reframe({ x: Number(x), y: Number(y), zoom }, 0);
  const bits = BigInt(level + offsetBits);
  const clampTo = (value, most) => (value < 0n ? 0n : value > most ? most : value);
  const most = (1n << bits) - 1n;
  // fx + u = (re + 2)·2^level/3 and fy + v = (1.5 - im)·2^level/3, in units of 2^-offsetBits.
  const ten = (digits) => 10n ** BigInt(digits);
  const tx = clampTo(((re.numerator + 2n * ten(re.digits)) << bits) / (3n * ten(re.digits)), most);
  const ty = clampTo(((3n * ten(im.digits) - 2n * im.numerator) << bits) / (6n * ten(im.digits)), most);
  const split = (t) => {
    const f = t >> BigInt(offsetBits);
    return [f, Number(t - (f << BigInt(offsetBits))) / 2 ** offsetBits];
  };
  const [fx, u] = split(tx);
  const [fy, v] = split(ty);
  return { x: tiles.side * u, y: -tiles.side * v, zoom, frame: { level, x: fx, y: fy } };
}

/** Whether `view`'s centre needs more digits than a double's shortest form gives. */
export function needsDecimals(view) {
  return frameLevel(view) > 0;
}
