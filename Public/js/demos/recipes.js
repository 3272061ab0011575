// Recipes (seed "My Favorite Recipes"): the page's one module script. Import by paste, file or
// bookmarklet (previewed, then saved), the book with search and sort, a recipe view that
// scales servings and converts units, a text-size control up to 300 %, cook mode with timers
// and the screen kept on, and sharing (share sheet, link, print, JSON-LD). The book is the
// one the stored token opens (`?book=TOKEN` from a shared link), or this browser's own.

import { $ } from "../lib/dom.js";
import { formatDuration, scaleLine, servingsOf, shoppingAmount, shoppingItem, timersIn } from "../recipes/quantity.js";

const root = $(".demo-recipes");
const message = $(".rb-message", root);
const list = $(".rb-list", root);
const view = $(".rb-recipe", root);
const tokenKey = "playfield.recipes.token";
const params = new URLSearchParams(location.search);
if (params.get("book")) {
  // NB: kept in this browser, out of the address bar, as for a session's control token.
  localStorage.setItem(tokenKey, params.get("book"));
  params.delete("book");
  history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}${location.hash}`);
}
let shown = null; // { recipe, id } on view
let baseServings = 4;

function headers(extra = {}) {
  const token = localStorage.getItem(tokenKey);
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

async function call(path, init = {}) {
  const response = await fetch(path, { ...init, headers: headers(init.headers), cache: "no-store" });
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(body?.error ?? `the server answered ${response.status}`);
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return body;
}

function say(text) {
  message.textContent = text;
}

/** Most bytes of one import's body: the server takes 1 MiB (`--recipe-import-bytes`). */
const importBytes = 1_000_000;

/** A book export cut into book exports of at most `limit` bytes of JSON each, in order. */
function bookParts(book, limit = importBytes) {
  const size = (value) => new TextEncoder().encode(JSON.stringify(value)).length;
  const { recipes, ...envelope } = book;
  const empty = size({ ...envelope, recipes: [] });
  const parts = [];
  let current = [];
  let bytes = empty;
  for (const entry of recipes) {
    const grows = size(entry) + 1; // and "," before the next
    if (current.length && bytes + grows > limit) {
      parts.push({ ...envelope, recipes: current });
      [current, bytes] = [[], empty];
    }
    current.push(entry);
    bytes += grows;
  }
  parts.push({ ...envelope, recipes: current });
  return parts;
}

/** Deletes the recipes `ids` again; gives how many could not be. */
async function takeBack(ids) {
  let left = 0;
  for (const id of ids) {
    try {
      await call(`/api/recipes/${id}`, { method: "DELETE" });
    } catch (error) {
      if (error.status !== 404) left += 1;
    }
  }
  return left;
}

/** Stores a book export larger than one import may send, part by part, in order; a part
 * refused for the imports a minute allows goes again after the wait the server names. When a
 * part fails, the recipes the parts before it stored are deleted again: the book is left as
 * it was. */
async function importBook(book) {
  const parts = bookParts(book);
  let imported = 0;
  const ids = [];
  let first = 0; // the file's index of the part's first recipe
  try {
    for (const [index, part] of parts.entries()) {
      say(`Importing part ${index + 1} of ${parts.length}…`);
      for (let attempt = 1; ; attempt += 1) {
        try {
          const init = { method: "POST", body: JSON.stringify(part), headers: { "Content-Type": "application/ld+json" } };
          const saved = await call("/api/recipes/import?save=1", init);
          if (saved.book?.token) localStorage.setItem(tokenKey, saved.book.token);
          imported += saved.imported;
          ids.push(...saved.ids);
          first += part.recipes.length;
          break;
        } catch (error) {
          if (error.status !== 429 || !error.retryAfter || attempt === 5) throw error;
          say(`Imported ${imported} recipes; waiting ${error.retryAfter} s for the server to take more…`);
          await new Promise((resolve) => setTimeout(resolve, error.retryAfter * 1000));
        }
      }
    }
    say(`Imported ${imported} recipes into your book.`);
  } catch (error) {
    // The server names a recipe by its place in the part; the person knows the file.
    const where = error.message.replace(/^recipes\[(\d+)\]/, (_, n) => `recipes[${first + Number(n)}]`);
    const stopped = `Not imported: ${where}`;
    if (!ids.length) {
      say(stopped);
    } else {
      say(`${stopped}. Taking back the ${ids.length} recipes stored before it…`);
      const left = await takeBack(ids);
      say(left
        ? `${stopped}. ${left} of the ${ids.length} recipes stored before it could not be taken back.`
        : `${stopped}. The ${ids.length} recipes stored before it were taken back: your book is as it was.`);
    }
  }
  await refresh();
}

/** The book export `text` holds when it is one too large for one import, else null. */
function largeBook(text) {
  if (new TextEncoder().encode(text).length <= importBytes) return null;
  try {
    const value = JSON.parse(text);
    return value?.playfield === "recipe-book" && Array.isArray(value.recipes) ? value : null;
  } catch {
    return null;
  }
}

/** Imports `text` (a page or JSON) and shows it, unsaved; `save` stores it at once. */
async function importText(text, url = "", save = false) {
  const book = largeBook(text);
  if (book) return importBook(book);
  const trimmed = text.trimStart();
  const type = trimmed.startsWith("{") || trimmed.startsWith("[") ? "application/ld+json" : "text/html";
  const query = new URLSearchParams();
  if (url) query.set("url", url);
  if (save) query.set("save", "1");
  try {
    const answer = await call(`/api/recipes/import?${query}`, { method: "POST", body: text, headers: { "Content-Type": type } });
    if (answer.book?.token) localStorage.setItem(tokenKey, answer.book.token);
    if (answer.playfield === "recipe-book") {
      const saved = await call("/api/recipes/import?save=1", { method: "POST", body: text, headers: { "Content-Type": type } });
      if (saved.book?.token) localStorage.setItem(tokenKey, saved.book.token);
      say(`Imported ${saved.imported} recipes into your book.`);
      await refresh();
      return;
    }
    show(answer, answer.id ?? null);
    say(answer.id ? `Saved “${answer.name}”.` : `Found “${answer.name}”. Save it to keep it.`);
    if (answer.id) {
      await refresh();
      connectShopping();
    }
  } catch (error) {
    say(`Not imported: ${error.message}`);
  }
}

$(".rb-paste", root).addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("#rb-source", root).value;
  const url = $("#rb-url", root).value.trim();
  // NB: an address alone is fetched by the server (public addresses only).
  if (!text.trim() && !url) return say("Paste a page or JSON-LD, or give its address, first.");
  if (!text.trim()) say("Fetching the page…");
  importText(text.trim() ? text : "", url);
});

async function importFile(file) {
  if (!file) return;
  importText(await file.text());
}
$("#rb-file", root).addEventListener("change", (event) => importFile(event.target.files[0]));
const dropZone = $(".rb-paste", root);
dropZone.addEventListener("dragover", (event) => event.preventDefault());
dropZone.addEventListener("drop", (event) => {
  event.preventDefault();
  importFile(event.dataTransfer.files[0]);
});

// The bookmarklet opens this page with `?receive=1` and posts the page it was clicked on.
const origin = location.origin;
$(".rb-bookmarklet-link", root).href =
  "javascript:(()=>{const o=" + JSON.stringify(origin) + ";const w=open(o+'/demos/recipes?receive=1');" +
  "addEventListener('message',function m(e){if(e.origin===o&&e.source===w&&e.data==='playfield-recipes-ready'){" +
  "w.postMessage({html:document.documentElement.outerHTML,url:location.href},o);removeEventListener('message',m)}})})()";
if (params.get("receive") && window.opener) {
  addEventListener("message", (event) => {
    if (event.source !== window.opener || typeof event.data?.html !== "string") return;
    importText(event.data.html, String(event.data.url ?? ""));
  });
  window.opener.postMessage("playfield-recipes-ready", "*");
}

const more = $(".rb-more", root);
/** How many recipes the list shows: the next page starts there. */
let listed = 0;

/** Lists the book's first page of recipes (the search's, in the chosen order), or with
 * `append` the next page below those shown. */
async function refresh(append = false) {
  const query = new URLSearchParams({ sort: $("#rb-sort", root).value });
  const q = $("#rb-q", root).value.trim();
  if (q) query.set("q", q);
  if (append === true) query.set("offset", String(listed));
  let answer;
  try {
    answer = await call(`/api/recipes?${query}`);
  } catch (error) {
    if (localStorage.getItem(tokenKey) && /no recipe book opens/.test(error.message)) {
      localStorage.removeItem(tokenKey);
      say("That book's link no longer works (revoked?): this is your own book.");
      return refresh();
    }
    if (error.status === 400 && q) return say(`Not searched: ${error.message}`);
    return say(`The book cannot be read: ${error.message}`);
  }
  // Only the owner's token may hand out and revoke links: a link's reader never sees them.
  for (const button of [$(".rb-links", root), $(".rb-revoke", root)]) button.hidden = answer.book?.access !== "owner";
  const entries = answer.recipes.map((recipe) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rb-entry";
    button.textContent = recipe.name;
    button.addEventListener("click", async () => show(await call(`/api/recipes/${recipe.id}`), recipe.id));
    item.append(button);
    return item;
  });
  if (append === true) list.append(...entries);
  else list.replaceChildren(...entries);
  listed = (append === true ? listed : 0) + answer.recipes.length;
  more.hidden = !answer.more;
  if (!listed) {
    const empty = document.createElement("li");
    empty.textContent = q ? "No recipe matches." : "No recipes yet: import one.";
    list.append(empty);
  }
}
$("#rb-q", root).addEventListener("input", () => refresh());
$("#rb-sort", root).addEventListener("change", () => refresh());
more.addEventListener("click", () => refresh(true));
$(".rb-search", root).addEventListener("submit", (event) => event.preventDefault());

function firstImage(image) {
  if (typeof image === "string") return image;
  if (Array.isArray(image)) return firstImage(image[0]);
  return image?.url ?? null;
}

/** Steps as [{section, title, text}] from strings, HowToSteps and HowToSections; a section
 * within a section (a titled step inside it) gives its steps its name as their title. */
function stepsOf(instructions, section = null) {
  if (typeof instructions === "string") return instructions.split(/\n+/).filter((s) => s.trim()).map((text) => ({ section, text }));
  if (!Array.isArray(instructions)) return [];
  return instructions.flatMap((step) => {
    if (typeof step === "string") return [{ section, text: step }];
    if (step?.["@type"] === "HowToSection") {
      if (section === null) return stepsOf(step.itemListElement, step.name ?? null);
      return stepsOf(step.itemListElement, section).map((inner) => ({ ...inner, title: inner.title ?? step.name }));
    }
    return step?.text ? [{ section, text: step.text }] : [];
  });
}

function show(recipe, id) {
  shown = { recipe, id };
  view.hidden = false;
  $(".rb-name", view).textContent = recipe.name ?? "Untitled recipe";
  const image = firstImage(recipe.image);
  const picture = $(".rb-image", view);
  picture.src = image && /^https?:/.test(image) ? image : "/img/recipe-placeholder.svg";
  picture.onerror = () => (picture.src = "/img/recipe-placeholder.svg");
  const meta = [
    recipe.totalTime && `Total ${formatDuration(recipe.totalTime)}`,
    recipe.recipeYield && `Makes ${Array.isArray(recipe.recipeYield) ? recipe.recipeYield[0] : recipe.recipeYield}`,
    recipe.author && `By ${typeof recipe.author === "string" ? recipe.author : recipe.author.name ?? ""}`,
  ].filter(Boolean);
  $(".rb-meta", view).textContent = meta.join(" · ");
  $(".rb-description", view).textContent = recipe.description ?? "";
  baseServings = servingsOf(recipe.recipeYield) ?? 4;
  $("#rb-servings", view).value = baseServings;
  $(".rb-save", view).hidden = id !== null;
  $(".rb-shop", view).hidden = id === null;
  $(".rb-delete", view).hidden = id === null;
  render();
  view.scrollIntoView({ block: "start" });
}

function render() {
  if (!shown) return;
  const factor = Number($("#rb-servings", view).value || baseServings) / baseServings;
  const system = $("#rb-units", view).value;
  $(".rb-ingredients", view).replaceChildren(
    ...(shown.recipe.recipeIngredient ?? []).map((line) => {
      const item = document.createElement("li");
      item.textContent = scaleLine(String(line), factor, system);
      return item;
    }),
  );
  // Each section's name over a list of its own steps, numbered on from the section before.
  const parts = [];
  let list = null;
  let section = null;
  let count = 0;
  for (const step of stepsOf(shown.recipe.recipeInstructions)) {
    if (!list || step.section !== section) {
      section = step.section;
      if (section) {
        const heading = document.createElement("h4");
        heading.textContent = section;
        parts.push(heading);
      }
      list = document.createElement("ol");
      list.start = count + 1;
      parts.push(list);
    }
    const item = document.createElement("li");
    if (step.title) {
      const title = document.createElement("strong");
      title.textContent = step.title;
      item.append(title, " ");
    }
    item.append(step.text);
    list.append(item);
    count += 1;
  }
  $(".rb-steps", view).replaceChildren(...parts);
}
$("#rb-servings", view).addEventListener("input", render);
$("#rb-units", view).addEventListener("change", render);
const size = $("#rb-size", view);
size.addEventListener("input", () => {
  view.style.setProperty("--rb-scale", size.value / 100);
  view.classList.toggle("rb-large", size.value >= 200);
  size.setAttribute("aria-valuetext", `${size.value} %`);
});

$(".rb-save", view).addEventListener("click", async () => {
  const text = JSON.stringify({ ...shown.recipe, "@context": "https://schema.org" });
  await importText(text, "", true);
});
$(".rb-delete", view).addEventListener("click", async () => {
  try {
    await call(`/api/recipes/${shown.id}`, { method: "DELETE" });
    view.hidden = true;
    say("Deleted.");
    await refresh();
  } catch (error) {
    say(`Not deleted: ${error.message}`);
  }
});

function linkTo() {
  const url = new URL("/demos/recipes", location.origin);
  if (shown?.id) url.hash = `recipe-${shown.id}`;
  return url.href;
}
$(".rb-share", view).addEventListener("click", async () => {
  if (navigator.share) {
    try {
      await navigator.share({ title: shown.recipe.name, url: linkTo() });
      return;
    } catch {}
  }
  await navigator.clipboard?.writeText(linkTo());
  say("Link copied.");
});
$(".rb-copy", view).addEventListener("click", async () => {
  await navigator.clipboard?.writeText(linkTo());
  say("Link copied.");
});
$(".rb-print", view).addEventListener("click", () => print());
$(".rb-jsonld", view).addEventListener("click", () => {
  const { id, tags, ...recipe } = shown.recipe;
  const blob = new Blob([JSON.stringify({ "@context": "https://schema.org", ...recipe }, null, 2)], { type: "application/ld+json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${(recipe.name ?? "recipe").replace(/[^\w]+/g, "-").toLowerCase()}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
});

// Cook mode: one step at a time, large; the screen kept on where the browser can.
const cook = $(".rb-cook-mode", root);
let cookSteps = [];
let cookAt = 0;
let wakeLock = null;
// A step shows its section's name above it and its own title in bold before its text, as the
// recipe view does (before, cook mode showed the text alone).
function showStep() {
  const step = cookSteps[cookAt] ?? { section: null, text: "" };
  $(".rb-cook-count", cook).textContent = `Step ${cookAt + 1} of ${cookSteps.length}`;
  const section = $(".rb-cook-section", cook);
  section.textContent = step.section ?? "";
  section.hidden = !step.section;
  const text = $(".rb-cook-step", cook);
  text.replaceChildren(step.text);
  if (step.title) {
    const title = document.createElement("strong");
    title.textContent = step.title;
    text.prepend(title, " ");
  }
  $(".rb-cook-timers", cook).replaceChildren(
    ...timersIn([step.title, step.text].filter(Boolean).join(" ")).map((minutes) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Start a ${minutes} min timer`;
      button.addEventListener("click", () => startTimer(button, minutes));
      return button;
    }),
  );
  $(".rb-cook-prev", cook).disabled = cookAt === 0;
  $(".rb-cook-next", cook).disabled = cookAt >= cookSteps.length - 1;
}
function startTimer(button, minutes) {
  const end = Date.now() + minutes * 60_000;
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    button.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left` : "Time is up";
    if (left) setTimeout(tick, 1000);
  };
  button.disabled = true;
  button.setAttribute("aria-live", "polite");
  tick();
}
$(".rb-cook", view).addEventListener("click", async () => {
  cookSteps = stepsOf(shown.recipe.recipeInstructions);
  cookAt = 0;
  showStep();
  cook.showModal();
  try {
    wakeLock = await navigator.wakeLock?.request("screen");
  } catch {}
});
$(".rb-cook-prev", cook).addEventListener("click", () => ((cookAt = Math.max(0, cookAt - 1)), showStep()));
$(".rb-cook-next", cook).addEventListener("click", () => ((cookAt = Math.min(cookSteps.length - 1, cookAt + 1)), showStep()));
$(".rb-cook-close", cook).addEventListener("click", () => cook.close());
cook.addEventListener("close", () => {
  wakeLock?.release?.();
  wakeLock = null;
});

await refresh();
const opened = /^#recipe-(\d+)$/.exec(location.hash);
if (opened) call(`/api/recipes/${opened[1]}`).then((recipe) => show(recipe, Number(opened[1]))).catch((error) => say(error.message));

// The export link sends the book's token, which a plain download link cannot.
$(".rb-export", root).addEventListener("click", async (event) => {
  event.preventDefault();
  try {
    const book = await call("/api/recipes/export");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(book)], { type: "application/json" }));
    link.download = "recipe-book.json";
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    say(`Not exported: ${error.message}`);
  }
});

// The shopping list: one per book, live over a WebSocket on every device that has it open
// (docs/protocol.md "Recipes"); each change goes to the server, which sends the whole list
// back to every device.
const shopping = $(".rb-shopping", root);
let shoppingSocket = null;
let shoppingItems = [];
function connectShopping() {
  if (shoppingSocket && shoppingSocket.readyState <= 1) return;
  const url = new URL("/ws/recipes/shopping", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const token = localStorage.getItem(tokenKey);
  if (token) url.searchParams.set("token", token);
  const socket = new WebSocket(url);
  shoppingSocket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "list") {
      shoppingItems = message.items;
      renderShopping();
    } else if (message.type === "error") $(".rb-shopping-status", shopping).textContent = message.message;
  });
  socket.addEventListener("close", (event) => {
    if (shoppingSocket !== socket) return;
    // 1008: the owner replaced or revoked the link this page came with; trying again is no use.
    if (event.code === 1008) {
      $(".rb-shopping-status", shopping).textContent = event.reason || "this link no longer opens the book";
      return;
    }
    setTimeout(connectShopping, 2000);
  });
}
function sendShopping(message) {
  if (shoppingSocket?.readyState === 1) shoppingSocket.send(JSON.stringify(message));
}
function renderShopping() {
  shopping.hidden = shoppingItems.length === 0;
  const system = $("#rb-units", root).value === "us" ? "us" : "metric";
  const aisles = new Map();
  for (const item of shoppingItems) {
    if (!aisles.has(item.aisle)) aisles.set(item.aisle, []);
    aisles.get(item.aisle).push(item);
  }
  $(".rb-shopping-aisles", shopping).replaceChildren(
    ...[...aisles].map(([aisle, items]) => {
      const group = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = aisle;
      group.append(legend);
      for (const item of items) {
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.checked = item.checked;
        box.dataset.key = item.key;
        box.addEventListener("change", () => sendShopping({ type: "check", key: item.key, checked: box.checked }));
        label.append(box, " ", [shoppingAmount(item, system), item.name].filter(Boolean).join(" "));
        group.append(label);
      }
      return group;
    }),
  );
  $(".rb-shopping-status", shopping).textContent = `${shoppingItems.filter((i) => !i.checked).length} of ${shoppingItems.length} left`;
}
$(".rb-shop", view).addEventListener("click", () => {
  const factor = Number($("#rb-servings", view).value || baseServings) / baseServings;
  sendShopping({ type: "add", items: (shown.recipe.recipeIngredient ?? []).map((line) => shoppingItem(String(line), factor)) });
  shopping.hidden = false;
  say("Added to the shopping list.");
});
$(".rb-shopping-clear", shopping).addEventListener("click", () => sendShopping({ type: "clear" }));
$("#rb-units", root).addEventListener("change", renderShopping);
if (list.querySelector(".rb-entry")) connectShopping();

// Share links (the owner's token only): new ones replace the old, revoke ends both.
function bookLink(token) {
  return new URL(`/demos/recipes?book=${encodeURIComponent(token)}`, location.origin).href;
}
$(".rb-links", root).addEventListener("click", async () => {
  try {
    const links = await call("/api/recipes/links", { method: "POST" });
    $(".rb-read-link", root).textContent = bookLink(links.read);
    $(".rb-write-link", root).textContent = bookLink(links.write);
    $(".rb-link-list", root).hidden = false;
    say("New share links made; older ones no longer work.");
  } catch (error) {
    say(`No links: ${error.message}`);
  }
});
$(".rb-revoke", root).addEventListener("click", async () => {
  try {
    await call("/api/recipes/links", { method: "DELETE" });
    $(".rb-link-list", root).hidden = true;
    say("Share links revoked.");
  } catch (error) {
    say(`Not revoked: ${error.message}`);
  }
});
