// Paintbrush (seed "Paintbrush"): a black canvas that everyone in the session paints on. The
// server keeps the picture as an ordered list of marks (batches of a stroke's points); this page
// mirrors that list, paints each mark onto a canvas of the world's size in the same order, and
// sends its own strokes as `stroke` batches. A late joiner gets every mark in `hello`; after that
// one `paint` event per tick carries the changes. UNDO takes back this painter's last stroke.

import { $, $all, setText } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { tokenLink } from "../lib/join.js";
import "../color-picker.js";
import { paintMark, paintPicture } from "../paintbrush/paint.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the server's defaults (640 x 480, brush 10)
  sendEveryMs: 40, // while drawing, the points so far go out in one batch this often, in ms
  minStep: 0.75, // the brush must move this far (px) before a point is added
  smoothing: 0.55, // weight of the newest pointer sample in the brush position (0 to 1)
  previewMs: 400, // how long this page's own finished stroke stays drawn over the picture, in ms
};

const authorKey = "playfield.paint.author";

/** The picture as the server has it: marks in painting order, drawn onto `paper`. */
const picture = { paper: null, marks: [], version: 0, world: null, background: "#000000" };
const brush = { color: "#ffffff", erase: false, radius: 10 };
let view = null;
/** This page's stroke in progress, drawn over the picture until the server's copy is in. */
let preview = null;
let limits = { pointsPerMessage: 256 };

/** Paints the whole picture again (after a hello, an undo or a clear). */
function repaint() {
  paintPicture(picture.paper.getContext("2d"), picture);
}

function adopt(message) {
  const { width, height } = message.world;
  if (!picture.paper || picture.paper.width !== width || picture.paper.height !== height) {
    picture.paper = document.createElement("canvas");
    picture.paper.width = width;
    picture.paper.height = height;
  }
  picture.world = message.world;
  picture.background = message.background;
  picture.marks = message.marks.slice();
  picture.version = message.version;
  limits = message.limits;
  repaint();
}

/** Applies one `paint` event; false when it does not follow the version this page has. */
function applyPaint(message) {
  if (message.from !== picture.version) return false;
  const context = picture.paper.getContext("2d");
  let whole = false;
  for (const op of message.ops) {
    if (op.op === "mark") {
      picture.marks.push(op);
      if (!whole) paintMark(context, op);
    } else if (op.op === "undo") {
      picture.marks = picture.marks.filter((mark) => mark.stroke !== op.stroke);
      whole = true;
    } else if (op.op === "clear") {
      picture.marks = [];
      whole = true;
    }
  }
  picture.version = message.version;
  if (whole) repaint();
  return true;
}

/** Asks for the whole picture again: a live page reconnects, a replay seeks where it is. */
function resync(demo) {
  if (demo.mode === "replay") demo.client.seek(demo.frames.newest?.tick ?? 0);
  else demo.client.drop();
}

function draw(_sample, demo) {
  if (!picture.paper || !view) return;
  const context = view.context2d();
  context.imageSmoothingEnabled = true;
  context.drawImage(picture.paper, 0, 0, picture.world.width, picture.world.height);
  // NB: only on the screen, never on the paper: the picture is what the server sends.
  if (preview?.points.length) paintMark(context, preview);
  if (!picture.marks.length && document.body.classList.contains("preview")) {
    for (const mark of sampleStrokes(picture.world)) paintMark(context, mark);
  }
  demo.status.update({});
}

/**
 * The gallery's card of an empty canvas (no black box): one wave in each of the seed's five
 * colours, drawn on the screen only, never sent or kept.
 */
function sampleStrokes({ width, height }) {
  const colors = ["#ffffff", "#ff0000", "#0000ff", "#ffff00", "#00ff00"];
  return colors.map((color, row) => {
    const points = [];
    const y = height * (0.2 + 0.15 * row);
    for (let x = width * 0.12; x <= width * 0.88; x += width / 40) {
      points.push(x, y + Math.sin((x / width) * 2 * Math.PI * 1.5 + row) * height * 0.05);
    }
    return { color, radius: Math.max(3, Math.min(width, height) / 40), points };
  });
}

function canPaint(demo) {
  const role = demo.client?.role;
  return demo.mode === "live" && (role === "controller" || role === "drawer");
}

