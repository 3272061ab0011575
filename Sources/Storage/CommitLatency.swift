/// How long inputs took from being queued (right after the step that applied them) to the
/// commit of the transaction that stored them, over the newest `capacity` ticks' worth: for
/// `/healthz` and the cluster benchmark (PostgreSQL beside SQLite).
public struct CommitLatency: Sendable, Equatable {
  /// Most samples kept; older ones are overwritten.
  public static let capacity = 4096
  /// Seconds, in a ring of at most `capacity`.
  private var samples: [Double] = []
  private var next = 0
  /// Samples recorded since start (more than are kept, after `capacity`).
  public private(set) var count = 0
  /// Seconds of every sample recorded since start (for a Prometheus summary's `_sum`).
  public private(set) var sum = 0.0

  /// No samples yet.
  public init() {}

  /// Records one tick's inputs committed `seconds` after they were queued.
  mutating func record(_ seconds: Double) {
    count += 1
    sum += seconds
    guard samples.count == Self.capacity else {
      samples.append(seconds)
      return
    }
    samples[next] = seconds
    next = (next + 1) % Self.capacity
  }

  /// The `q` quantile (0...1) of the kept samples, in seconds; nil with none.
  public func quantile(_ q: Double) -> Double? {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    let rank = Int((Double(sorted.count - 1) * min(max(q, 0), 1)).rounded())
    return sorted[rank]
  }
}
