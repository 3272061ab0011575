// Which session a page shows: `?session=ID&token=T` joins it (controller with the token,
// spectator without); a bare page resumes the last session of its kind that this browser
// created, or creates a new one, then rewrites its URL so that a reload resumes it.

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
  const response = await fetch("/api/sessions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ kind, config }),
  });
  const body = await response.json().catch(() => ({}));
  if (response.status !== 201) {
    throw new Error(body.error || `the server answered ${response.status}`);
  }
  return { id: body.id, token: body.token };
}

async function exists(id) {
  try {
    const response = await fetch(`/api/sessions/${encodeURIComponent(id)}`, { cache: "no-store" });
    // NB: read the body: a response left unread is aborted when the page changes its URL.
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The session this page should show: `{id, token}` (token null to watch). Creates one when
 * the URL names none, and puts `?session=ID&token=T` in the address bar.
 */
export async function chooseSession(kind, config = {}) {
  const query = new URLSearchParams(location.search);
  const named = query.get("session");
  if (named) {
    const token = query.get("token") || (query.has("watch") ? null : recall(tokenKey(named)));
    if (token) remember(tokenKey(named), token);
    return { id: named, token };
  }
  let session = null;
  if (!query.has("new")) {
    const last = recall(storageKey(kind));
    const token = last && recall(tokenKey(last));
    if (token && (await exists(last))) session = { id: last, token };
  }
  session ??= await createSession(kind, config);
  remember(storageKey(kind), session.id);
  remember(tokenKey(session.id), session.token);
  query.delete("new");
  query.set("session", session.id);
  query.set("token", session.token);
  history.replaceState(null, "", `${location.pathname}?${query}`);
  return session;
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