/** This browser's painter id, kept so that UNDO still works after a reload. */
function author() {
  let id = null;
  try {
    id = localStorage.getItem(authorKey);
  } catch {
    // Storage is off: a new id per page.
  }
  if (!id || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try {
      localStorage.setItem(authorKey, id);
    } catch {
      // Not kept.
    }
  }
  return id;
}

/** Pointer strokes: smoothed, thinned, and sent in batches of points. */
function bindBrush(canvas, demo) {
  const painter = author();
  let number = Math.floor(Math.random() * 1e9);
  let stroke = null; // {number, pending: [x, y, ...], smooth: {x, y}, last: {x, y}, timer}

  const clampToWorld = (p) => ({
    x: Math.min(picture.world.width, Math.max(0, p.x)),
    y: Math.min(picture.world.height, Math.max(0, p.y)),
  });
  const add = (raw, exact = false) => {
    const p = clampToWorld(raw);
    const k = options.smoothing;
    stroke.smooth = exact || !stroke.smooth
      ? p
      : { x: stroke.smooth.x + (p.x - stroke.smooth.x) * k, y: stroke.smooth.y + (p.y - stroke.smooth.y) * k };
    const s = stroke.smooth;
    if (stroke.last && Math.hypot(s.x - stroke.last.x, s.y - stroke.last.y) < options.minStep) return;
    stroke.last = s;
    const point = [Math.round(s.x * 10) / 10, Math.round(s.y * 10) / 10];
    stroke.pending.push(...point);
    stroke.preview.points.push(...point);
    demo.redraw();
  };
  const flush = () => {
    if (!stroke) return;
    const most = 2 * limits.pointsPerMessage;
    while (stroke.pending.length) {
      const points = stroke.pending.splice(0, most);
      demo.client.send({
        type: "stroke",
        author: painter,
        stroke: stroke.number,
        color: brush.erase ? picture.background : brush.color,
        radius: brush.radius,
        points,
      });
    }
  };

  canvas.addEventListener("pointerdown", (event) => {
    if (!picture.paper || event.button > 0) return;
    if (!canPaint(demo)) {
      demo.notice("You are watching: ask the owner for the drawing link to paint.");
      return;
    }
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    number = (number + 1) % 2147483647;
    const color = brush.erase ? picture.background : brush.color;
    preview = { color, radius: brush.radius, points: [] };
    stroke = { number, pending: [], smooth: null, last: null, timer: null, preview };
    add(view.toWorld(event), true);
    flush();
    stroke.timer = setInterval(flush, options.sendEveryMs);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!stroke || !canvas.hasPointerCapture(event.pointerId)) return;
    const samples = event.getCoalescedEvents?.() ?? [];
    for (const sample of samples.length ? samples : [event]) add(view.toWorld(sample));
  });
  const end = (event) => {
    if (!stroke) return;
    add(view.toWorld(event), true);
    clearInterval(stroke.timer);
    flush();
    const done = stroke.preview;
    stroke = null;
    setTimeout(() => {
      if (preview === done) preview = null;
      demo.redraw();
    }, options.previewMs);
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);

  const undo = () => demo.client.send({ type: "undo", author: painter });
  for (const button of $all('[data-action="undo"]', demo.root)) {
    button.addEventListener("click", undo);
  }
  window.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "z" && canPaint(demo)) {
      event.preventDefault();
      undo();
    }
  });
}

/** The palette, ERASE, the brush size, the colour picker and PNG export. */
function bindTools(demo) {
  const root = demo.root;
  const swatches = $all(".swatch", root);
  const erase = $('[data-action="erase"]', root);
  const anyColor = $(".any-color", root);
  const pickerBox = $(".paint-picker", root);
  const picker = $("playfield-color-picker", root);
  const choose = (color, button) => {
    brush.color = color;
    brush.erase = false;
    erase.setAttribute("aria-pressed", "false");
    for (const swatch of swatches) swatch.setAttribute("aria-pressed", String(swatch === button));
  };
  for (const swatch of swatches) {
    if (swatch === anyColor) continue;
    swatch.addEventListener("click", () => choose(swatch.dataset.color, swatch));
  }
  anyColor.addEventListener("click", () => {
    pickerBox.hidden = !pickerBox.hidden;
    anyColor.setAttribute("aria-expanded", String(!pickerBox.hidden));
    if (!pickerBox.hidden) choose(picker.value, anyColor);
  });
  picker.addEventListener("input", () => {
    anyColor.style.setProperty("--swatch", picker.value);
    choose(picker.value, anyColor);
  });
  erase.addEventListener("click", () => {
    brush.erase = !brush.erase;
    erase.setAttribute("aria-pressed", String(brush.erase));
  });
  const size = $('input[name="radius"]', root);
  const shown = $(".paint-size-value", root);
  size.addEventListener("input", () => {
    brush.radius = Number(size.value);
    setText(shown, size.value);
  });
  $('[data-action="export"]', root).addEventListener("click", () => exportPNG(demo));
}

