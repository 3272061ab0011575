// Street soccer's shirts: layered SVG (shirt colour, the pattern clipped to the shirt, an
// outline, shorts, the number), as the seed's jersey generator composited them. The
// goalkeeper (number 1) wears the kit's brighter `keeper` shirt, which the server computes.

const svgNS = "http://www.w3.org/2000/svg";
const shirtPath = "M12 3 L3 10 L8 17 L12 14 L12 34 L28 34 L28 14 L32 17 L37 10 L28 3 L24 6 L16 6 Z";
const shortsPath = "M12 34 L28 34 L29 45 L21 45 L20 39 L19 45 L11 45 Z";

/** The pattern's shapes on a 40 x 48 shirt (clipped to the shirt): `[x, y, width, height]`
 * rectangles or polygons of `[x, y, ...]` points. */
function patternParts(pattern) {
  switch (pattern) {
    case "stripes":
      return [14, 20, 26, 32].map((x) => ({ rect: [x - 2, 0, 3, 34] }));
    case "hoops":
      return [8, 16, 24].map((y) => ({ rect: [0, y, 40, 4] }));
    case "halves":
      return [{ rect: [0, 0, 20, 34] }];
    case "sash":
      return [{ polygon: [8, 3, 15, 3, 32, 34, 25, 34] }];
    default:
      return [];
  }
}

/** `[x0, y0, x1, y1, ...]` as SVG's "x0,y0 x1,y1 ...". */
function pointList(points) {
  return points.map((v, i) => (i % 2 ? `,${v}` : ` ${v}`)).join("").trim();
}

/** The pattern's shapes as SVG markup. */
function patternShapes(pattern, color) {
  return patternParts(pattern)
    .map(({ rect, polygon }) =>
      rect
        ? `<rect x="${rect[0]}" y="${rect[1]}" width="${rect[2]}" height="${rect[3]}" fill="${color}"/>`
        : `<polygon points="${pointList(polygon)}" fill="${color}"/>`,
    )
    .join("");
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

/** The same player drawn on a canvas: the shirt's 40 x 48 box at `x, y`, `size` units high. */
export function drawShirt(context, kit, number, x, y, size) {
  const shirt = number === 1 ? kit.keeper ?? kit.shirt : kit.shirt;
  const body = new Path2D(shirtPath);
  context.save();
  context.translate(x, y);
  context.scale(size / 48, size / 48);
  context.lineJoin = "round";
  context.strokeStyle = "#111";
  context.fillStyle = kit.shorts;
  context.lineWidth = 1;
  const shorts = new Path2D(shortsPath);
  context.fill(shorts);
  context.stroke(shorts);
  context.fillStyle = shirt;
  context.fill(body);
  if (number !== 1) {
    context.save();
    context.clip(body);
    context.fillStyle = kit.patternColor;
    for (const { rect, polygon } of patternParts(kit.pattern)) {
      context.beginPath();
      if (rect) context.rect(...rect);
      else for (let i = 0; i < polygon.length; i += 2) context.lineTo(polygon[i], polygon[i + 1]);
      context.fill();
    }
    context.restore();
  }
  context.lineWidth = 1.2;
  context.stroke(body);
  const ink = inkOn(shirt);
  context.font = "700 15px sans-serif";
  context.textAlign = "center";
  context.textBaseline = "alphabetic";
  context.lineWidth = 3;
  context.strokeStyle = ink === "#000000" ? "#ffffff" : "#000000";
  context.strokeText(String(number), 20, 27);
  context.fillStyle = ink;
  context.fillText(String(number), 20, 27);
  context.restore();
}
