/// Decides when the writer flushes: every interval while writes succeed, with exponential
/// backoff after failures. Pure: the caller passes the time (seconds on any steady clock).
struct FlushSchedule: Equatable {
  /// What the flush thread does next.
  enum Action: Equatable {
    /// Write the pending batch now.
    case flush
    /// Sleep up to this many seconds (or until woken).
    case wait(Double)
    /// Leave the loop.
    case exit
  }

  /// The interval between flushes while all goes well, and the waits after failures.
  let backoff: Backoff
  /// Failed flushes in a row.
  private(set) var failures = 0
  /// When the next flush is due.
  private(set) var nextFlush: Double

  init(interval: Double, maxBackoff: Double, now: Double) {
    self.backoff = Backoff(base: interval, maximum: maxBackoff)
    self.nextFlush = now + interval
  }

  /// Seconds between flushes while all goes well.
  var interval: Double { backoff.base }

  /// The wait before the next attempt after `failures` failures in a row: 2^n intervals, capped.
  func delay(afterFailures failures: Int) -> Double {
    backoff.delay(afterFailures: failures)
  }

  /// The next step, given the queue and the requests the writer has had.
  ///
  /// A flush request (from `flush()` or shutdown) skips the wait once; a stop that was given up
  /// on exits even with writes pending, which the writer then reports.
  func action(
    at now: Double, hasPending: Bool, flushRequested: Bool, stopping: Bool, abandoned: Bool
  ) -> Action {
    if abandoned || (stopping && !hasPending) { return .exit }
    guard hasPending else { return .wait(interval) }
    if flushRequested || now >= nextFlush { return .flush }
    return .wait(nextFlush - now)
  }

  mutating func succeeded(at now: Double) {
    failures = 0
    nextFlush = now + interval
  }

  mutating func failed(at now: Double) {
    failures += 1
    nextFlush = now + delay(afterFailures: failures)
  }
}