function exportPNG(demo) {
  if (!picture.paper) return;
  picture.paper.toBlob((blob) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `paintbrush-${demo.session?.id ?? "canvas"}.png`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }, "image/png");
}

/** The owner sees the drawing link; a guest is told what they may do; a watcher's painting
 * tools are off (PNG export stays). */
function showRole(message, demo) {
  const root = demo.root;
  const paints = message.role === "controller" || message.role === "drawer";
  const tools = '.swatch, [data-action="erase"], [data-action="undo"], input[name="radius"]';
  for (const tool of $all(tools, root)) tool.disabled = !paints;
  if (!paints) root.querySelector(".paint-picker").hidden = true;
  const guests = root.querySelector(".paint-guests");
  const label = root.querySelector(".demo-role");
  if (message.role === "drawer" && label) setText(label, "You are drawing as a guest.");
  if (!guests) return;
  guests.hidden = !message.drawToken;
  if (!message.drawToken) return;
  showDrawLink(guests, message.session, message.drawToken);
  const renew = $(".new-draw-link", guests);
  renew.onclick = async () => {
    if (renew.getAttribute("aria-busy") === "true") return;
    renew.setAttribute("aria-busy", "true");
    try {
      const token = await newDrawLink(message.session, demo.client?.token);
      showDrawLink(guests, message.session, token);
      demo.notice("New drawing link made: the old one no longer works, and guests who used it now watch.");
    } catch (error) {
      demo.notice(`No new drawing link: ${error.message}`, "error");
    } finally {
      renew.removeAttribute("aria-busy");
    }
  };
}

/** Points the drawing link and its copy button at `token`'s link. */
function showDrawLink(guests, session, token) {
  // The drawing token travels in the fragment: never sent to a server or in a Referer.
  const href = tokenLink("paintbrush", session, token);
  $(".draw-link", guests).href = href;
  const copy = $(".copy-draw-link", guests);
  setText(copy, "copy");
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(href);
      setText(copy, "copied");
    } catch {
      setText(copy, "copy failed");
    }
  };
}

/** Asks the server for new drawing links (the owner's control token); returns the new token. */
async function newDrawLink(session, controlToken) {
  const answer = await fetch(`/api/sessions/${encodeURIComponent(session)}/links`, {
    method: "POST",
    headers: { Authorization: `Bearer ${controlToken}` },
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.error ?? `the server answered ${answer.status}`);
  return body.tokens.draw;
}

runDemo({
  kind: "paintbrush",
  config: options.config,
  urlConfig: ["width", "height", "brushRadius"],
  inputs: ["stroke", "undo", "clear", "reset"],
  events: ["paint"],
  setup(demo) {
    demo.picture = picture; // for the browser tests
  },
  controls(demo) {
    bindBrush($("canvas.view", demo.root), demo);
    bindTools(demo);
    demo.bind("clear", { type: "clear" });
  },
  hello(message, demo) {
    adopt(message);
    view = demo.fit(message.world);
    if (demo.mode === "live") showRole(message, demo);
    const size = demo.root.querySelector('input[name="radius"]');
    if (size && !size.dataset.touched) {
      size.dataset.touched = "1";
      size.value = String(message.brushRadius);
      brush.radius = message.brushRadius;
      size.dispatchEvent(new Event("input"));
    }
  },
  event(message, demo) {
    if (message.name === "paint") {
      if (!applyPaint(message)) resync(demo);
      demo.redraw();
    } else if (message.name === "dropped") {
      resync(demo);
    }
  },
  draw,
});
