import CPosix
import Dispatch
import Foundation
import HTTP
import Synchronization

/// Steps the sessions that are over their share of the tick budget on a thread of their own, one
/// at a time and at a lower priority, so that one heavy step (tens of milliseconds for 10,000
/// fast balls) never holds up a tick of everyone else.
///
/// The game loop hands it due sessions that are not in flight already (`busy`) and collects the
/// cost of each step with `takeCosts()`. A session is in one place at a time: on the tick or
/// here, never both, so two steps of one session never overlap (`LiveSession`'s lock is for
/// deletes and shutdown).
final class OffTickSteps: Sendable {
  private struct Job: Sendable {
    var session: LiveSession
    var budget: SessionBudget
  }

  private struct State: Sendable {
    var waiting: [Job] = []
    var busy: Set<String> = []
    var costs: [(String, Duration)] = []
    var stopping = false
  }

  /// Nice steps below the rest of the server.
  static let niceness: Int32 = 10

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let started = Atomic<Bool>(false)
  /// Seconds since 1970, for the sessions' idle rules.
  private let wallClock: @Sendable () -> Double

  init(wallClock: @escaping @Sendable () -> Double) {
    self.wallClock = wallClock
  }

  func start() {
    started.store(true, ordering: .relaxed)
    let thread = Thread { [self] in
      _ = cposix_nice_this_thread(Self.niceness)
      run()
      finished.signal()
    }
    thread.name = "playfield-off-tick-steps"
    thread.start()
  }

  /// Ids of the sessions waiting or being stepped here.
  var busy: Set<String> { state.withLock { $0.busy } }

  /// Queues one step of `session`; `ahead` puts it before the others waiting (a new session's
  /// first step, which should not wait for a round of heavy ones).
  func submit(_ session: LiveSession, budget: SessionBudget, ahead: Bool = false) {
    state.withLock {
      $0.busy.insert(session.id)
      $0.waiting.insert(Job(session: session, budget: budget), at: ahead ? 0 : $0.waiting.count)
    }
    wake.signal()
  }

  /// The costs of the steps finished since the last call.
  func takeCosts() -> [(String, Duration)] {
    state.withLock { state in
      defer { state.costs.removeAll() }
      return state.costs
    }
  }

  /// Stops after the step under way (the waiting ones are dropped); blocks until then.
  func stop() {
    state.withLock { $0.stopping = true }
    wake.signal()
    if started.load(ordering: .relaxed) { finished.wait() }
  }

  private func run() {
    while true {
      wake.wait()
      let (stopping, job) = state.withLock { state in
        let job = state.stopping || state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        return (state.stopping, job)
      }
      if stopping { return }
      guard let job else { continue }
      let before = ThreadCPUTime.now()
      job.session.advance(now: wallClock(), budget: job.budget)
      let cost = ThreadCPUTime.now() - before
      state.withLock {
        $0.busy.remove(job.session.id)
        $0.costs.append((job.session.id, cost))
      }
    }
  }
}
