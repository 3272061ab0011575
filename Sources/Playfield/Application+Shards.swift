import HTTP
import Server

extension Application {
  /// On a shared store, every request for a session is answered by the process that holds it:
  /// this one, after adopting it if its lease is free or ran out. A session another live
  /// process holds gets 503 with `Retry-After: 1` and `Playfield-Held-By: SHARD` (the holder's
  /// `--shard`, nothing of its host, pid or address): nginx then tries the
  /// next process of the session's shard (`proxy_next_upstream http_503`), and a direct client
  /// knows to ask again or elsewhere. A session the store could not be asked for (it is away)
  /// gets 503 with `Retry-After: 1` too, and a parked one that cannot come back now (its owner
  /// at a limit, or the server full) 429 or 503 saying which, never 404
  /// (`SessionRegistry.lookup`). Nil when the request is this process's to answer.
  func sessionNotHere(segments: [String]) -> Reply? {
    guard journal != nil, let id = Self.sessionID(in: segments), registry.mayBringBack(id) else {
      return nil
    }
    do {
      _ = try registry.lookup(id)
      return nil
    } catch {
      return error.status == .notFound ? nil : .response(error.response)
    }
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
