// Street soccer's shirts: layered SVG (shirt colour, the pattern clipped to the shirt, an
// outline, shorts, the number), as the seed's jersey generator composited them. The
// goalkeeper (number 1) wears the kit's brighter `keeper` shirt, which the server computes.

const svgNS = "http://www.w3.org/2000/svg";
const shirtPath = "M12 3 L3 10 L8 17 L12 14 L12 34 L28 34 L28 14 L32 17 L37 10 L28 3 L24 6 L16 6 Z";
const shortsPath = "M12 34 L28 34 L29 45 L21 45 L20 39 L19 45 L11 45 Z";

/** The pattern's shapes on a 40 x 48 shirt, as SVG markup (clipped to the shirt). */
function patternShapes(pattern, color) {
  switch (pattern) {
    case "stripes":
      return [14, 20, 26, 32].map((x) => `<rect x="${x - 2}" y="0" width="3" height="34" fill="${color}"/>`).join("");
    case "hoops":
      return [8, 16, 24].map((y) => `<rect x="0" y="${y}" width="40" height="4" fill="${color}"/>`).join("");
    case "halves":
      return `<rect x="0" y="0" width="20" height="34" fill="${color}"/>`;
    case "sash":
      return `<polygon points="8,3 15,3 32,34 25,34" fill="${color}"/>`;
    default:
      return "";
  }
}

/** Black or white, whichever reads better on `hex` (#rrggbb). */
export function inkOn(hex) {
  const n = parseInt(hex.slice(1), 16);
  const channel = (c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(n >> 16) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return luminance > 0.3 ? "#000000" : "#ffffff";
}

/**
 * The goalkeeper's brighter shirt as the server makes it (`Kit.keeperShirt`: 60 % of the shirt
 * and 40 % white in linear light), for the kit designer's preview; matches use the server's.
 */
export function keeperShirt(hex) {
  const n = parseInt(hex.slice(1), 16);
  const linear = (c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const encoded = (l) => {
    const c = Math.min(1, Math.max(0, l));
    const v = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
    return Math.round(v * 255);
  };
  const channels = [16, 8, 0].map((s) => encoded(linear((n >> s) & 255) * 0.6 + 0.4));
  return `#${channels.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

let clipCount = 0;

/** An `<svg>` of one player in `kit` with `number` on the shirt. */
export function shirtSVG(kit, number) {
  const shirt = number === 1 ? kit.keeper ?? kit.shirt : kit.shirt;
  const clip = `shirt-clip-${++clipCount}`;
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", "0 0 40 48");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("shirt");
  const pattern = number === 1 ? "" : patternShapes(kit.pattern, kit.patternColor);
  svg.innerHTML =
    `<defs><clipPath id="${clip}"><path d="${shirtPath}"/></clipPath></defs>` +
    `<path d="${shortsPath}" fill="${kit.shorts}" stroke="#111" stroke-width="1"/>` +
    `<path d="${shirtPath}" fill="${shirt}"/>` +
    `<g clip-path="url(#${clip})">${pattern}</g>` +
    `<path d="${shirtPath}" fill="none" stroke="#111" stroke-width="1.2"/>` +
    `<text x="20" y="27" text-anchor="middle" font-size="15" font-weight="700" ` +
    `fill="${inkOn(shirt)}" stroke="${inkOn(shirt) === "#000000" ? "#ffffff" : "#000000"}" ` +
    `stroke-width="3" paint-order="stroke" stroke-linejoin="round">${number}</text>`;
  return svg;
}
