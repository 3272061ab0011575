import JSON
import Server

/// What a client (or the API) asks of a session; applied on the game loop at the next tick.
enum SessionCommand: Sendable {
  /// A connection joins, as controller or spectator, and gets `hello`.
  case join(WebSocket, SessionRole)
  case leave(WebSocket)
  case start
  case stop
  /// Advance this many ticks while stopped.
  case step(Int)
  /// A model input, already validated, applied at the next step.
  case input(JSONValue)
  /// Reads the exact state after this tick's work.
  case inspect(@Sendable (SessionState) -> Void)

  /// Joins and leaves are never refused, however full the inbox.
  var isMembership: Bool {
    switch self {
    case .join, .leave: true
    default: false
    }
  }
}

/// How a connection takes part in a session.
enum SessionRole: String, Sendable {
  /// Presented the control token: may send input.
  case controller
  /// Watches only.
  case spectator
  /// Presented a session's drawing token (`DrawToken`): may send the model's guest inputs.
  case drawer
}

/// A session's exact state at one tick, for checks that replays and restores are bit-exact.
struct SessionState: Sendable {
  var tick: UInt64
  var stateHash: UInt64
  var running: Bool
}
