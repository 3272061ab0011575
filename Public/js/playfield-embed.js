// The Playfield host library as an ES module:
//   import { PlayfieldEmbed } from "https://HOST/js/playfield-embed.js";
// The class lives in playfield-embed.global.js (also usable as a plain <script>, which sets
// `window.PlayfieldEmbed`); this module loads it once and exports it, with frames pointing at
// the server this module came from.

import "./playfield-embed.global.js";

/** Drives one embedded Playfield demo over protocol v1 (docs/embedding.md). */
export const PlayfieldEmbed = globalThis.PlayfieldEmbed;
PlayfieldEmbed.defaultOrigin ??= new URL(import.meta.url).origin;

export default PlayfieldEmbed;
