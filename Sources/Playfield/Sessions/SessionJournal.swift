import JSON
import Simulation
import Storage

/// Where sessions are made durable. The game loop reports to it and never waits on it.
protocol SessionJournal: Sendable {
  /// A new session, before its first tick, advanced by `clock`, made by `owner` (a
  /// `ClientKey`'s description), whose stored places it takes, and held to `claim` (when
  /// known): on a store several processes share, refused with `StoreError.clientQuota` when
  /// the client's sessions in all of them would pass its quota.
  func created(
    sessionID: String, kind: String, config: JSONValue, seed: UInt64, token: String, now: Double,
    clock: SessionClock, owner: String?, claim: ClientClaim?
  ) throws
  /// Inputs applied in the step that produced `tick`, in order (each logged as its
  /// `loggedText`). A store may pack a session's ticks into one row (`LoggedInput.packed`):
  /// they read back as the same inputs, by tick and seq.
  func inputs(sessionID: String, tick: UInt64, inputs: [CheckedInput])
  /// The session's tick and whether it runs.
  func progress(sessionID: String, running: Bool, tick: UInt64, now: Double)
  /// The exact model state at `tick`.
  func snapshot(sessionID: String, tick: UInt64, state: [UInt8])
  /// The session is gone for good, already deleted from the store (`deleteStored`): what is
  /// queued or held of it here is forgotten. NB: never a delete that may fail unseen (a
  /// session forgotten here but still stored came back at the next restart).
  func deleted(sessionID: String)
  /// Deletes the session from the store now, before a client is told it is deleted; throws,
  /// changing nothing, when the store refuses (a delete answered but never stored would bring
  /// the session back at the next restart, or to another process of a shared store).
  func deleteStored(sessionID: String) throws
  /// Stores that the session's seat links were replaced; returns the new generation, or nil
  /// when the journal does not keep them.
  func renewSeatLinks(sessionID: String) throws -> Int64?
  /// Whether the session may be stepped now (checked before each step applies anything): false
  /// once this process can no longer be sure it alone holds the session.
  func mayApply(sessionID: String) -> Bool
  /// Why a client's input may not be taken now: the database cannot be written and the
  /// writes waiting for it are at their bound (an input taken is acknowledged, and must reach
  /// the log); nil while it may (a writer merely behind takes it).
  func storageRefusal() -> String?
  /// Whether `payer`, stepping `sessions`, may add to the writes waiting for the database now
  /// (true: `go` is never called); if not (back-pressure), `go` is called once a flush has
  /// made room, with nil, or with why not when the database cannot be written.
  func whenWritable(
    payer: String, sessions: [String], _ go: @escaping @Sendable (String?) -> Void
  ) -> Bool
}

extension SessionJournal {
  /// Nothing to delete: the journal keeps nothing.
  func deleteStored(sessionID: String) throws {}
  /// Keeps no seat links (the session counts them in memory).
  func renewSeatLinks(sessionID: String) throws -> Int64? { nil }
  /// Always: the journal's store is this process's alone.
  func mayApply(sessionID: String) -> Bool { true }
  /// Never: the journal keeps what it is given.
  func storageRefusal() -> String? { nil }
  /// At once: the journal keeps what it is given.
  func whenWritable(
    payer: String, sessions: [String], _ go: @escaping @Sendable (String?) -> Void
  ) -> Bool { true }
}
