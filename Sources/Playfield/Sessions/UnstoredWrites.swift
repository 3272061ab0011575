import HTTP

/// A reader of a session's log (a replay, a recording, a replay state, an `/inputs` page) gave
/// up waiting for the session's queued writes: what the store holds is older than what its
/// clients were told of, so nothing is read from it (`StorageJournal.stored(sessionID:)`).
struct UnstoredWrites: Error, Sendable, CustomStringConvertible {
  let sessionID: String

  var description: String {
    "session \(sessionID)'s last inputs are not stored yet (the database is behind); try again"
  }

  /// `503` with `Retry-After: 1`.
  var refusal: APIError {
    var error = APIError(.serviceUnavailable, description)
    error.headers.set("Retry-After", "1")
    return error
  }
}
