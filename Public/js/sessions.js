// The sessions page: lists every live session and keeps the list current (new sessions
// appear, ended ones are marked), with control and delete for the sessions whose token this
// browser holds. Rows come in three groups, newest first in each: this browser's sessions,
// the ones somebody watches, and the idle ones (nobody watching), folded away by default.

import { el, setText } from "./lib/dom.js";
import { requestJSON } from "./lib/api.js";
import { heldToken } from "./lib/join.js";

const refreshEvery = 2000; // ms between listings
const confirmMs = 4000; // ms a delete button waits for its second click

const table = document.getElementById("sessions");
const body = table.querySelector("tbody");

/** The groups, in page order: who they hold and their heading. */
const groups = [
  { name: "mine", heading: (n) => `Yours (${n})` },
  { name: "active", heading: (n) => `Watched now (${n})` },
  { name: "idle", heading: (n) => `Idle: nobody watching (${n})`, folds: true },
];
/** Each group's `<tbody>`, headed by a row that names it (the idle one can unfold). */
const sections = new Map();
let idleOpen = false;
const empty = document.getElementById("sessions-empty");
const statusLine = document.getElementById("sessions-status");

/** `42 s`, `5 min`, `3 h` or `2 d`, as the server writes ages. */
function age(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

const cell = (name, label, ...children) =>
  el("td", { class: name, dataset: { label } }, ...children);

/** A row like the server's, for a session that started after the page loaded. */
function rowFor(session) {
  const { id, kind, title } = session;
  const watch = `/demos/${kind}?session=${encodeURIComponent(id)}&watch`;
  const row = el(
    "tr",
    { dataset: { id, kind } },
    cell(
      "demo",
      "Demo",
      el("a", { class: "title", href: watch }, title ?? kind),
      " ",
      el("code", { class: "id" }, id),
    ),
    cell("age", "Age"),
    cell("tick", "Tick"),
    cell("watching", "Watching"),
    cell("state", "Status", el("span", { class: "badge" })),
    cell(
      "links",
      "Links",
      el("a", { href: watch }, "watch"),
      " ",
      el("a", { href: `/sessions/${encodeURIComponent(id)}/replay` }, "replay"),
      " ",
      el("a", { href: `/embed/${kind}?session=${encodeURIComponent(id)}&watch` }, "embed"),
    ),
  );
  addControls(row);
  return row;
}

/** Control and delete links for a session whose token this browser holds. */
function addControls(row) {
  const { id, kind } = row.dataset;
  const token = heldToken(id);
  if (!token) return;
  row.classList.add("mine");
  row.querySelector(".demo").append(" ", el("span", { class: "mine-badge" }, "you control this"));
  const links = row.querySelector(".links");
  // NB: no token in the link: this browser holds it, and a copied link only watches.
  const control = el(
    "a",
    { class: "control", href: `/demos/${kind}?session=${encodeURIComponent(id)}` },
    "control",
  );
  const remove = el("button", { type: "button", class: "delete" }, "delete");
  // A first click asks again; the second, within a few seconds, deletes.
  remove.addEventListener("click", () => {
    if (remove.dataset.armed) {
      deleteSession(row, id, token);
      return;
    }
    remove.dataset.armed = "true";
    setText(remove, "delete: sure?");
    setTimeout(() => {
      delete remove.dataset.armed;
      setText(remove, "delete");
    }, confirmMs);
  });
  links.prepend(control, " ");
  links.append(" ", remove);
}

function show(row, session) {
  row.dataset.created = session.createdAt;
  row.dataset.watching = session.spectators + session.controllers;
  setText(row.querySelector(".age"), age(session.ageSeconds));
  setText(row.querySelector(".tick"), session.tick);
  setText(row.querySelector(".watching"), session.spectators + session.controllers);
  showStatus(row, session.status);
}

function showStatus(row, status) {
  const badge = row.querySelector(".state .badge");
  setText(badge, status);
  badge.dataset.status = status;
}

function showEmptiness() {
  const rows = table.querySelectorAll("tr[data-id]").length;
  table.hidden = rows === 0;
  empty.hidden = rows > 0;
}

/** Makes the group sections, in place of the server's single body. */
function buildSections() {
  for (const group of groups) {
    const heading = group.folds
      ? el(
          "button",
          { type: "button", class: "fold", "aria-expanded": "false", onclick: toggleIdle },
          "",
        )
      : el("span", {});
    const head = el(
      "tr",
      { class: "group-head" },
      el("th", { scope: "rowgroup", colspan: "6" }, heading),
    );
    const section = el("tbody", { class: `group group-${group.name}` }, head);
    sections.set(group.name, { group, section, heading });
    table.append(section);
  }
  const rows = Array.from(body.querySelectorAll("tr"));
  body.remove();
  for (const row of rows) sections.get("active").section.append(row);
}

function toggleIdle() {
  idleOpen = !idleOpen;
  arrange();
}

/** The group a row belongs in. */
function groupOf(row) {
  if (row.classList.contains("mine")) return "mine";
  if (row.classList.contains("gone")) return "active";
  return Number(row.dataset.watching ?? 1) > 0 ? "active" : "idle";
}

/** Puts every row in its group, newest first, and updates the headings. */
function arrange() {
  const rows = Array.from(table.querySelectorAll("tr[data-id]"));
  const byGroup = new Map(groups.map((group) => [group.name, []]));
  for (const row of rows) byGroup.get(groupOf(row)).push(row);
  for (const [name, members] of byGroup) {
    const { group, section, heading } = sections.get(name);
    members.sort((a, b) => Number(b.dataset.created ?? 0) - Number(a.dataset.created ?? 0));
    // NB: appending a row that is already in place moves nothing, so the order is stable.
    for (const row of members) {
      if (row.parentElement !== section || row !== section.lastElementChild) section.append(row);
      row.hidden = Boolean(group.folds) && !idleOpen;
    }
    section.hidden = members.length === 0;
    const text = group.heading(members.length);
    setText(heading, group.folds ? `${idleOpen ? "Hide" : "Show"} ${text.toLowerCase()}` : text);
    if (group.folds) heading.setAttribute("aria-expanded", String(idleOpen));
  }
}

async function deleteSession(row, id, token) {
  try {
    await requestJSON(`/api/sessions/${encodeURIComponent(id)}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch (error) {
    if (error.status !== 404) {
      setText(statusLine, `Could not delete ${id}: ${error.message}`);
      return;
    }
  }
  row.remove();
  arrange();
  showEmptiness();
  setText(statusLine, `Deleted ${id}.`);
}

async function refresh() {
  let sessions;
  try {
    ({ sessions } = await requestJSON("/api/sessions"));
  } catch {
    setText(statusLine, "The server is not answering; retrying.");
    return;
  }
  const rows = new Map(
    Array.from(table.querySelectorAll("tr[data-id]"), (row) => [row.dataset.id, row]),
  );
  for (const session of sessions) {
    let row = rows.get(session.id);
    if (!row) {
      row = rowFor(session);
      sections.get("active").section.append(row);
    }
    rows.delete(session.id);
    show(row, session);
  }
  for (const row of rows.values()) {
    row.classList.add("gone");
    showStatus(row, "ended");
  }
  arrange();
  showEmptiness();
  if (statusLine.textContent.startsWith("The server")) setText(statusLine, "");
}

for (const row of body.querySelectorAll("tr")) addControls(row);
buildSections();
arrange();
refresh();
setInterval(refresh, refreshEvery);
