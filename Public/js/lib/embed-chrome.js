// The chrome of `/embed/` pages: a small toolbar (play/pause, reset, full screen, menu), a
// menu holding the info line, share links and status line, the controls over or below the
// picture, the presentation options on the body, and good manners: no focus stealing, and the
// wheel scrolls the host page until the frame is clicked.

import { $all, el, setText } from "./dom.js";

/** Options of the chrome. */
const options = {
  hintMs: 2500, // how long the "click first" hint stays after a swallowed wheel
  tallMinHeight: 420, // CSS px a frame needs before its controls go below the picture
  touchMs: 4000, // how long a tap on the picture shows the controls on a touch screen
};

/** Puts the presentation options on the body, where embed.css reads them. */
export function applyOptions(values) {
  document.body.dataset.controls = values.controls;
  document.body.dataset.theme = values.theme;
}


/** Icons for the toolbar: SVG path data in a 24-unit box. */
const icons = {
  play: "M8 5v14l11-7z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  reset: "M12 5V2L7 6l5 4V7a5 5 0 1 1-5 5H5a7 7 0 1 0 7-7z",
  fullscreen: "M4 4h6v2H6v4H4zM14 4h6v6h-2V6h-4zM4 14h2v4h4v2H4zM18 14h2v6h-6v-2h4z",
  menu:
    "M5 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4z" +
    "m7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4z",
};

function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", icons[name]);
  svg.append(path);
  return svg;
}

/** The parts of a demo page that move into the frame's menu. */
const menuParts = [
  ".info",
  ".explorer-info",
  ".demo-session",
  ".demo-stored",
  ".status",
  ".explorer-readouts",
  ".explorer-help",
];

/**
 * Lays out an `/embed/` page: the toolbar (play/pause, reset, fullscreen, menu), the menu
 * holding the info line, share links and status line, the controls over or below the picture
 * (`aspect`: the natural frame's width / height), and the frame's manners.
 */
export function buildChrome(embed, spec, aspect) {
  const body = document.body;
  // A frame much taller than the demo's natural one has room for the controls below the
  // picture; others show them over it.
  const layout = () => {
    const tall = innerHeight >= options.tallMinHeight && innerWidth / innerHeight < aspect * 0.8;
    body.dataset.layout = tall ? "tall" : "overlay";
  };
  window.addEventListener("resize", layout);
  layout();
  const root = document.querySelector(".demo, .explorer");
  const button = (name, label, onclick) =>
    el(
      "button",
      { type: "button", class: `embed-${name}-button`, "aria-label": label, title: label, onclick },
      icon(name),
    );
  const run = (type) =>
    embed.run({ type }).catch((error) => embed.error(error.code, error.message));
  const bar = el("div", { class: "embed-bar", role: "toolbar", "aria-label": "Frame controls" });
  const commands = spec.commands ?? [];
  let playButton = null;
  if (commands.includes("play")) {
    playButton = button("play", "Play", () => run(spec.getState?.().running ? "pause" : "play"));
    bar.append(playButton);
  }
  if (commands.includes("reset")) {
    bar.append(button("reset", "Reset", () => run("reset")));
  }
  if (document.fullscreenEnabled) {
    bar.append(
      button("fullscreen", "Full screen", () => {
        if (document.fullscreenElement) document.exitFullscreen();
        else document.documentElement.requestFullscreen().catch(() => {});
      }),
    );
  }
  const menu = el("div", { class: "embed-menu", id: "embed-menu", hidden: true });
  const menuButton = button("menu", "More: about, share links and status", () => {
    menu.hidden = !menu.hidden;
    menuButton.setAttribute("aria-expanded", String(!menu.hidden));
  });
  menuButton.setAttribute("aria-controls", "embed-menu");
  menuButton.setAttribute("aria-expanded", "false");
  bar.append(menuButton);
  for (const selector of menuParts) {
    for (const part of $all(selector, root)) menu.append(part);
  }
  const open = new URLSearchParams(location.search);
  open.delete("token");
  const search = open.toString();
  const href = `/demos/${spec.demo}${search ? `?${search}` : ""}`;
  const away = el("a", { href, target: "_blank", rel: "noopener" }, "Open in Playfield");
  menu.append(el("p", { class: "embed-open" }, away));
  const hint = el("p", { class: "embed-hint", role: "status", hidden: true });
  root.append(bar, menu, hint);

  if (playButton) {
    const refresh = () => {
      const running = Boolean(spec.getState?.().running);
      playButton.replaceChildren(icon(running ? "pause" : "play"));
      const label = running ? "Pause" : "Play";
      playButton.setAttribute("aria-label", label);
      playButton.title = label;
    };
    const observer = new MutationObserver(refresh);
    observer.observe(root, { attributes: true, attributeFilter: ["data-running"] });
    refresh();
  }

  // Good manners: until the user clicks into the frame, the wheel belongs to the host page.
  let active = false;
  const activate = () => {
    active = true;
    body.dataset.active = "true";
  };
  window.addEventListener("pointerdown", activate, true);
  window.addEventListener("keydown", activate, true);
  window.addEventListener("blur", () => {
    active = false;
    body.dataset.active = "false";
  });
  let hintTimer = 0;
  window.addEventListener(
    "wheel",
    (event) => {
      if (active || !embed.embedded) return;
      // NB: stopping the event here, before it reaches the canvas, and not cancelling it, lets
      // the browser scroll the host page (the frame itself never scrolls).
      event.stopImmediatePropagation();
      if (spec.wheel) {
        hint.hidden = false;
        clearTimeout(hintTimer);
        hintTimer = setTimeout(() => {
          hint.hidden = true;
        }, options.hintMs);
      }
    },
    { capture: true, passive: true },
  );
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !menu.hidden) {
      menu.hidden = true;
      menuButton.setAttribute("aria-expanded", "false");
      menuButton.focus();
    }
  });
  // Tapping the picture on a touch screen shows the demo's controls for a while.
  let tapTimer = 0;
  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    body.dataset.touched = "true";
    clearTimeout(tapTimer);
    tapTimer = setTimeout(() => {
      body.dataset.touched = "false";
    }, options.touchMs);
  });
  setText(hint, spec.wheel ? "Click the picture first, then the wheel zooms." : "");
}
