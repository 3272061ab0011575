// Ingredient quantities for the recipe view: read the amount at the start of a line
// ("1 1/2 cups", "½ tsp", "2-3 eggs"), scale it, convert metric and US units, and write it
// back as a readable fraction ("1 ½ cups"). Pure functions, no DOM.

const VULGAR = { "½": 0.5, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875 };
const NUMBER = String.raw`(?:\d+(?:[.,]\d+)?(?:\s+\d+\/\d+|\s*[½⅓⅔¼¾⅕⅛⅜⅝⅞])?|\d+\/\d+|[½⅓⅔¼¾⅕⅛⅜⅝⅞])`;
const LEADING = new RegExp(String.raw`^\s*(${NUMBER})(?:\s*(?:-|–|to)\s*(${NUMBER}))?\s*`);

/** Units: their kind, their size in the kind's base (ml or g), and the names they go by. */
const UNITS = {
  ml: { kind: "volume", base: 1, names: ["ml", "milliliter", "milliliters", "millilitre", "millilitres"] },
  l: { kind: "volume", base: 1000, names: ["l", "liter", "liters", "litre", "litres"] },
  tsp: { kind: "volume", base: 4.92892, names: ["tsp", "teaspoon", "teaspoons", "t"] },
  tbsp: { kind: "volume", base: 14.7868, names: ["tbsp", "tablespoon", "tablespoons", "tbs", "T"] },
  "fl oz": { kind: "volume", base: 29.5735, names: ["fl oz", "fluid ounce", "fluid ounces"] },
  cup: { kind: "volume", base: 236.588, names: ["cup", "cups", "c"] },
  g: { kind: "mass", base: 1, names: ["g", "gram", "grams", "gr"] },
  kg: { kind: "mass", base: 1000, names: ["kg", "kilogram", "kilograms"] },
  oz: { kind: "mass", base: 28.3495, names: ["oz", "ounce", "ounces"] },
  lb: { kind: "mass", base: 453.592, names: ["lb", "lbs", "pound", "pounds"] },
};
const BY_NAME = new Map();
for (const [unit, facts] of Object.entries(UNITS)) for (const name of facts.names) BY_NAME.set(name, unit);

/** The number a quantity token says ("1 1/2" → 1.5, "½" → 0.5, "2,5" → 2.5). */
export function readNumber(text) {
  let total = 0;
  for (const part of text.trim().split(/\s+/)) {
    const vulgar = part.match(/^(\d*)([½⅓⅔¼¾⅕⅛⅜⅝⅞])$/);
    if (vulgar) total += Number(vulgar[1] || 0) + VULGAR[vulgar[2]];
    else if (part.includes("/")) {
      const [top, bottom] = part.split("/").map(Number);
      total += bottom ? top / bottom : 0;
    } else total += Number(part.replace(",", "."));
  }
  return total;
}

/** A line as {low, high, unit, rest} (low null when it starts with no amount). */
export function parseLine(line) {
  const match = line.match(LEADING);
  if (!match) return { low: null, high: null, unit: null, rest: line };
  const low = readNumber(match[1]);
  const high = match[2] ? readNumber(match[2]) : low;
  let rest = line.slice(match[0].length);
  let unit = null;
  const word = rest.match(/^(fl\.? oz|fluid ounces?|[A-Za-z]+)\.?(?=\s|$)/);
  if (word) {
    const name = word[1].replace("fl. oz", "fl oz");
    const known = BY_NAME.get(name) ?? BY_NAME.get(name.toLowerCase());
    if (known) {
      unit = known;
      rest = rest.slice(word[0].length).trimStart();
    }
  }
  return { low, high, unit, rest };
}

/** `value` as a readable amount: whole, or whole and a common fraction, or one decimal. */
export function formatAmount(value) {
  if (value >= 20) return String(Math.round(value));
  const whole = Math.floor(value + 1e-9);
  const part = value - whole;
  const fractions = [[0, ""], [0.125, "⅛"], [0.25, "¼"], [1 / 3, "⅓"], [0.375, "⅜"], [0.5, "½"], [0.625, "⅝"], [2 / 3, "⅔"], [0.75, "¾"], [0.875, "⅞"], [1, ""]];
  let best = fractions[0];
  for (const candidate of fractions) if (Math.abs(candidate[0] - part) < Math.abs(best[0] - part)) best = candidate;
  if (Math.abs(best[0] - part) > 0.04) return String(Math.round(value * 10) / 10);
  const wholeShown = best[0] === 1 ? whole + 1 : whole;
  if (!best[1]) return String(wholeShown);
  return wholeShown ? `${wholeShown} ${best[1]}` : best[1];
}

