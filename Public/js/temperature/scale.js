// Fahrenheit and Celsius (seed "iOS – Fahrenheit to Celcius"): parsing what a person types,
// converting, rounding for display, and the five ranges with their message. Pure functions.

/** Absolute zero in each unit. */
export const absoluteZero = { F: -459.67, C: -273.15 };

/** The largest magnitude accepted, in either unit (hotter than the Sun's core is a typo). */
export const largest = 1e7;

/**
 * The ranges, by Celsius, each up to and including `upTo` (the last has no top). Fahrenheit
 * bounds: 32, 50, 68 and 86 °F.
 */
export const ranges = [
  { name: "freezing", upTo: 0, message: "Freezing: water turns to ice. Wrap up warm." },
  { name: "cold", upTo: 10, message: "Cold: a coat and a hat today." },
  { name: "mild", upTo: 20, message: "Mild: a light jacket will do." },
  { name: "warm", upTo: 30, message: "Warm: T-shirt weather." },
  { name: "hot", upTo: Infinity, message: "Hot: find some shade and drink water." },
];

/** °F to °C. */
export function toCelsius(fahrenheit) {
  return ((fahrenheit - 32) * 5) / 9;
}

/** °C to °F. */
export function toFahrenheit(celsius) {
  return (celsius * 9) / 5 + 32;
}

/** The other unit's value for `value` in `unit` ("F" or "C"). */
export function convert(value, unit) {
  return unit === "F" ? toCelsius(value) : toFahrenheit(value);
}

const number = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/**
 * Reads what was typed in the `unit` field: `{value}` for a temperature, `{empty: true}` for
 * nothing, or `{error}` saying what is wrong. Accepts a comma as the decimal mark and the
 * Unicode minus sign.
 */
export function parseTemperature(text, unit) {
  const typed = String(text).trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  if (typed === "") return { empty: true };
  if (!number.test(typed)) {
    const shown = String(text).trim();
    return { error: `“${shown}” is not a number: type digits, such as 36 or -4.5.` };
  }
  const value = Number(typed.replace(",", "."));
  const shown = `${formatTemperature(value)} °${unit}`;
  // `number`: a number, but not a temperature.
  if (Math.abs(value) > largest) {
    return { number: value, error: `${shown} is too far out: stay within ±10,000,000.` };
  }
  if (value < absoluteZero[unit]) {
    const zero = `${absoluteZero[unit]} °${unit}`;
    const error = `${shown} is below absolute zero (${zero}); nothing is colder.`;
    return { number: value, error };
  }
  return { value };
}

/**
 * `value` in `unit` as a field shows it: like `formatTemperature`, except that absolute zero
 * shows as itself (−273.15 °C is −459.67 °F, not −459.7, which reads back as too cold).
 */
export function formatField(value, unit) {
  if (value - absoluteZero[unit] < 0.05) return String(absoluteZero[unit]);
  return formatTemperature(value);
}

/** One decimal, without a trailing ".0" and without "-0": 2.2, 212, -17.8, 0. */
export function formatTemperature(value) {
  const rounded = Math.round(value * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** The range a Celsius temperature falls in. */
export function rangeOf(celsius) {
  return ranges.find((range) => celsius <= range.upTo) ?? ranges[ranges.length - 1];
}
