/// Stepping that one client watches on its own socket and pays for: a replay, a compare group.
/// While it `wantsTick`, the game loop runs one `advance` of it per tick as a `StepJob` charged
/// to `client` (one at a time), exactly as it runs a session's steps beyond the realtime tick;
/// otherwise it costs nothing.
protocol ViewerWork: AnyObject, Sendable {
  /// Who pays for its steps.
  var client: ClientKey { get }
  /// The `StepJob` label (`replay`, `compare`), for logs and statistics.
  var jobLabel: String { get }
  /// Whether it has ended; a job of it then stops within one step.
  var isClosed: Bool { get }
  /// Whether its next tick has anything to do.
  var wantsTick: Bool { get }
  /// One tick's work, asking `mayStepAgain` before every model step.
  func advance(mayStepAgain: () -> Bool)
}
