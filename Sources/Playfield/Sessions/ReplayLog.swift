import Simulation

/// Where a replay's inputs and restart points come from, read as the replay advances, so a
/// replay never holds its whole log.
protocol ReplayLog {
  /// The checked inputs the step to `tick` applied, in order; nil when they cannot be read now
  /// (ask again on a later game-loop tick). Ticks are asked in increasing order between
  /// restarts.
  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]?
  /// Reads from just after `tick` again: the replay's model is now at `tick` (a seek).
  mutating func restart(after tick: UInt64)
  /// The stored model at the nearest snapshot at or before `tick`; nil when there is none or it
  /// cannot be read now (the replay then steps from where it is, which ends in the same state).
  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)?
}
