// Tag cloud (seed "3D Tag Cloud"): DOM labels placed from the streamed sphere points, faded
// (and a little shrunk) by depth and stacked back to front. Dragging sends pointer motion;
// the server turns the sphere and keeps it spinning with inertia after release. Tags are links.

import { $, el } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { lerp } from "../lib/frames.js";
import { cloudLook, shownScale } from "../tag-cloud/look.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the gallery's own tags
  dragSlop: 5, // px of pointer travel before a press on a tag becomes a drag
  maxDrag: 2000, // largest motion one drag message may carry, in world px (protocol limit)
};

let view = null;
let labels = [];
let world = { width: 400, height: 400 };

function buildLabels(cloud, tags, sizes) {
  labels = tags.map((tag, i) =>
    el(
      "a",
      {
        href: tag.url || null,
        draggable: "false",
        title: tag.url ? `${tag.text} (${tag.url})` : null,
        dataset: { index: i },
        style: { fontSize: `${cloudLook.fontPx * sizes[i]}px` },
      },
      tag.text,
    ),
  );
  cloud.replaceChildren(...labels);
  scaleFonts(tags.map((_, i) => sizes[i]));
}

function scaleFonts(sizes = labels.map((label) => label.sizeFactor)) {
  labels.forEach((label, i) => {
    label.sizeFactor = sizes[i];
    label.style.fontSize = `${cloudLook.fontPx * sizes[i] * view.scale}px`;
  });
}

function draw(sample) {
  const { a, b, alpha } = sample;
  const k = view.scale;
  const count = Math.min(labels.length, b.scale.length);
  for (let i = 0; i < count; i += 1) {
    const x = lerp(a.points[2 * i], b.points[2 * i], alpha) * k;
    const y = lerp(a.points[2 * i + 1], b.points[2 * i + 1], alpha) * k;
    const scale = shownScale(lerp(a.scale[i], b.scale[i], alpha));
    const style = labels[i].style;
    style.transform =
      `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%) ` +
      `scale(${scale.toFixed(3)})`;
    style.opacity = lerp(a.opacity[i], b.opacity[i], alpha).toFixed(3);
  }
  b.order.forEach((index, depth) => {
    if (labels[index]) labels[index].style.zIndex = String(depth + 1);
  });
}

/** Drags turn the cloud: pointer motion in world px goes out at most once per animation frame. */
function bindDrag(cloud, demo) {
  let press = null; // {x, y, dragging}
  let pending = { dx: 0, dy: 0 };
  let flushQueued = false;
  let suppressClick = false;
  const clampMotion = (value) => Math.max(-options.maxDrag, Math.min(options.maxDrag, value));
  const flush = () => {
    flushQueued = false;
    if (!pending.dx && !pending.dy) return;
    demo.send({
      type: "drag",
      dx: clampMotion(Math.round(pending.dx * 100) / 100),
      dy: clampMotion(Math.round(pending.dy * 100) / 100),
    });
    pending = { dx: 0, dy: 0 };
  };
  cloud.addEventListener("pointerdown", (event) => {
    if (!demo.client?.controls || event.button > 0) return;
    press = { x: event.clientX, y: event.clientY, id: event.pointerId, dragging: false };
  });
  cloud.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < options.dragSlop) return;
      press.dragging = true;
      cloud.setPointerCapture(event.pointerId);
      cloud.classList.add("dragging");
    }
    press.x = event.clientX;
    press.y = event.clientY;
    pending.dx += dx / view.scale;
    pending.dy += dy / view.scale;
    if (!flushQueued) {
      flushQueued = true;
      requestAnimationFrame(flush);
    }
  });
  const end = () => {
    if (!press) return;
    if (press.dragging) {
      flush();
      demo.send({ type: "release" });
      suppressClick = true;
      setTimeout(() => {
        suppressClick = false;
      }, 0);
    }
    cloud.classList.remove("dragging");
    press = null;
  };
  cloud.addEventListener("pointerup", end);
  cloud.addEventListener("pointercancel", end);
  // NB: a drag that starts on a tag must not follow the link when the pointer lifts.
  cloud.addEventListener(
    "click",
    (event) => {
      if (suppressClick) event.preventDefault();
    },
    true,
  );
}

/**
 * `?tags=Swift,Rust|https://www.rust-lang.org,Go` on a new session: its labels, each `text`
 * or `text|url`.
 */
function tagsFromURL() {
  const list = new URLSearchParams(location.search).get("tags");
  if (!list) return null;
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [text, url] = entry.split("|");
      return url ? { text: text.trim(), url: url.trim() } : text;
    });
}

const tags = tagsFromURL();

runDemo({
  kind: "tag-cloud",
  config: tags ? { ...options.config, tags } : options.config,
  fresh: Boolean(tags),
  urlConfig: ["radius", "damping", "autoRotate"],
  inputs: ["drag", "release", "tags", "reset"],
  events: ["tags", "reset"],
  stage: "cloud",
  controls(demo) {
    bindDrag($(".cloud", demo.root), demo);
    demo.bind("reset", { type: "reset" });
  },
  hello(message, demo) {
    world = message.world;
    const cloud = $(".cloud", demo.root);
    const resized = () => {
      if (labels.length) scaleFonts();
      demo.redraw();
    };
    view = demo.fit(world, cloud, resized);
    buildLabels(cloud, message.tags, message.sizes);
  },
  event(message, demo) {
    if (message.name === "tags" || message.name === "reset") {
      // NB: `reset` carries the new hello; `tags` carries the tags themselves.
      const source = message.hello ?? message;
      buildLabels($(".cloud", demo.root), source.tags, source.sizes);
      demo.frames.cut(message.tick);
      demo.redraw();
    }
  },
  draw,
});
