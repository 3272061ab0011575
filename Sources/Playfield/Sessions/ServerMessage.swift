import JSON
import Simulation

/// Every message the server sends on a session or replay socket (docs/protocol.md), typed until
/// it is encoded, once, straight to bytes.
enum ServerMessage: Sendable {
  /// The first message: who you are and the whole state to draw.
  case hello(Hello)
  /// The model's state after a tick.
  case frame(any Simulation)
  /// The frame after an on-demand `step`, to the client that asked, with the request's id.
  case stepped(any Simulation, id: JSONValue?)
  /// Something that happened in the step that made `tick`.
  case event(SimulationEvent, tick: UInt64)
  /// How many events of one tick were left out.
  case dropped(count: Int, tick: UInt64)
  /// A live session's status.
  case status(LiveStatus)
  /// A replay's status.
  case replayStatus(ReplayStatus)
  /// A client message that was refused, and why.
  case error(ClientError)
  /// The answer to `ping`.
  case pong(id: JSONValue?, t: JSONValue?)
  /// A command that carried an `id` was checked and queued for the session.
  case ack(id: JSONValue)
  /// The `stored` watermark: the first `inputs` of the connection's inputs are in the log (or
  /// were refused at their step, never to be logged), which is stored through `tick` when
  /// known; with the `id` of the `flush` it answers.
  case stored(inputs: Int, tick: UInt64?, id: JSONValue?)
  /// The server cannot store inputs now, for `why`: the connection's inputs past its first
  /// `inputs` (its watermark) may be lost; with the `id` of the `flush` it answers.
  case unstored(inputs: Int, why: String, id: JSONValue?)
  /// The answer to a query (`Simulation.queries`): `body` is one JSON value, sent as the
  /// field named after the query, with the query's `id`.
  case answer(query: String, body: [UInt8], id: JSONValue?)

  /// The `hello` message of a live session or a replay.
  struct Hello: Sendable {
    var session: String
    var role: SessionRole
    var running: Bool
    /// The last tick of a replay; nil for a live session.
    var replayEnd: UInt64?
    var model: any Simulation
    /// The tokens of the model's seats by seat name (`SeatToken`), told only to controllers.
    var seatTokens: [(seat: String, token: String)] = []
  }

  /// The `status` message of a live session.
  struct LiveStatus: Sendable, Equatable {
    var tick: UInt64
    var running: Bool
    var spectators: Int
    var controllers: Int
    /// Inputs waiting for the next step.
    var queued: Int
    /// How the per-tick CPU budget treats the session.
    var budget = SessionBudget()
  }

  /// The `status` message of a replay.
  struct ReplayStatus: Sendable, Equatable {
    var tick: UInt64
    var end: UInt64
    var playing: Bool
    var speed: Double
    var seeking: Bool
  }
}
