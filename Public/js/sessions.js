// The sessions page: lists every live session and keeps the list current (new sessions
// appear, ended ones are marked), with control and delete for the sessions whose token this
// browser holds.

import { el, setText } from "./lib/dom.js";
import { requestJSON } from "./lib/api.js";
import { heldToken } from "./lib/join.js";

const refreshEvery = 2000; // ms between listings
const confirmMs = 4000; // ms a delete button waits for its second click

const table = document.getElementById("sessions");
const body = table.querySelector("tbody");
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
  const links = row.querySelector(".links");
  const query = `session=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
  const control = el("a", { class: "control", href: `/demos/${kind}?${query}` }, "control");
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
  const rows = body.querySelectorAll("tr").length;
  table.hidden = rows === 0;
  empty.hidden = rows > 0;
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
  const rows = new Map(Array.from(body.querySelectorAll("tr"), (row) => [row.dataset.id, row]));
  for (const session of sessions) {
    let row = rows.get(session.id);
    if (!row) {
      row = rowFor(session);
      body.append(row);
    }
    rows.delete(session.id);
    show(row, session);
  }
  for (const row of rows.values()) {
    row.classList.add("gone");
    showStatus(row, "ended");
  }
  showEmptiness();
  if (statusLine.textContent.startsWith("The server")) setText(statusLine, "");
}

for (const row of body.querySelectorAll("tr")) addControls(row);
setInterval(refresh, refreshEvery);
