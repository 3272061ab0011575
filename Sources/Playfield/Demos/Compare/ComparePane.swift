import Simulation

/// One pane of a compare group: a model run from its config and seed, taking no input, or a
/// recording of a stored session replayed from its input log (a ghost); shown `offset` ticks
/// ahead of the group (behind when negative).
struct ComparePane {
  /// A recording's session and its first and last own ticks.
  struct Recording: Sendable, Equatable {
    let session: String
    let first: UInt64
    let last: UInt64
  }

  /// The pane at its first tick, where a seek back starts.
  let start: any Simulation
  private(set) var model: any Simulation
  /// Ticks ahead of the group (behind when negative); a viewer may change it (`offset`).
  var offset: Int
  /// Nil for a model pane.
  let recording: Recording?
  /// A recording's log; nil for a model pane.
  private var log: (any ReplayLog)?
  /// A recording's inputs for its next step, read ahead of it.
  private var next: [CheckedInput]?

  /// A model pane: `model` at tick 0, stepped without input.
  init(model: any Simulation, offset: Int = 0) {
    self.start = model
    self.model = model
    self.offset = offset
    self.recording = nil
    self.log = nil
  }

  /// A recording of `session`: `start` at its first tick, then `log`, to its tick `last`.
  init(session: String, start: any Simulation, log: any ReplayLog, last: UInt64, offset: Int = 0) {
    self.start = start
    self.model = start
    self.offset = offset
    self.recording = Recording(
      session: session, first: start.tick, last: max(start.tick, last))
    self.log = log
  }

  /// The pane's own tick at the group's tick `tick`: its first tick plus `tick + offset`
  /// (no less than its first), and a recording's last at most.
  func ownTick(atGroupTick tick: UInt64) -> UInt64 {
    let shifted = Int64(clamping: tick) + Int64(offset)
    let own = start.tick + UInt64(max(0, shifted))
    return recording.map { min($0.last, own) } ?? own
  }

  /// Whether its next step's inputs are in hand (always, for a model pane); reads them when
  /// not. False when the log cannot be read now (ask again on a later tick); throws when it
  /// can no longer be read.
  mutating func readAhead() throws -> Bool {
    guard log != nil, next == nil else { return true }
    let tick = model.tick + 1
    guard let inputs = try log!.inputs(forTick: tick) else { return false }
    next = inputs
    return true
  }

  /// Steps once, with the inputs `readAhead` read.
  mutating func step() {
    _ = model.step(checked: next ?? [])
    next = nil
  }

  /// Back to its first tick (a seek back).
  mutating func restart() {
    model = start
    next = nil
    let first = start.tick
    log?.restart(after: first)
  }
}
