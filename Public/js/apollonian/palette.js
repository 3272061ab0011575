// The seed's level colours (DESIGN.md): white, red, yellow, green, cyan, blue, magenta, dark
// grey, grey, light grey, white; anything deeper is white too.

export const levelColours = [
  "#ffffff", "#ff0000", "#ffff00", "#00ff00", "#00ffff", "#0000ff", "#ff00ff", "#a9a9a9",
  "#808080", "#d3d3d3", "#ffffff", "#ffffff",
];

/** The palette as 0..1 RGB triples, flat, for a uniform array. */
export function paletteFloats() {
  return new Float32Array(
    levelColours.flatMap((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)),
  );
}
