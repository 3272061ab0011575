// Embedding (seed "Embedding Web Pages"): one demo framed twice, at its natural size and
// scaled to fit a smaller box with a CSS transform, then a snippet builder whose live frame
// is driven through the host library (/js/playfield-embed.js) with an event log.

import { $, $all, el, setText } from "../lib/dom.js";
import { lastOrNewSession } from "../lib/join.js";
import { PlayfieldEmbed } from "../playfield-embed.js";

/** Options of this page. */
const options = {
  pairDemo: "bouncing-balls", // the demo framed twice: this browser's session of it, or a new one
  previewDemo: "mandelbrot", // the pair in the gallery's preview: no session to create
  pairSize: { width: 360, height: 580 }, // the natural frame of the pair, CSS px
  previewSize: { width: 180, height: 180 }, // the pair's frame in the gallery's preview, CSS px
  logLength: 40, // event log lines kept
  rebuildMs: 300, // quiet time after a change before the live frame is rebuilt
};

const root = $(".demo");
const preview = document.body.classList.contains("preview");

function frame(src, title, size) {
  return el("iframe", {
    src,
    title,
    width: size.width,
    height: size.height,
    allow: "fullscreen; accelerometer; gyroscope", // NB: no `allowfullscreen` beside it (warns)
  });
}

/** The pair: the natural frame drives the session, the scaled one watches it. */
async function showPair() {
  const natural = $(".natural-box", root);
  const scaled = $(".scaled-box", root);
  const size = preview ? options.previewSize : options.pairSize;
  let controller = `/embed/${options.previewDemo}?preview`;
  let watcher = controller;
  if (!preview) {
    try {
      const session = await lastOrNewSession(options.pairDemo);
      const id = encodeURIComponent(session.id);
      const token = encodeURIComponent(session.token);
      // The token in the fragment: the frame keeps it, and no server or Referer sees it.
      controller = `/embed/${options.pairDemo}?session=${id}#token=${token}`;
      watcher = `/embed/${options.pairDemo}?session=${id}&watch`;
    } catch (error) {
      setText($("[data-readout=scale]", root), `cannot start a session: ${error.message}`);
    }
  }
  const inner = frame(watcher, "The same demo, scaled to fit", size);
  natural.append(frame(controller, "A demo at its natural size", size));
  scaled.append(inner);
  setText($("[data-readout=natural-size]", root), `${size.width} × ${size.height} px`);
  // The seed's "scale to fit": the frame keeps its natural size and is drawn smaller.
  const fit = () => {
    const k = Math.min(1, scaled.clientWidth / size.width);
    inner.style.transform = `scale(${k})`;
    scaled.style.height = `${Math.ceil(size.height * k)}px`;
    setText($("[data-readout=scale]", root), `${Math.round(k * 100)} %`);
  };
  new ResizeObserver(fit).observe(scaled);
  fit();
}

/** The builder's choices as URL options and frame size. */
function choices(form) {
  const data = new FormData(form);
  const number = (name, low, high, fallback) => {
    const value = Number(data.get(name));
    return Number.isFinite(value) && value > 0 ? Math.min(high, Math.max(low, value)) : fallback;
  };
  const demo = data.get("demo");
  const urlOptions = {};
  if (data.get("controls") !== "full") urlOptions.controls = data.get("controls");
  if (data.get("theme") !== "dark") urlOptions.theme = data.get("theme");
  if (!data.get("autoplay")) urlOptions.autoplay = false;
  const seed = String(data.get("seed") ?? "").trim();
  if (/^\d+$/.test(seed)) urlOptions.seed = seed;
  return {
    demo,
    options: urlOptions,
    width: number("width", 240, 1280, 400),
    height: number("height", 180, 1280, 300),
  };
}

function snippets(choice) {
  const src = PlayfieldEmbed.embedURL(location.origin, choice.demo, choice.options);
  const title = $(`option[value="${choice.demo}"]`, root).textContent;
  const iframe =
    `<iframe src="${src}" width="${choice.width}" height="${choice.height}" title="${title}"\n` +
    `  style="border:0;max-width:100%" allow="fullscreen; accelerometer; gyroscope"></iframe>`;
  const library =
    `<div id="playfield"></div>\n<script type="module">\n` +
    `  import { PlayfieldEmbed } from "${location.origin}/js/playfield-embed.js";\n` +
    `  const player = new PlayfieldEmbed("#playfield", {\n` +
    `    demo: "${choice.demo}", options: ${JSON.stringify(choice.options)},\n` +
    `    width: ${choice.width}, height: ${choice.height}, autoHeight: false,\n  });\n` +
    `  player.on("event", (message) => console.log(message.name, message));\n` +
    `  await player.ready;\n</script>`;
  const page = `${location.origin}/demos/${choice.demo}`;
  const oembed =
    `${location.origin}/oembed?url=${encodeURIComponent(page)}` +
    `&maxwidth=${choice.width}&maxheight=${choice.height}`;
  return { iframe, library, oembed };
}

/** The builder: a live frame through the host library, its snippets and its remote. */
function builder() {
  const form = $(".builder-form", root);
  const holder = $(".builder-frame", root);
  const log = $(".event-log", root);
  const stateLine = $(".remote-state", root);
  const captured = $(".capture", root);
  let player = null;
  let texts = {};

  const note = (text) => {
    log.prepend(el("li", {}, text));
    while (log.childElementCount > options.logLength) log.lastElementChild.remove();
  };

  const rebuild = () => {
    const choice = choices(form);
    texts = snippets(choice);
    for (const [name, text] of Object.entries(texts)) {
      setText($(`[data-snippet="${name}"]`, root), text);
    }
    player?.destroy(true);
    player = new PlayfieldEmbed(holder, {
      demo: choice.demo,
      options: choice.options,
      width: choice.width,
      height: choice.height,
      autoHeight: false,
      title: `Live embed of ${choice.demo}`,
    });
    setText(stateLine, "waiting for ready…");
    player.on("ready", (m) => {
      note(`ready: ${m.demo}, ${m.role ?? "no session"}, commands ${m.commands.join(" ")}`);
    });
    player.on("event", (m) => note(`event ${m.name}`));
    player.on("error", (m) => note(`error ${m.error}: ${m.message}`));
    player.on("state", (m) => {
      const parts = [m.running ? "running" : "paused"];
      if (m.tick !== null) parts.push(`tick ${m.tick}`);
      for (const [name, value] of Object.entries(m.readouts)) parts.push(`${name} ${value}`);
      setText(stateLine, parts.join(", "));
    });
  };

  let timer = 0;
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(rebuild, options.rebuildMs);
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  for (const button of $all("[data-remote]", root)) {
    const name = button.dataset.remote;
    button.addEventListener("click", async () => {
      if (!player) return;
      try {
        const result = await player[name]();
        note(`${name}() done`);
        if (name === "capture") {
          captured.hidden = false;
          $("img", captured).src = result.image;
          const size = `${result.width} × ${result.height} px`;
          setText($("figcaption", captured), `capture(): a ${size} PNG`);
        }
      } catch (error) {
        note(`${name}() failed: ${error.code ?? ""} ${error.message}`);
      }
    });
  }
  for (const button of $all("[data-copy]", root)) {
    button.addEventListener("click", async () => {
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(texts[button.dataset.copy]);
        setText(button, "Copied");
      } catch {
        setText(button, "Copy failed: select the text");
      }
      setTimeout(() => setText(button, label), 1500);
    });
  }
  rebuild();
  return () => player;
}

window.embedding = { player: null };
showPair();
if (!preview) window.embedding.player = builder();
