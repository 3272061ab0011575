import HTTP
import Server

extension Application {
  /// On a shared store, a request for a session that another live process holds is answered
  /// 503 with `Retry-After: 1` and `Playfield-Held-By` instead of 404: nginx then tries the next
  /// process of the session's shard (`proxy_next_upstream http_503`), and a direct client
  /// knows to ask again or elsewhere. Any other reply passes unchanged.
  func sessionHeldElsewhere(_ reply: Reply, segments: [String]) -> Reply {
    guard case .response(let response) = reply, response.status == .notFound,
      let id = Self.sessionID(in: segments),
      let holder = registry.heldElsewhere.withLock({ $0[id] })
    else { return reply }
    var error = APIError(
      .serviceUnavailable, "session \(id) is held by another Playfield process; ask again")
    error.headers.set("Retry-After", "1")
    error.headers.set("Playfield-Held-By", holder)
    return .response(error.response)
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
