import Dispatch
import HTTP
import JSON
import Server
import Synchronization

/// Answers to `GET /api/sessions/ID/replay?tick=N`, kept so that asking again costs nothing,
/// and the places where they are worked out (each may replay thousands of ticks and holds a
/// model while it does).
///
/// The places are a `FairQueue`, as tile renders are: `running` at once (`--replay-states`),
/// at most `--replay-state-queue` waiting, each client at most `--replay-states-per-client`
/// running and waiting (its address's clients together `--families-per-address` times that),
/// addresses and then their clients in turn, so that a flood from some addresses waits behind
/// itself and a bystander's request is next when a place frees. Past a client's share, 429;
/// a full queue, or a wait past `--replay-state-wait`, 503; all with `Retry-After`. The
/// stepping itself is a `StepJob` charged to the asker's step time (`SessionAPI.replayState`).
final class ReplayStates: Sendable {
  /// A request: which session, which tick, and whether to replay from tick 0.
  struct Key: Hashable, Sendable {
    var session: String
    var tick: UInt64
    var fromStart: Bool
  }

  /// One replay state waiting for (or in) a place.
  struct Job: Sendable {
    let client: ClientKey
    /// Starts the work; it calls `end` when done, which frees the place.
    let start: @Sendable () -> Void
    /// Told instead of starting, when it waited past the deadline: seconds to come back after.
    let expired: @Sendable (_ retryAfter: Int) -> Void
  }

  typealias Refusal = FairQueue<Job>.Refusal

  private struct Answers {
    var answers: [Key: JSONValue] = [:]
    /// Keys oldest first, to drop the oldest past `capacity`.
    var order: [Key] = []
    /// Sessions deleted here, oldest first (at most `capacity`): an answer worked out for one
    /// while it was deleted is not kept.
    var deleted: [String] = []
  }

  /// Answers kept.
  let capacity: Int
  /// The places' bounds.
  let limits: FairQueue<Job>.Limits
  private let answers = Mutex(Answers())
  private let queue: Mutex<FairQueue<Job>>
  /// Monotonic seconds, for the deadline.
  private let clock: @Sendable () -> Double

  init(
    capacity: Int = 256,
    limits: FairQueue<Job>.Limits = FairQueue<Job>.Limits(
      running: 8, waiting: 64, perClient: 2, perAddress: 8, deadline: 10),
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 }
  ) {
    var limits = limits
    // NB: no cost is known before the stored session is read: every replay state is alike.
    limits.cheapRunning = 0
    self.capacity = capacity
    self.limits = limits
    self.queue = Mutex(FairQueue(limits: limits))
    self.clock = clock
  }

  /// A kept answer, if any.
  func cached(_ key: Key) -> JSONValue? {
    answers.withLock { $0.answers[key] }
  }

  /// Drops the answers kept for `session`, just deleted from the store, and keeps none worked
  /// out for it from now on: its replay states are then `404`, never an answer kept from
  /// before the delete (as they were).
  func forget(session: String) {
    answers.withLock { state in
      state.order.removeAll { $0.session == session }
      state.answers = state.answers.filter { $0.key.session != session }
      state.deleted.append(session)
      if state.deleted.count > capacity { state.deleted.removeFirst() }
    }
  }

  /// Replay states running and waiting now.
  var count: (running: Int, waiting: Int) {
    queue.withLock { ($0.runningCount, $0.waitingCount) }
  }

  /// Runs `start` for `client` in a place, now or in its turn (it must call `end` once done);
  /// the refusal, running nothing, past a bound. `expired` is told instead if it waits past
  /// the deadline.
  func admit(
    client: ClientKey, start: @escaping @Sendable () -> Void,
    expired: @escaping @Sendable (_ retryAfter: Int) -> Void
  ) -> Refusal? {
    let job = Job(client: client, start: start, expired: expired)
    switch queue.withLock({ $0.submit(job, client: client, now: clock()) }) {
    case .start(let job):
      job.start()
    case .wait:
      // NB: places held by long replays free nothing for a while: waiting ones are expired
      // by the clock too, not only when a place frees.
      DispatchQueue.global().asyncAfter(deadline: .now() + limits.deadline + 0.05) { [self] in
        let late = queue.withLock { $0.expire(now: clock()) }
        for (job, refusal) in late { job.expired(refusal.retryAfter) }
      }
    case .refuse(_, let refusal):
      return refusal
    }
    return nil
  }

  /// Frees `client`'s place, starts whoever's turn is next, and keeps `answer` (when the
  /// replay succeeded).
  func end(_ key: Key, client: ClientKey, answer: JSONValue?) {
    if let answer {
      answers.withLock { state in
        guard !state.deleted.contains(key.session),
          state.answers.updateValue(answer, forKey: key) == nil
        else { return }
        state.order.append(key)
        if state.order.count > capacity {
          state.answers[state.order.removeFirst()] = nil
        }
      }
    }
    let (next, late) = queue.withLock { $0.finish(client: client, now: clock()) }
    for (job, refusal) in late { job.expired(refusal.retryAfter) }
    for job in next { job.start() }
  }

  /// 429 for a client over its share, 503 for a full queue, with `Retry-After`.
  static func refused(_ refusal: Refusal) -> APIError {
    var error =
      refusal.tooManyFromClient
      ? APIError(
        .tooManyRequests,
        "you have too many replay states waiting or being worked out "
          + "(--replay-states-per-client); ask again when one is answered")
      : APIError(
        .serviceUnavailable,
        "too many replay states are waiting (--replay-state-queue); ask again shortly")
    error.headers.set("Retry-After", String(refusal.retryAfter))
    return error
  }

  /// 503 for a replay state that found no place within `--replay-state-wait`.
  static func expired(retryAfter: Int) -> APIError {
    var error = APIError(
      .serviceUnavailable,
      "no place for this replay state came free in time (--replay-state-wait); ask again")
    error.headers.set("Retry-After", String(retryAfter))
    return error
  }
}