/** The unit a metric or US reader wants for `amount` of `unit`, converted. */
export function convert(amount, unit, system) {
  const facts = UNITS[unit];
  if (!facts || system === "as-written") return { amount, unit };
  const base = amount * facts.base;
  const choices =
    facts.kind === "mass"
      ? system === "metric" ? ["kg", "g"] : ["lb", "oz"]
      : system === "metric" ? ["l", "ml"] : ["cup", "tbsp", "tsp"];
  for (const choice of choices) {
    const converted = base / UNITS[choice].base;
    if (converted >= (choice === "cup" ? 0.25 : 1)) return { amount: roundFor(converted, choice), unit: choice };
  }
  const last = choices[choices.length - 1];
  return { amount: roundFor(base / UNITS[last].base, last), unit: last };
}

function roundFor(value, unit) {
  if (unit === "g" || unit === "ml") return value >= 100 ? Math.round(value / 5) * 5 : Math.round(value);
  return value;
}

/** The line with its amount times `factor`, in `system` units ("as-written" keeps them). */
export function scaleLine(line, factor, system = "as-written") {
  const parsed = parseLine(line);
  if (parsed.low === null) return line;
  const low = convert(parsed.low * factor, parsed.unit, system);
  const high = convert(parsed.high * factor, parsed.unit, system);
  const amount = parsed.high !== parsed.low ? `${formatAmount(low.amount)}–${formatAmount(high.amount)}` : formatAmount(low.amount);
  const unit = low.unit === "cup" && high.amount > 1 ? "cups" : low.unit;
  return [amount, unit, parsed.rest].filter(Boolean).join(" ");
}

/** The servings a yield says ("4-6 servings" → 4, "1 loaf" → 1), or null. */
export function servingsOf(recipeYield) {
  const text = Array.isArray(recipeYield) ? String(recipeYield[0] ?? "") : String(recipeYield ?? "");
  const match = text.match(/\d+/);
  return match ? Number(match[0]) : null;
}

/** Minutes of a timer a step mentions ("bake 25 minutes", "1 hour"), each once. */
export function timersIn(step) {
  const found = [];
  for (const match of step.matchAll(/(\d+(?:[.,]\d+)?)\s*(?:-|–|to)?\s*(?:\d+\s*)?(hours?|hrs?|minutes?|mins?)\b/gi)) {
    const value = Number(match[1].replace(",", "."));
    const minutes = /^h/i.test(match[2]) ? value * 60 : value;
    if (minutes > 0 && !found.includes(minutes)) found.push(minutes);
  }
  return found;
}

/** An ISO 8601 duration ("PT1H30M") as "1 h 30 min"; other text as it is. */
export function formatDuration(iso) {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso ?? "");
  if (!match) return iso ?? "";
  const hours = Number(match[1] ?? 0) * 24 + Number(match[2] ?? 0);
  const minutes = Number(match[3] ?? 0);
  return [hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean).join(" ") || "0 min";
}

const AISLES = [
  ["produce", /\b(apple|banana|lemon|lime|orange|onion|garlic|tomato|potato|carrot|celery|pepper|lettuce|spinach|herb|parsley|cilantro|basil|mint|ginger|mushroom|zucchini|cucumber|berr|plum|pear|avocado|cabbage|leek|shallot|scallion)/i],
  ["dairy and eggs", /\b(milk|butter|cream|cheese|yogh?urt|egg|parmesan|mozzarella|ricotta)/i],
  ["meat and fish", /\b(chicken|beef|pork|lamb|bacon|sausage|fish|salmon|tuna|shrimp|prawn|turkey|ham)/i],
  ["bakery", /\b(bread|bun|roll|tortilla|pita|baguette)/i],
  ["spices", /\b(salt|pepper|cinnamon|cumin|paprika|nutmeg|clove|oregano|thyme|vanilla|chili|curry)/i],
  ["pantry", /\b(flour|sugar|rice|pasta|oil|vinegar|stock|broth|bean|lentil|oat|honey|syrup|baking|yeast|cocoa|chocolate|nut|almond|sauce|can)/i],
];

/** The aisle an ingredient is usually found in, by its name. */
export function aisleOf(name) {
  return AISLES.find(([, pattern]) => pattern.test(name))?.[0] ?? "other";
}

/** An ingredient line as a shopping item: name, amount in ml or g when it has such a unit. */
export function shoppingItem(line, factor = 1) {
  const parsed = parseLine(line);
  const name = parsed.rest.replace(/\(.*?\)/g, "").split(",")[0].trim() || line.trim();
  let amount = parsed.low === null ? null : parsed.high * factor;
  let unit = "";
  const facts = UNITS[parsed.unit];
  if (amount !== null && facts) {
    amount *= facts.base;
    unit = facts.kind === "mass" ? "g" : "ml";
  } else if (parsed.unit) unit = parsed.unit;
  return { name, amount, unit, aisle: aisleOf(name) };
}

/** A shopping item's amount as shown in `system` ("" when it has none). */
export function shoppingAmount(item, system = "metric") {
  if (item.amount === null || item.amount === undefined) return "";
  if (item.unit === "g" || item.unit === "ml") {
    const shown = convert(item.amount, item.unit, system === "as-written" ? "metric" : system);
    return `${formatAmount(shown.amount)} ${shown.unit}`;
  }
  return [formatAmount(item.amount), item.unit].filter(Boolean).join(" ");
}
