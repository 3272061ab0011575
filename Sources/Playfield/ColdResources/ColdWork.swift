import Tiles

/// What a cold resource's computation learns and reports as it runs: how long each phase took,
/// and whether to stop (`cancellation`: every client that asked went away, or the deadline
/// passed), so that `ColdResource.compute` keeps its signature.
struct ColdWork: Sendable {
  /// Says when to stop; a long computation checks it often (tile renders do, row by row).
  let cancellation: RenderCancellation
  /// Whether the queue admitted this as cheap work (its estimate at most
  /// `FairQueue.Limits.cheapSeconds`): it may run in a slot expensive work cannot take, so it
  /// should not wait for threads that expensive work holds.
  let cheap: Bool

  init(cancellation: RenderCancellation = RenderCancellation(), cheap: Bool = false) {
    self.cancellation = cancellation
    self.cheap = cheap
  }

  /// Each phase's name and duration, in order.
  private(set) var phases: [(name: String, duration: Duration)] = []

  private let clock = ContinuousClock()

  /// Runs `body` as the phase `name`, recording how long it took.
  mutating func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    let start = clock.now
    defer { phases.append((name, clock.now - start)) }
    return try body()
  }

  /// Records a phase `name` that something else timed: `seconds` long.
  mutating func record(_ name: String, seconds: Double) {
    phases.append((name, .nanoseconds(Int64((seconds * 1e9).rounded()))))
  }

  /// The phases as a W3C `Server-Timing` value (`name;dur=MS, ...`, to the microsecond), or
  /// nil when none was measured.
  var serverTiming: String? {
    guard !phases.isEmpty else { return nil }
    return phases.map { "\($0.name);dur=\(Self.milliseconds($0.duration))" }.joined(separator: ", ")
  }

  private static func milliseconds(_ duration: Duration) -> String {
    let value =
      Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
    return String(Double(Int(value * 1000)) / 1000)
  }
}
