import JSON
import Synchronization

/// Answers to `GET /api/sessions/ID/replay?tick=N`, kept so that asking again costs nothing,
/// and a bound on how many are worked out at once (each may replay thousands of ticks).
final class ReplayStates: Sendable {
  /// A request: which session, which tick, and whether to replay from tick 0.
  struct Key: Hashable, Sendable {
    var session: String
    var tick: UInt64
    var fromStart: Bool
  }

  private struct State {
    var answers: [Key: JSONValue] = [:]
    /// Keys oldest first, to drop the oldest past `capacity`.
    var order: [Key] = []
    var running = 0
  }

  /// Answers kept.
  let capacity: Int
  /// Replays worked out at once; more get 503.
  let concurrency: Int
  private let state = Mutex(State())

  init(capacity: Int = 256, concurrency: Int = 2) {
    self.capacity = capacity
    self.concurrency = concurrency
  }

  /// A kept answer, if any.
  func cached(_ key: Key) -> JSONValue? {
    state.withLock { $0.answers[key] }
  }

  /// Takes a slot to work one out; false when `concurrency` are running.
  func begin() -> Bool {
    state.withLock { state in
      guard state.running < concurrency else { return false }
      state.running += 1
      return true
    }
  }

  /// Frees the slot and keeps `answer` (when the replay succeeded).
  func end(_ key: Key, answer: JSONValue?) {
    state.withLock { state in
      state.running -= 1
      guard let answer, state.answers.updateValue(answer, forKey: key) == nil else { return }
      state.order.append(key)
      if state.order.count > capacity {
        state.answers[state.order.removeFirst()] = nil
      }
    }
  }
}
