// JSON over HTTP for the pages: one call that sends and reads JSON and turns the server's
// error bodies (`{"error", "status", "field"}`, docs/protocol.md section 1) into exceptions.

/** A request the server refused: `message` is the server's text, `field` the input to blame. */
export class APIError extends Error {
  constructor(message, status, field = null) {
    super(message);
    this.name = "APIError";
    this.status = status; // HTTP status, or 0 when the server could not be reached
    this.field = field;
  }
}

/**
 * Sends `method` to `path` with `body` (as JSON, when given) and returns the parsed answer
 * (null for 204). Throws an `APIError` for any status outside 200 to 299.
 */
export async function requestJSON(path, { method = "GET", body, headers = {} } = {}) {
  const init = { method, headers: { ...headers }, cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new APIError("the server cannot be reached", 0);
  }
  // NB: read the body even when it is not wanted: an unread response is aborted (and logged
  // as a failed request) when the page changes its URL.
  const text = await response.text();
  let answer = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    answer = null;
  }
  if (!response.ok) {
    const message = answer?.error || `the server answered ${response.status}`;
    throw new APIError(message, response.status, answer?.field ?? null);
  }
  return answer;
}
