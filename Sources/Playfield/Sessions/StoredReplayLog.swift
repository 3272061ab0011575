import JSON
import Simulation
import Storage

/// A stored session's input log and snapshots for a replay, read from SQLite a chunk at a time
/// (`InputLogReader`), never blocking: when another read holds the database the replay waits
/// for a later game-loop tick.
struct StoredReplayLog: ReplayLog {
  let type: any Simulation.Type
  let store: any SessionStore
  private var reader: InputLogReader

  /// The log of session `sessionID` of model `type`, read `chunkSize` inputs at a time; one
  /// that may be compacted as it is read (`compacting`, an on-demand session's) fails the
  /// replay rather than play on without inputs that are gone.
  init(
    type: any Simulation.Type, store: any SessionStore, sessionID: String, chunkSize: Int,
    compacting: Bool = false
  ) {
    self.type = type
    self.store = store
    self.reader = InputLogReader(
      store: store, sessionID: sessionID, chunkSize: chunkSize, wait: false,
      compacting: compacting)
  }

  /// The inputs read and held at most at once.
  var mostHeld: Int { reader.mostHeld }

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    guard let logged = try reader.inputs(at: Int64(tick)) else { return nil }
    return try logged.map { type.loggedInput(try JSONValue.parse($0.input)) }
  }

  mutating func restart(after tick: UInt64) {
    reader.restart(after: Int64(tick))
  }

  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? {
    guard
      let snapshot = try? store.snapshot(
        sessionID: reader.sessionID, atOrBefore: Int64(tick), wait: false)
    else { return nil }
    return try? type.init(snapshot: snapshot.state)
  }
}
