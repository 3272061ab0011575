import Synchronization

/// Model stepping done off the realtime tick and charged to the client that caused it: a
/// replay, a seek, a replay state, a heavy session's tick, asked-for steps, or (issue 24) an
/// on-demand session's N ticks.
///
/// The `StepScheduler` runs a job in slices: each call of `work` gets a `StepSlice` and must
/// ask `slice.mayStep()` before every model step, stopping when it says no; it returns `.done`
/// when the job is over or `.more` to be called again on the client's next turn. `work` is
/// called on one thread at a time, never twice at once, so it may own a model without a lock.
/// `completion` is called exactly once, on the scheduler's thread: `.finished` after the last
/// slice, `.cancelled` when `cancel()` was called before it finished, `.refused` when the
/// client already had too many jobs waiting.
final class StepJob: @unchecked Sendable {
  /// What a slice of work says about the rest.
  enum Progress: Sendable, Equatable {
    case more
    case done
  }

  /// How a job ended, told to its `completion`.
  enum Outcome: Sendable, Equatable {
    case finished
    case cancelled
    /// Not run: the message says why (too many jobs of this client).
    case refused(String)
  }

  /// Who pays for it: its slices take this client's turns.
  let client: ClientKey
  /// What it is, for logs and statistics (`replay`, `seek`, `replay-state`, `session-step`).
  let label: String
  private let work: (inout StepSlice) -> Progress
  private let completion: @Sendable (Outcome) -> Void
  private let cancelled = Atomic<Bool>(false)
  private let ended = Atomic<Bool>(false)

  init(
    client: ClientKey, label: String, work: @escaping (inout StepSlice) -> Progress,
    completion: @escaping @Sendable (Outcome) -> Void = { _ in }
  ) {
    self.client = client
    self.label = label
    self.work = work
    self.completion = completion
  }

  /// Asks the job to stop: it runs no further slice and completes `.cancelled` (its client
  /// went away, or the answer is no longer wanted).
  func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Runs one slice (the scheduler's business).
  func run(_ slice: inout StepSlice) -> Progress {
    work(&slice)
  }

  /// Reports how the job ended; only the first call counts.
  func end(_ outcome: Outcome) {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    completion(outcome)
  }
}
