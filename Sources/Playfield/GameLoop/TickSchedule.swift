import HTTP

/// When ticks are due: a fixed step on a monotonic clock, counted from an origin so it never
/// drifts, with a clamp on how far behind it may fall (Fiedler, "Fix Your Timestep!").
///
/// Pure: it is handed the time.
struct TickSchedule: Sendable {
  /// Ticks per second.
  let rate: UInt64
  /// Most ticks run to catch up at once; beyond it the backlog is dropped (time stretches rather
  /// than the loop spiralling).
  let maxCatchUp: UInt64
  private(set) var origin: MonotonicTime
  /// Ticks run since `origin`.
  private(set) var ticks: UInt64 = 0
  /// Ticks dropped by the clamp so far.
  private(set) var dropped: UInt64 = 0

  init(rate: UInt64 = 60, maxCatchUp: UInt64 = 15, start: MonotonicTime) {
    self.rate = rate
    self.maxCatchUp = maxCatchUp
    self.origin = start
  }

  /// Nanoseconds from the origin to tick `n`: floor(n / rate seconds).
  private func offset(_ n: UInt64) -> UInt64 {
    rate.dividingFullWidth(n.multipliedFullWidth(by: 1_000_000_000)).quotient
  }

  /// When tick `n` (counting from 1) is due.
  func due(_ n: UInt64) -> MonotonicTime {
    MonotonicTime(nanoseconds: origin.nanoseconds + offset(n))
  }

  /// When the next tick is due.
  var nextDue: MonotonicTime { due(ticks + 1) }

  /// How many ticks are due at `now`; clamps a long stall to `maxCatchUp`.
  mutating func ticksDue(at now: MonotonicTime) -> UInt64 {
    guard now >= nextDue else { return 0 }
    // The last tick n with due(n) <= now: n = floor(((now - origin + 1) * rate - 1) / 1e9).
    let elapsed = now.nanoseconds - origin.nanoseconds + 1
    let scaled = elapsed.multipliedFullWidth(by: rate)
    let (low, borrow) = scaled.low.subtractingReportingOverflow(1)
    let numerator = (high: scaled.high - (borrow ? 1 : 0), low: low)
    let reached = UInt64(1_000_000_000).dividingFullWidth(numerator).quotient
    let behind = reached - ticks
    guard behind > maxCatchUp else { return behind }
    dropped += behind - maxCatchUp
    // Re-anchor so that the last kept tick falls due exactly now.
    origin = MonotonicTime(nanoseconds: now.nanoseconds - offset(ticks + maxCatchUp))
    return maxCatchUp
  }

  /// Re-anchors after the loop slept for lack of work: the next tick falls due at `now`, and
  /// the ticks not run while asleep are neither caught up nor counted as dropped.
  mutating func restart(at now: MonotonicTime) {
    let ahead = offset(ticks + 1)
    origin = MonotonicTime(nanoseconds: now.nanoseconds >= ahead ? now.nanoseconds - ahead : 0)
  }

  /// Records that the next tick ran.
  mutating func ran() {
    ticks += 1
  }
}
