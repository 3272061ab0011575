import Dispatch
import Storage
import Synchronization

/// A playback's reads of the store, done on store workers (`StoreCalls`, charged to the viewer's
/// client) rather than on the thread that steps its model (the game loop or the step
/// scheduler), so a database that stalls (PostgreSQL frozen) holds up that playback only: it
/// waits where it is, and every other session and replay goes on.
///
/// One read at a time: ahead, the chunk after the reader's (`InputLogReader.readNext`), once
/// half the chunk in hand is used; or, when the playback is stopped at a tick whose inputs go
/// past the chunks in hand, the rest of that tick, however many chunks it takes (as the reader
/// reads on its own thread). A seek (`restart`) forgets a read under way. A snapshot for a seek is waited for a few
/// milliseconds at most: past that the seek steps from where the model is, which ends in the
/// same state.
final class LogReads: Sendable {
  /// What a read found; nil where the store was busy.
  enum Found: Sendable {
    /// The chunk after the reader's, read ahead.
    case ahead(InputLogReader.ChunkRead?)
    /// A tick's inputs, and the reader that read them, to go on from.
    case tick(Int64, InputLogReader, [LoggedInput]?)
  }

  private struct State {
    /// Bumped by each restart: a read begun before it is thrown away.
    var generation = 0
    var underWay = false
    /// A read that finished and was not taken yet.
    var done: Result<Found, any Error>?
  }

  let calls: StoreCalls
  let client: ClientKey
  private let state = Mutex(State())
  /// The longest a seek waits for its snapshot.
  static let snapshotWait = DispatchTimeInterval.milliseconds(10)

  init(calls: StoreCalls, client: ClientKey) {
    self.calls = calls
    self.client = client
  }

  /// Whether a read is under way.
  var isReading: Bool { state.withLock { $0.underWay } }

  /// The read that finished since the last call, taken out: what it found. A failed read is
  /// given only when the playback `needs` the next chunk; till then it is kept (and no other
  /// read starts).
  func finished(needs: Bool) -> Result<Found, any Error>? {
    state.withLock { state in
      guard let done = state.done else { return nil }
      if case .failure = done, !needs { return nil }
      state.done = nil
      return done
    }
  }

  /// Starts reading the chunk after `reader`'s on a store worker, unless a read is under way
  /// or finished and not taken.
  func start(after reader: InputLogReader) {
    start { .ahead(try reader.readNext()) }
  }

  /// Starts reading the rest of `tick`'s inputs with a copy of `reader` on a store worker,
  /// unless a read is under way or finished and not taken.
  func start(tick: Int64, from reader: InputLogReader) {
    start {
      var copy = reader
      let inputs = try copy.inputs(at: tick)
      return .tick(tick, copy, inputs)
    }
  }

  private func start(_ read: @escaping @Sendable () throws -> Found) {
    let generation: Int? = state.withLock { state in
      guard !state.underWay, state.done == nil else { return nil }
      state.underWay = true
      return state.generation
    }
    guard let generation else { return }
    let refusal = calls.run(
      client: client,
      { [self] in
        let answer = Result { () throws(any Error) in try read() }
        state.withLock { state in
          state.underWay = false
          guard state.generation == generation else { return }
          state.done = answer
        }
      },
      expired: { [self] _ in state.withLock { $0.underWay = false } })
    if refusal != nil { state.withLock { $0.underWay = false } }
  }

  /// Forgets any read under way or finished: the playback seeks.
  func restart() {
    state.withLock { state in
      state.generation += 1
      state.done = nil
    }
  }

  /// What `read` returns on a store worker, if it answers within `snapshotWait`; else nil.
  func snapshot(_ read: @escaping @Sendable () -> Snapshot?) -> Snapshot? {
    let answer = Mutex<Snapshot??>(nil)
    let finished = DispatchSemaphore(value: 0)
    let refusal = calls.run(
      client: client,
      {
        let snapshot = read()
        answer.withLock { $0 = .some(snapshot) }
        finished.signal()
      })
    guard refusal == nil, finished.wait(timeout: .now() + Self.snapshotWait) == .success else {
      return nil
    }
    return answer.withLock { $0 } ?? nil
  }
}
