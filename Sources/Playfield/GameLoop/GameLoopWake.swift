import Dispatch
import Synchronization

/// Wakes a game loop that sleeps because no session runs: anything that queues work for the
/// loop (a command to a session, a replay's command, a new replay) calls `signal()`.
///
/// Signals while the loop is awake cost an atomic exchange; at most one wake-up is pending,
/// and none is lost between the loop's last look and its wait.
final class GameLoopWake: Sendable {
  private let pending = Atomic<Bool>(false)
  private let semaphore = DispatchSemaphore(value: 0)

  func signal() {
    if !pending.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
  }

  /// Sleeps until `signal()` or `timeout`; true when signalled.
  func wait(timeout: DispatchTime) -> Bool {
    let signalled = semaphore.wait(timeout: timeout) == .success
    pending.store(false, ordering: .releasing)
    return signalled
  }
}
