import HTTP
import Server

extension Application {
  /// On a shared store, every request for a session is answered by the process that holds it:
  /// this one, after adopting it if its lease is free or ran out. A session another live
  /// process holds gets 503 with `Retry-After: 1` and `Playfield-Held-By: SHARD` (the holder's
  /// `--shard`, nothing of its host, pid or address): nginx then tries the
  /// next process of the session's shard (`proxy_next_upstream http_503`), and a direct client
  /// knows to ask again or elsewhere. A session the store could not be asked for (it is away)
  /// gets 503 with `Retry-After: 1` too, not 404. Nil when the request is this process's to
  /// answer.
  func sessionHeldElsewhere(segments: [String]) -> Reply? {
    if let refusal = parkedNotBack(segments: segments) { return refusal }
    guard (journal?.leases) != nil, let id = Self.sessionID(in: segments),
      registry.session(id) == nil
    else { return nil }
    if let shard = registry.heldElsewhere.withLock({ $0[id] }) {
      let which = shard.isEmpty ? "" : " (shard \(shard))"
      var error = APIError(
        .serviceUnavailable, "session \(id) is held by another Playfield process\(which); ask again"
      )
      error.headers.set("Retry-After", "1")
      if !shard.isEmpty { error.headers.set("Playfield-Held-By", shard) }
      return .response(error.response)
    }
    // NB: a session the store could not be asked for is not "no session" (404).
    guard registry.unreachable.withLock({ $0.contains(id) }) else { return nil }
    var error = APIError(
      .serviceUnavailable,
      "session \(id) cannot be brought back now: the database cannot be reached; ask again")
    error.headers.set("Retry-After", "1")
    return .response(error.response)
  }

  /// A parked session asked for that cannot come back now (its owner at a limit, or the server
  /// full): 429 or 503 saying which, not 404. Nil when it came back or was not parked.
  private func parkedNotBack(segments: [String]) -> Reply? {
    guard let id = Self.sessionID(in: segments), registry.mayBringBack(id),
      registry.session(id) == nil, let refusal = registry.notBack.withLock({ $0[id] })
    else { return nil }
    return .response(refusal.response)
  }

  /// The session id a path names: `/api/sessions/ID…`, `/ws/sessions/ID`, `/ws/replays/ID`,
  /// `/sessions/ID/replay`.
  static func sessionID(in segments: [String]) -> String? {
    switch segments.count {
    case 3... where segments[0] == "api" && segments[1] == "sessions": segments[2]
    case 3 where segments[0] == "ws" && (segments[1] == "sessions" || segments[1] == "replays"):
      segments[2]
    case 3 where segments[0] == "sessions" && segments[2] == "replay": segments[1]
    default: nil
    }
  }
}
