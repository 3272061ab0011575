import HTTP

/// One turn of a `StepJob`: at most `maxSteps` model steps and, after the first, none past
/// `deadline` on the monotonic clock. The clock is read before every step, so a slice ends
/// within one model step of its deadline.
struct StepSlice {
  /// Most model steps this slice may run.
  let maxSteps: Int
  /// After the first step, no step starts at or past this time.
  let deadline: MonotonicTime
  private let clock: () -> MonotonicTime
  /// Model steps this slice has allowed so far.
  private(set) var steps = 0

  init(maxSteps: Int, deadline: MonotonicTime, clock: @escaping () -> MonotonicTime) {
    self.maxSteps = maxSteps
    self.deadline = deadline
    self.clock = clock
  }

  /// Whether one more model step may run now; counts it when so. Ask before every step. The
  /// first step of a slice is always allowed, so every job progresses.
  mutating func mayStep() -> Bool {
    guard steps < maxSteps, steps == 0 || clock() < deadline else { return false }
    steps += 1
    return true
  }

  /// Whether the slice has room left (without counting a step), for work between steps.
  var hasRoom: Bool { steps < maxSteps && (steps == 0 || clock() < deadline) }
}
