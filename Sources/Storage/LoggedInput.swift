/// One controller input in a session's log, applied at `tick` in `seq` order.
public struct LoggedInput: Sendable, Equatable {
  /// The session it belongs to.
  public var sessionID: String
  /// The tick the model applied it at.
  public var tick: Int64
  /// Its order among the inputs of the same tick, from 0.
  public var seq: Int64
  /// The input message as JSON text.
  public var input: String

  /// Makes a logged input.
  public init(sessionID: String, tick: Int64, seq: Int64, input: String) {
    self.sessionID = sessionID
    self.tick = tick
    self.seq = seq
    self.input = input
  }
}
