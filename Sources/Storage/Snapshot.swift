/// A model's serialized state after `tick`: a shortcut for resuming, except that a compacted
/// log (an on-demand session's, `StoredSession.logStart`) starts at its oldest kept snapshot.
public struct Snapshot: Sendable, Equatable {
  /// The session it belongs to.
  public var sessionID: String
  /// The tick the state was taken after.
  public var tick: Int64
  /// The serialized model state, in the simulation's own format.
  public var state: [UInt8]

  /// Makes a snapshot.
  public init(sessionID: String, tick: Int64, state: [UInt8]) {
    self.sessionID = sessionID
    self.tick = tick
    self.state = state
  }
}
