// Which session a page shows: `?session=ID&token=T` joins it (controller with the token,
// spectator without; `&watch` ignores a token this browser kept); a bare page resumes the
// last session of its kind that this browser created, or creates a new one (always with
// `?new`, and with `?config={...}` for a config of your own), then rewrites its URL so that
// a reload resumes it.

import { requestJSON } from "./api.js";

const storageKey = (kind) => `playfield.session.${kind}`;
const tokenKey = (id) => `playfield.token.${id}`;

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be disabled (private mode, sandboxed frames): the URL still holds the token.
  }
}

function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Creates a session of `kind` with `config`; returns `{id, token}` or throws with the reason. */
export async function createSession(kind, config = {}) {
  const body = await requestJSON("/api/sessions", { method: "POST", body: { kind, config } });
  return { id: body.id, token: body.token };
}

async function exists(id) {
  try {
    await requestJSON(`/api/sessions/${encodeURIComponent(id)}`);
    return true;
  } catch {
    return false;
  }
}

/** `?config={...}` (JSON) on a page without a session: fields for the new session's config. */
function configFromURL(query) {
  const text = query.get("config");
  if (!text) return {};
  let config;
  try {
    config = JSON.parse(text);
  } catch {
    throw new Error("the config in the address is not JSON");
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new Error("the config in the address must be a JSON object");
  }
  return config;
}

/**
 * The session this page should show: `{id, token}` (token null to watch). Creates one when
 * the URL names none (or resumes this browser's last one unless `fresh`), and puts
 * `?session=ID&token=T` in the address bar.
 */
export async function chooseSession(kind, config = {}, fresh = false) {
  const query = new URLSearchParams(location.search);
  const named = query.get("session");
  if (named) {
    const token = query.get("token") || (query.has("watch") ? null : heldToken(named));
    if (token) remember(tokenKey(named), token);
    return { id: named, token };
  }
  let session = null;
  if (!fresh && !query.has("new") && !query.has("config")) {
    const last = recall(storageKey(kind));
    const token = last && heldToken(last);
    if (token && (await exists(last))) session = { id: last, token };
  }
  session ??= await createSession(kind, { ...config, ...configFromURL(query) });
  remember(storageKey(kind), session.id);
  remember(tokenKey(session.id), session.token);
  query.delete("new");
  query.delete("config");
  query.set("session", session.id);
  query.set("token", session.token);
  history.replaceState(null, "", `${location.pathname}?${query}`);
  return session;
}

/** The control token this browser keeps for session `id`, or null. */
export function heldToken(id) {
  return recall(tokenKey(id));
}

/** Forgets a token the server refused, here and in the address bar. */
export function forgetToken(id) {
  try {
    localStorage.removeItem(tokenKey(id));
  } catch {
    // Nothing stored.
  }
  const query = new URLSearchParams(location.search);
  query.delete("token");
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

/** The link that lets someone else watch: the full demo page without the token. */
export function watchLink(kind, id) {
  return `${location.origin}/demos/${kind}?session=${encodeURIComponent(id)}`;
}
