import Dispatch
import Foundation
import Synchronization

/// Threads of their own for renders, so that the caller can lower their priority below the
/// game loop's (`prepare` runs first on each thread; the app nices them there). Whole renders
/// go in with `async`; a render's parallel parts go through `perform`, which borrows idle pool
/// threads and does the rest itself, so a busy pool never deadlocks and two renders on a pool
/// of two threads simply run one thread each.
public final class RenderPool: Sendable {
  /// One helper of a `perform`: it runs the body only if it starts before the caller gives up
  /// on it.
  private final class Helper: Sendable {
    static let waiting = 0
    static let running = 1
    static let revoked = 2

    let state = Atomic<Int>(waiting)
    let done = DispatchSemaphore(value: 0)
  }

  private struct State {
    var jobs: [@Sendable () -> Void] = []
    var head = 0
    var stopping = false
  }

  /// How many threads the pool has.
  public let threads: Int
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)

  /// Starts `threads` threads named `name`, each of which runs `prepare` before taking work.
  public init(
    threads: Int, name: String = "playfield-render", prepare: @escaping @Sendable () -> Void = {}
  ) {
    self.threads = max(1, threads)
    for index in 0..<self.threads {
      let thread = Thread { [self] in
        // NB: named from inside: on Linux a name set before `start()` is not applied, and
        // the thread keeps its creator's.
        Thread.current.name = "\(name)-\(index)"
        prepare()
        run()
        exited.signal()
      }
      thread.start()
    }
  }

  /// Runs `job` on a pool thread, after the jobs queued before it.
  public func async(_ job: @escaping @Sendable () -> Void) {
    state.withLock { $0.jobs.append(job) }
    wake.signal()
  }

  /// Lets the threads finish the jobs queued so far and end; blocks until they have.
  public func stop() {
    state.withLock { $0.stopping = true }
    for _ in 0..<threads { wake.signal() }
    for _ in 0..<threads { exited.wait() }
  }

  /// Calls `body(0)` here and `body(1)` ... `body(count - 1)` on pool threads that are free
  /// before this thread is done with its own part; the parts nobody started are dropped, so
  /// `body` must share its work out on demand (each part takes work until none is left).
  /// Returns when every part that started has ended.
  func perform(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let helpers = (1..<max(1, count)).map { _ in Helper() }
    for (offset, helper) in helpers.enumerated() {
      async {
        guard
          helper.state.compareExchange(
            expected: Helper.waiting, desired: Helper.running, ordering: .acquiringAndReleasing
          ).exchanged
        else { return }
        body(offset + 1)
        helper.done.signal()
      }
    }
    body(0)
    for helper in helpers
    where !helper.state.compareExchange(
      expected: Helper.waiting, desired: Helper.revoked, ordering: .acquiringAndReleasing
    ).exchanged {
      helper.done.wait()
    }
  }

  private func run() {
    while true {
      wake.wait()
      let job = state.withLock { state -> (@Sendable () -> Void)? in
        guard state.head < state.jobs.count else { return nil }
        let job = state.jobs[state.head]
        state.head += 1
        if state.head >= 64 && state.head * 2 >= state.jobs.count {
          state.jobs.removeFirst(state.head)
          state.head = 0
        }
        return job
      }
      if let job {
        job()
        continue
      }
      if state.withLock({ $0.stopping }) { return }
    }
  }
}
