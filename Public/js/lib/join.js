// Which session a page shows: `?session=ID&token=T` (or `#token=T`) joins it (controller
// with the token, spectator without; `&watch` ignores a token this browser kept); a bare page
// resumes the last session of its kind that this browser created, or creates a new one
// (always with `?new`, and with `?config={...}`, `?seed=N` or a page's own config fields such
// as `?balls=8` for a config of your own), then rewrites its URL so that a reload resumes it.
//
// The address never keeps a token: people copy the address bar to share, and whoever opened
// a control link could clear the picture. A token that came in the address is kept in this
// browser's storage and taken out of the address at once (so out of history and of later
// Referer headers too); the address holds only `?session=ID`, which is the watch link for
// anyone else. Only where storage is refused does the token stay, in the fragment (`#token=`),
// which is never sent to a server.

import { requestJSON } from "./api.js";

const storageKey = (kind) => `playfield.session.${kind}`;
const tokenKey = (id) => `playfield.token.${id}`;

/** Stores `value` under `key`; false where storage is refused (private mode, sandboxes). */
function remember(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
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
  const fragment = new URLSearchParams(location.hash.slice(1));
  const named = query.get("session");
  if (named) {
    const given = query.get("token") || fragment.get("token");
    const token = given || (query.has("watch") ? null : heldToken(named));
    setAddress(query, token && !remember(tokenKey(named), token) ? token : null);
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
  const kept = keep(kind, session);
  query.delete("new");
  query.delete("config");
  query.delete("seed");
  for (const name of urlFields) query.delete(name);
  query.set("session", session.id);
  setAddress(query, kept ? null : session.token);
  return session;
}

/**
 * Puts `query` in the address bar without any token, replacing the current history entry
 * (so the token leaves history too); `fragmentToken`, where storage was refused, goes in the
 * fragment so that a reload still controls.
 */
function setAddress(query, fragmentToken = null) {
  query.delete("token");
  const fragment = new URLSearchParams(location.hash.slice(1));
  fragment.delete("token");
  if (fragmentToken) fragment.set("token", fragmentToken);
  const hash = fragment.toString();
  history.replaceState(history.state, "", `${location.pathname}?${query}${hash ? `#${hash}` : ""}`);
}

/** This browser's last session of `kind` that still exists and whose token it holds, or null. */
async function resumable(kind) {
  const last = recall(storageKey(kind));
  const token = last && heldToken(last);
  return token && (await exists(last)) ? { id: last, token } : null;
}

/** Remembers `session` as this browser's last of `kind`, with its token; false where storage
 * is refused. */
function keep(kind, session) {
  return remember(storageKey(kind), session.id) && remember(tokenKey(session.id), session.token);
}

/** This browser's last session of `kind`, or a new one: `{id, token}` (for pages that frame it). */
export async function lastOrNewSession(kind) {
  const session = (await resumable(kind)) ?? (await createSession(kind));
  keep(kind, session);
  return session;
}

/** The id of this browser's last session of `kind` (its page resumes it), or null. */
export function lastSessionID(kind) {
  return recall(storageKey(kind));
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
  setAddress(new URLSearchParams(location.search));
}

/** The link that lets someone else watch: the full demo page without the token. */
export function watchLink(kind, id) {
  return `${location.origin}/demos/${kind}?session=${encodeURIComponent(id)}`;
}

/**
 * A link that hands `token` to whoever opens it (the paintbrush's drawing link), in the
 * fragment: never sent to a server, so never in its logs or in a Referer header.
 */
export function tokenLink(kind, id, token) {
  return `${watchLink(kind, id)}#token=${encodeURIComponent(token)}`;
}
