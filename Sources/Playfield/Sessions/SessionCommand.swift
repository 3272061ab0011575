import Server

/// What a client (or the API) asks of a live session; applied on the game loop at the next tick.
typealias SessionCommand = SessionMachine<WebSocket>.Command

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
