import JSON
import Simulation
import Storage

/// A stored session read for playing back (a replay, a compare group's recording pane): its
/// row, its model at its first kept tick, its input log from there, and its last tick.
struct StoredRecording {
  let stored: StoredSession
  /// The model at tick 0, or at the earliest kept snapshot of a compacted log (`logStart`).
  let start: any Simulation
  /// The log, read a chunk at a time from just after `start`.
  let log: StoredReplayLog
  /// The last tick there is: the stored tick, or the last logged input's if later.
  let end: UInt64

  /// The same recording, its log read on store workers charged to `client`: for a playback
  /// stepped on the game loop or the step scheduler, which must never wait for the database.
  func readingOn(_ calls: StoreCalls, for client: ClientKey) -> StoredRecording {
    var log = log
    log.readOn(calls, for: client)
    return StoredRecording(stored: stored, start: start, log: log, end: end)
  }

  /// Reads session `id` (after the writer's pending rows are flushed); nil when there is no
  /// such session. Throws when it cannot be read, its start no longer loads, or its queued
  /// rows are not stored within 5 s (`UnstoredWrites`: the recording would end before inputs
  /// its clients were told of). Blocks on the database: call it off the event loops and the
  /// game loop.
  static func read(journal: StorageJournal, id: String, chunkSize: Int) throws -> StoredRecording? {
    try journal.stored(sessionID: id, timeout: 5)
    guard var stored = try journal.store.session(id: id) else { return nil }
    guard let type = Demo.model(ofKind: stored.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(stored.kind)")
    }
    let lastInput = try journal.store.lastInputTick(sessionID: id) ?? 0
    var log = StoredReplayLog(
      type: type, store: journal.store, sessionID: id, chunkSize: chunkSize,
      compacting: SessionClock(stored: stored.clock) == .onDemand)
    // A compacted log (an on-demand session's) plays from its earliest kept snapshot; a
    // compaction between the two reads moves that on, so they are read again.
    var first: Snapshot?
    for _ in 0..<3 where stored.logStart > 0 {
      first = try journal.store.snapshot(sessionID: id, atOrBefore: stored.logStart)
      guard first?.tick != stored.logStart, let again = try journal.store.session(id: id) else {
        break
      }
      stored = again
    }
    let start: any Simulation
    if stored.logStart > 0 {
      guard let first, first.tick == stored.logStart else {
        throw SessionRestorer.compacted(stored)
      }
      start = try type.init(snapshot: first.state)
      log.restart(after: start.tick)
    } else {
      start = try type.init(config: try JSONValue.parse(stored.config), seed: stored.seed)
    }
    return StoredRecording(
      stored: stored, start: start, log: log, end: UInt64(max(0, stored.tick, lastInput)))
  }
}
