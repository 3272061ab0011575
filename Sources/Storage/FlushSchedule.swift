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

  /// Seconds between flushes while all goes well.
  let interval: Double
  /// The longest wait between retries (seconds).
  let maxBackoff: Double
  /// Failed flushes in a row.
  private(set) var failures = 0
  /// When the next flush is due.
  private(set) var nextFlush: Double

  init(interval: Double, maxBackoff: Double, now: Double) {
    self.interval = interval
    self.maxBackoff = max(interval, maxBackoff)
    self.nextFlush = now + interval
  }

  /// The wait before the next attempt after `failures` failures in a row: 2^n intervals, capped.
  func delay(afterFailures failures: Int) -> Double {
    guard failures > 0 else { return interval }
    return min(maxBackoff, interval * Double(1 << min(failures, 30)))
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
