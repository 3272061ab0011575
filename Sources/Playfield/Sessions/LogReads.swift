import Dispatch
import Storage
import Synchronization

/// A playback's reads of the store, done on store workers (`StoreCalls`, charged to the viewer's
/// client) rather than on the thread that steps its model (the game loop or the step
/// scheduler), so a database that stalls (PostgreSQL frozen) holds up that playback only: it
/// waits where it is, and every other session and replay goes on.
///
/// The next chunk of the log is read ahead while the playback waits for it, one read at a
/// time; a seek (`restart`) forgets a read under way. A snapshot for a seek is waited for a few
/// milliseconds at most: past that the seek steps from where the model is, which ends in the
/// same state.
final class LogReads: Sendable {
  /// A read that finished: the reader after it, and what it answered for `tick`.
  struct Done: Sendable {
    let generation: Int
    let tick: Int64
    let reader: InputLogReader
    let answer: Result<[LoggedInput]?, any Error>
  }

  private struct State {
    /// Bumped by each restart: a read begun before it is thrown away.
    var generation = 0
    var underWay = false
    var done: Done?
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

  /// `tick`'s inputs as `reader` reads them on a store worker: the answer of a read that has
  /// finished (with the reader to carry on from), or nil while one is under way (a new one is
  /// started when none is, or when the store refused the last).
  func inputs(at tick: Int64, from reader: InputLogReader) -> Done? {
    let (finished, start, generation) = state.withLock { state -> (Done?, Bool, Int) in
      if let done = state.done, done.generation == state.generation, done.tick == tick {
        state.done = nil
        return (done, false, state.generation)
      }
      state.done = nil
      guard !state.underWay else { return (nil, false, state.generation) }
      state.underWay = true
      return (nil, true, state.generation)
    }
    if let finished { return finished }
    guard start else { return nil }
    let refusal = calls.run(
      client: client,
      { [self] in
        var copy = reader
        let answer = Result { () throws(any Error) -> [LoggedInput]? in try copy.inputs(at: tick) }
        state.withLock { state in
          state.underWay = false
          guard state.generation == generation else { return }
          state.done = Done(generation: generation, tick: tick, reader: copy, answer: answer)
        }
      },
      expired: { [self] _ in state.withLock { $0.underWay = false } })
    if refusal != nil { state.withLock { $0.underWay = false } }
    return nil
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
