import Server
import Simulation

/// What a client (or the API) asks of a live session; applied on the game loop at the next tick.
typealias SessionCommand = SessionMachine<WebSocket>.Command

/// How a connection takes part in a session.
enum SessionRole: Sendable, Hashable {
  /// Presented the control token: may send anything.
  case controller
  /// Watches only.
  case spectator
  /// Presented the token of one of the model's seats (`SeatToken`): may send its inputs.
  case guest(Seat)

  /// The role as `hello` names it: `controller`, `spectator` or the seat's role (`drawer`).
  var name: String {
    switch self {
    case .controller: "controller"
    case .spectator: "spectator"
    case .guest(let seat): seat.role
    }
  }

  /// Who the server says sent this connection's inputs; nil for a spectator, who sends none.
  var sender: Sender? {
    switch self {
    case .controller: .controller
    case .spectator: nil
    case .guest(let seat): .guest(seat.name)
    }
  }
}

/// A session's exact state at one tick, for checks that replays and restores are bit-exact.
struct SessionState: Sendable {
  var tick: UInt64
  var stateHash: UInt64
  var running: Bool
}
