/// A reading of a monotonic clock in nanoseconds since an arbitrary start.
///
/// Protocol logic never reads a clock: it is handed `now` as one of these, so tests drive
/// time by hand. Only the server's I/O code reads the real clock.
public struct MonotonicTime: Sendable, Hashable, Comparable {
  public var nanoseconds: UInt64

  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  public static let zero = MonotonicTime(nanoseconds: 0)

  public static func < (a: MonotonicTime, b: MonotonicTime) -> Bool {
    a.nanoseconds < b.nanoseconds
  }

  /// The time `nanoseconds` later.
  public func adding(nanoseconds delta: UInt64) -> MonotonicTime {
    MonotonicTime(nanoseconds: nanoseconds &+ delta)
  }

  /// A non-negative duration in whole nanoseconds (negative ones count as zero).
  public static func nanoseconds(in duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    let total = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    return total > 0 ? UInt64(total) : 0
  }

  public static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
    let (seconds, attoseconds) = duration.components
    let delta = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if delta < 0 {
      let back = UInt64(-delta)
      return MonotonicTime(nanoseconds: time.nanoseconds > back ? time.nanoseconds - back : 0)
    }
    return MonotonicTime(nanoseconds: time.nanoseconds &+ UInt64(delta))
  }

  /// The time from `b` to `a`, negative when `a` is earlier.
  public static func - (a: MonotonicTime, b: MonotonicTime) -> Duration {
    .nanoseconds(Int64(bitPattern: a.nanoseconds &- b.nanoseconds))
  }
}
