import JSON
import Simulation
import Storage

/// A stored session's input log and snapshots for a replay, read from the store a chunk at a
/// time (`InputLogReader`), never blocking: when another read holds the database the replay
/// waits for a later game-loop tick. A playback stepped on the game loop or the scheduler reads
/// on store workers (`readingOn`), so a stalled database holds up no thread that steps models.
struct StoredReplayLog: ReplayLog {
  let type: any Simulation.Type
  let store: any SessionStore
  private var reader: InputLogReader
  /// Where reads run when not on the caller's thread.
  private var reads: LogReads?

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

  /// Whether a store worker is reading the log for it now.
  var isReading: Bool { reads?.isReading ?? false }

  /// From now on the store is read on store workers, charged to `client`.
  mutating func readOn(_ calls: StoreCalls, for client: ClientKey) {
    reads = LogReads(calls: calls, client: client)
  }

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    guard let logged = try read(Int64(tick)) else { return nil }
    return try logged.map { type.loggedInput(try JSONValue.parse($0.input)) }
  }

  /// `tick`'s logged inputs: from the chunks in hand, else read here, or nil while a store
  /// worker reads the rest of the tick. The next chunk is read ahead once half the one in hand
  /// is used, so a playback seldom waits.
  private mutating func read(_ tick: Int64) throws -> [LoggedInput]? {
    guard let reads else { return try reader.inputs(at: tick) }
    switch try reads.finished(needs: reader.wouldRead)?.get() {
    case .ahead(let read?):
      reader.take(read)
    case .tick(let read, let after, let inputs?) where read == tick:
      // NB: the playback waited at this tick while a copy of its reader read on.
      reader = after
      if reader.wantsReadAhead { reads.start(after: reader) }
      return inputs
    case .ahead(nil), .tick, nil:
      break
    }
    guard let inHand = try reader.inputs(at: tick, mayRead: false) else {
      reads.start(tick: tick, from: reader)
      return nil
    }
    if reader.wantsReadAhead { reads.start(after: reader) }
    return inHand
  }

  mutating func restart(after tick: UInt64) {
    reads?.restart()
    reader.restart(after: Int64(tick))
  }

  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? {
    let (store, id) = (store, reader.sessionID)
    let read: @Sendable () -> Snapshot? = {
      try? store.snapshot(sessionID: id, atOrBefore: Int64(tick), wait: false)
    }
    guard let snapshot = reads.map({ $0.snapshot(read) }) ?? read() else { return nil }
    return try? type.init(snapshot: snapshot.state)
  }
}
