// The sessions page: adds control and delete links for sessions whose token this browser
// holds, and keeps ticks, watchers and status current.

const refreshEvery = 2000; // ms between listings
const table = document.getElementById("sessions");
const statusLine = document.getElementById("sessions-status");

function token(id) {
  try {
    return localStorage.getItem(`playfield.token.${id}`);
  } catch {
    return null;
  }
}

function addControls(row) {
  const { id, kind } = row.dataset;
  const held = token(id);
  if (!held) return;
  const links = row.querySelector(".links");
  const control = document.createElement("a");
  control.href = `/demos/${kind}?session=${encodeURIComponent(id)}&token=${encodeURIComponent(held)}`;
  control.textContent = "control";
  links.prepend(control, " ");
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "delete";
  remove.textContent = "delete";
  remove.addEventListener("click", () => deleteSession(row, id, held));
  links.append(" ", remove);
}

async function deleteSession(row, id, held) {
  const response = await fetch(`/api/sessions/${encodeURIComponent(id)}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${held}` },
  });
  if (response.status === 204 || response.status === 404) {
    row.remove();
    statusLine.textContent = `Deleted ${id}.`;
  } else {
    const body = await response.json().catch(() => ({}));
    statusLine.textContent = `Could not delete ${id}: ${body.error || response.status}`;
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/sessions", { cache: "no-store" });
    const { sessions } = await response.json();
    const byID = new Map(sessions.map((session) => [session.id, session]));
    for (const row of table.querySelectorAll("tbody tr")) {
      const session = byID.get(row.dataset.id);
      if (!session) {
        row.classList.add("gone");
        row.querySelector(".status").textContent = "ended";
        continue;
      }
      row.querySelector(".tick").textContent = session.tick;
      row.querySelector(".watching").textContent = session.spectators + session.controllers;
      row.querySelector(".status").textContent = session.status;
    }
    statusLine.textContent = "";
  } catch {
    statusLine.textContent = "The server is not answering; retrying.";
  }
}

if (table) {
  for (const row of table.querySelectorAll("tbody tr")) addControls(row);
  setInterval(refresh, refreshEvery);
}
