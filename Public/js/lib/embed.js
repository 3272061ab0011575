// What every demo page calls once: `startEmbed(spec)` speaks protocol v1 with the host page
// (embed-protocol.js, docs/embedding.md) and, on `/embed/` pages, lays out the frame
// (embed-chrome.js). `pageCommands` and `sessionCommands` (embed-commands.js) turn a demo's
// handlers into the commands it takes.

import { applyOptions, buildChrome } from "./embed-chrome.js";
import { startProtocol } from "./embed-protocol.js";

export { EmbedError, readOptions, version } from "./embed-protocol.js";
export { pageCommands, sessionCommands } from "./embed-commands.js";

/** Starts the embed protocol for one demo page (see `startProtocol` for `spec`). */
export function startEmbed(spec) {
  const embed = startProtocol({ ...spec, onOptions: applyOptions });
  applyOptions(embed.options);
  if (document.body.classList.contains("embedded")) {
    buildChrome(embed, spec, embed.naturalAspect());
  }
  return embed;
}
