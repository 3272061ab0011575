import JSON
import Simulation

/// Where sessions are made durable. The game loop reports to it and never waits on it.
protocol SessionJournal: Sendable {
  /// A new session, before its first tick, advanced by `clock`.
  func created(
    sessionID: String, kind: String, config: JSONValue, seed: UInt64, token: String, now: Double,
    clock: SessionClock
  ) throws
  /// Inputs applied in the step that produced `tick`, in order (each logged as its
  /// `loggedText`).
  func inputs(sessionID: String, tick: UInt64, inputs: [CheckedInput])
  /// The session's tick and whether it runs.
  func progress(sessionID: String, running: Bool, tick: UInt64, now: Double)
  /// The exact model state at `tick`.
  func snapshot(sessionID: String, tick: UInt64, state: [UInt8])
  /// The session is gone for good.
  func deleted(sessionID: String)
  /// Stores that the session's seat links were replaced; returns the new generation, or nil
  /// when the journal does not keep them.
  func renewSeatLinks(sessionID: String) throws -> Int64?
  /// Whether the session may be stepped now (checked before each step applies anything): false
  /// once this process can no longer be sure it alone holds the session.
  func mayApply(sessionID: String) -> Bool
  /// Whether a client's input may be taken now (false while the writes waiting for the
  /// database are at their bound): an input taken is acknowledged, and must reach the log.
  func admitsInput() -> Bool
}

extension SessionJournal {
  /// Keeps no seat links (the session counts them in memory).
  func renewSeatLinks(sessionID: String) throws -> Int64? { nil }
  /// Always: the journal's store is this process's alone.
  func mayApply(sessionID: String) -> Bool { true }
  /// Always: the journal keeps what it is given.
  func admitsInput() -> Bool { true }
}
