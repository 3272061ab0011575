// The gallery as a launcher: previews that run only while their card is on screen in a
// visible tab, a filter box that narrows the cards by name or seed, and arrow keys that move
// between cards (Enter opens the focused one, as any link does).

import { $, $all, setText } from "./lib/dom.js";

/** How far outside the viewport a card counts as on screen (an IntersectionObserver margin). */
const previewMargin = "0px";

/** The longest wait for one preview to load before the next one starts, in ms. */
const loadTimeoutMs = 3000;

/** How often and how many times to look for a loaded embed's client, in ms and polls. */
const readyPollMs = 100;
const readyPolls = 50;

const cards = $all(".card");
const filter = document.querySelector("#launcher-filter");

/**
 * Starts previews one at a time: the first embed fills the HTTP cache with the modules every
 * embed shares, so the others load them from it instead of fetching each one four times.
 */
const loader = {
  queue: [],
  busy: false,
  add(preview) {
    if (!this.queue.includes(preview)) this.queue.push(preview);
    this.next();
  },
  next() {
    if (this.busy) return;
    const preview = this.queue.shift();
    if (!preview) return;
    if (!preview.playing) {
      preview.loaded = false;
      this.next();
      return;
    }
    this.busy = true;
    const done = () => {
      clearTimeout(timer);
      preview.frame.removeEventListener("load", done);
      preview.settle();
      this.busy = false;
      this.next();
    };
    const timer = setTimeout(done, loadTimeoutMs);
    preview.frame.addEventListener("load", done);
    preview.frame.src = preview.frame.dataset.src;
  },
};

/**
 * One card's picture. A live preview is an iframe of a showcase session: it loads the first
 * time the card is seen, and pauses by closing its channel (the server then pauses that
 * session when nobody else watches). An icon pauses its CSS animation.
 */
class Preview {
  constructor(card) {
    this.card = card;
    this.frame = card.querySelector("iframe[data-src]");
    this.onScreen = false;
    this.playing = false;
    this.loaded = false;
    card.dataset.preview = "paused";
  }

  /** Plays while on screen in a visible tab, else pauses. */
  update() {
    const play = this.onScreen && !document.hidden;
    if (play === this.playing) return;
    this.playing = play;
    this.card.classList.toggle("playing", play);
    this.card.dataset.preview = play ? "playing" : "paused";
    if (!this.frame) return;
    if (play) this.resume();
    else this.pause();
  }

  resume() {
    if (!this.loaded) {
      this.loaded = true;
      loader.add(this);
      return;
    }
    const client = this.client;
    if (client && client.state === "ended") client.connect();
  }

  pause() {
    this.client?.close();
  }

  /**
   * After the embed loads: its client appears once it has joined the session; if the card
   * was paused meanwhile, close it then (polls every `readyPollMs` for a few seconds).
   */
  settle() {
    let polls = 0;
    const check = () => {
      const client = this.client;
      if (client) {
        if (!this.playing) client.close();
        return;
      }
      polls += 1;
      if (polls < readyPolls) setTimeout(check, readyPollMs);
    };
    check();
  }

  /** The embed's session client (same origin, so the gallery may reach it), if it has one. */
  get client() {
    try {
      return this.frame.contentWindow?.playfield?.client ?? null;
    } catch {
      return null;
    }
  }
}

const previews = new Map(cards.map((card) => [card, new Preview(card)]));

const watcher = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      const preview = previews.get(entry.target);
      preview.onScreen = entry.isIntersecting;
      preview.update();
    }
  },
  { rootMargin: previewMargin },
);
for (const card of cards) watcher.observe(card);
document.addEventListener("visibilitychange", () => {
  for (const preview of previews.values()) preview.update();
});

/** Lower case without accents, so "celcius" finds "Celcius" and "ios" finds "iOS –". */
function fold(text) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const haystacks = new Map(
  cards.map((card) => [
    card,
    fold(`${card.dataset.title} ${card.dataset.name} ${card.dataset.seed}`),
  ]),
);

/** Shows the cards whose name, title or seed holds every word typed; hides empty shelves. */
function applyFilter() {
  const words = fold(filter.value).split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const card of cards) {
    const match = words.every((word) => haystacks.get(card).includes(word));
    card.hidden = !match;
    if (match) shown += 1;
  }
  for (const shelf of $all(".shelf")) {
    shelf.hidden = !shelf.querySelector(".card:not([hidden])");
  }
  $(".launcher-none").hidden = shown > 0;
  const count = words.length ? `${shown} of ${cards.length} demos` : "";
  setText($("#launcher-count"), count);
}

function visibleCards() {
  return cards.filter((card) => !card.hidden);
}

function focusCard(card) {
  if (!card) return;
  const link = $(".card-link", card);
  link.focus();
  card.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/**
 * The card the arrow `key` leads to from `card`: left and right step through the cards in
 * order; up and down go to the nearest row above or below and the card closest in x.
 */
function neighbour(card, key) {
  const list = visibleCards();
  const index = list.indexOf(card);
  switch (key) {
    case "ArrowLeft":
      return list[index - 1];
    case "ArrowRight":
      return list[index + 1];
    case "Home":
      return list[0];
    case "End":
      return list[list.length - 1];
    default:
      break;
  }
  const here = card.getBoundingClientRect();
  const centre = (rect) => rect.left + rect.width / 2;
  const down = key === "ArrowDown";
  const rows = list
    .map((other) => ({ other, rect: other.getBoundingClientRect() }))
    .filter(({ rect }) => (down ? rect.top > here.top + 1 : rect.top < here.top - 1));
  if (!rows.length) return undefined;
  const rowTop = down
    ? Math.min(...rows.map(({ rect }) => rect.top))
    : Math.max(...rows.map(({ rect }) => rect.top));
  const row = rows.filter(({ rect }) => Math.abs(rect.top - rowTop) < 1);
  const distance = ({ rect }) => Math.abs(centre(rect) - centre(here));
  row.sort((a, b) => distance(a) - distance(b));
  return row[0].other;
}

const arrows = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const link = event.target.closest?.(".card-link");
  if (link && arrows.has(event.key)) {
    const next = neighbour(link.closest(".card"), event.key);
    event.preventDefault();
    if (next) focusCard(next);
    else if (event.key === "ArrowUp") filter?.focus();
    return;
  }
  if (event.target === filter && (event.key === "ArrowDown" || event.key === "Enter")) {
    const first = visibleCards()[0];
    if (!first) return;
    event.preventDefault();
    if (event.key === "Enter") $(".card-link", first).click();
    else focusCard(first);
  }
});

if (filter) {
  filter.addEventListener("input", applyFilter);
  applyFilter();
}
