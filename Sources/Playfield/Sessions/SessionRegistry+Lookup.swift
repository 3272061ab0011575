import Server

extension SessionRegistry {
  /// Session `id`, brought back from the store if it was parked here (or, on a shared store,
  /// is free to adopt); otherwise why not, from the same attempt: 429 or 503 when it is
  /// parked and cannot come back now (`notBack`), 503 with `Retry-After: 1` when another
  /// process holds it (`Playfield-Held-By`) or the store cannot be reached, 404 when there is
  /// no such session.
  ///
  /// Every route that names a session asks this once and answers what it says. Asking "may
  /// it be brought back?" first and looking it up second answered 404 for a session parked
  /// between the two questions.
  func lookup(_ id: String) throws(APIError) -> LiveSession {
    if let session = session(id) { return session }
    // NB: one another request brought back meanwhile (`unpark` runs one at a time).
    if let session = live.withLock({ $0[id] }) { return session }
    throw absence(of: id)
  }

  /// Why session `id` is not live here after an attempt to bring it back.
  func absence(of id: String) -> APIError {
    if mayBringBack(id), let refusal = notBack.withLock({ $0[id] }) { return refusal }
    if let shard = heldElsewhere.withLock({ $0[id] }) {
      let which = shard.isEmpty ? "" : " (shard \(shard))"
      var error = APIError(
        .serviceUnavailable, "session \(id) is held by another Playfield process\(which); ask again"
      )
      error.headers.set("Retry-After", "1")
      if !shard.isEmpty { error.headers.set("Playfield-Held-By", shard) }
      return error
    }
    if unreachable.withLock({ $0.contains(id) }) {
      var error = APIError(
        .serviceUnavailable,
        "session \(id) cannot be brought back now: the database cannot be reached; ask again")
      error.headers.set("Retry-After", "1")
      return error
    }
    return APIError(.notFound, "no session \(id)")
  }
}
