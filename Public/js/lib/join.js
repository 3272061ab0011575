// Which session a page shows: `?session=ID&token=T` joins it (controller with the token,
// spectator without; `&watch` ignores a token this browser kept); a bare page resumes the
// last session of its kind that this browser created, or creates a new one (always with
// `?new`, and with `?config={...}`, `?seed=N` or a page's own config fields such as `?balls=8`
// for a config of your own), then rewrites its URL so that a reload resumes it.

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

/**
 * Creates a session of `kind` with `config` (and `seed`, when not null); returns `{id, token}`
 * or throws with the reason.
 */
export async function createSession(kind, config = {}, seed = null) {
  const request = seed === null ? { kind, config } : { kind, config, seed };
  const body = await requestJSON("/api/sessions", { method: "POST", body: request });
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
 * The config fields among `names` that the address sets, e.g. `?balls=8&boundary=periodic`:
 * numbers and true/false as JSON, anything else as text (the server checks every value).
 */
function fieldsFromURL(query, names) {
  const fields = {};
  for (const name of names) {
    const text = query.get(name);
    if (text === null) continue;
    if (/^-?\d+(\.\d+)?(e-?\d+)?$/.test(text)) fields[name] = Number(text);
    else if (text === "true" || text === "false") fields[name] = text === "true";
    else fields[name] = text;
  }
  return fields;
}

/** `?seed=N`: a whole number for a new session's random generator, or null. */
function seedFromURL(query) {
  const text = query.get("seed");
  if (text === null) return null;
  if (!/^\d{1,16}$/.test(text) || Number(text) > Number.MAX_SAFE_INTEGER) {
    throw new Error(`seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  }
  return Number(text);
}

/**
 * The session this page should show: `{id, token}` (token null to watch). Creates one when
 * the URL names none (or resumes this browser's last one unless `fresh`), and puts
 * `?session=ID&token=T` in the address bar.
 */
export async function chooseSession(kind, config = {}, fresh = false, urlFields = []) {
  const query = new URLSearchParams(location.search);
  const named = query.get("session");
  if (named) {
    const token = query.get("token") || (query.has("watch") ? null : heldToken(named));
    if (token) remember(tokenKey(named), token);
    return { id: named, token };
  }
  let session = null;
  const fields = fieldsFromURL(query, urlFields);
  const seed = seedFromURL(query);
  const own = Object.keys(fields).length > 0 || seed !== null;
  if (!fresh && !own && !query.has("new") && !query.has("config")) {
    session = await resumable(kind);
  }
  session ??= await createSession(kind, { ...config, ...configFromURL(query), ...fields }, seed);
  keep(kind, session);
  query.delete("new");
  query.delete("config");
  query.delete("seed");
  for (const name of urlFields) query.delete(name);
  query.set("session", session.id);
  query.set("token", session.token);
  history.replaceState(null, "", `${location.pathname}?${query}`);
  return session;
}

/** This browser's last session of `kind` that still exists and whose token it holds, or null. */
async function resumable(kind) {
  const last = recall(storageKey(kind));
  const token = last && heldToken(last);
  return token && (await exists(last)) ? { id: last, token } : null;
}

/** Remembers `session` as this browser's last of `kind`, with its token. */
function keep(kind, session) {
  remember(storageKey(kind), session.id);
  remember(tokenKey(session.id), session.token);
}

/** This browser's last session of `kind`, or a new one: `{id, token}` (for pages that frame it). */
export async function lastOrNewSession(kind) {
  const session = (await resumable(kind)) ?? (await createSession(kind));
  keep(kind, session);
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
