import CPosix
import Dispatch
import Foundation
import HTTP
import Synchronization

/// Where on-demand sessions (`SessionClock.onDemand`) do their work: the one seam between a
/// controller's `step` and the CPU that runs it.
///
/// Each session has at most one job waiting here (it drains everything its clients sent when
/// it runs), so sessions take turns in the order they asked. Jobs run one at a time on a
/// thread niced like `OffTickSteps`, below the game loop's realtime ticks. A `.manual` game
/// loop (tests) runs each job at once on the caller's thread.
///
/// NB: the one place to change when on-demand work moves to the game loop's CPU scheduler
/// (charged per client, bounded slices): `submit` hands a job over with the session it is for;
/// `statistics` is all it measures today (for `/healthz`), nothing throttles on it yet.
final class OnDemandSteps: Sendable {
  private struct State: Sendable {
    var waiting: [(id: String, work: @Sendable (Double) -> Void)] = []
    var cpu: Duration = .zero
    var jobs = 0
    var running = false
    var stopping = false
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let threaded: Bool
  /// Seconds since 1970, handed to each job (it dates listings and idleness; steps never read it).
  private let wallClock: @Sendable () -> Double

  /// `threaded`: run jobs on a thread of their own (started on the first job); else at once.
  init(threaded: Bool, wallClock: @escaping @Sendable () -> Double) {
    self.threaded = threaded
    self.wallClock = wallClock
  }

  /// Runs `work` for session `id` soon (or now, unthreaded), with the wall clock's time.
  func submit(_ id: String, _ work: @escaping @Sendable (Double) -> Void) {
    guard threaded else {
      measure(work)
      return
    }
    let starting = state.withLock { state -> Bool in
      guard !state.stopping else { return false }
      state.waiting.append((id, work))
      defer { state.running = true }
      return !state.running
    }
    if starting { startThread() }
    wake.signal()
  }

  /// The CPU time used by the jobs run so far, and how many there were.
  var statistics: (cpu: Duration, jobs: Int) { state.withLock { ($0.cpu, $0.jobs) } }

  /// Stops after the job under way (the waiting ones are dropped); blocks until then.
  func stop() {
    let running = state.withLock { state -> Bool in
      state.stopping = true
      return state.running
    }
    guard running else { return }
    wake.signal()
    finished.wait()
  }

  private func startThread() {
    let thread = Thread { [self] in
      _ = cposix_nice_this_thread(OffTickSteps.niceness)
      run()
      finished.signal()
    }
    thread.name = "playfield-on-demand-steps"
    thread.start()
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
      measure(job.work)
    }
  }

  private func measure(_ work: @Sendable (Double) -> Void) {
    let before = ThreadCPUTime.now()
    work(wallClock())
    let cost = ThreadCPUTime.now() - before
    state.withLock {
      $0.cpu += cost
      $0.jobs += 1
    }
  }
}
