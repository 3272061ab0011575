/// Play at a speed, one game-loop tick at a time: each tick earns `speed` ticks of the model's
/// time, and whole ticks a cut slice left unstepped are owed to the next game-loop ticks, so a
/// busy machine still plays at the speed asked. Replays and Compare groups play by it.
struct PlayCredit {
  /// Part of a tick earned and not yet whole.
  private var fraction = 0.0
  /// Whole ticks earned and not yet stepped.
  private(set) var owed: UInt64 = 0

  /// Earns one game-loop tick's play at `speed` and gives the whole ticks due now, owed ones
  /// included. Past `cap` owed ticks, the tick's whole credit is skipped, not owed: play that
  /// keeps falling behind drops whole ticks rather than owe without end (and a viewer that
  /// wants frames whole speed steps apart keeps them).
  mutating func earn(at speed: Double, cap: UInt64) -> UInt64 {
    fraction += speed
    let whole = UInt64(fraction)
    fraction -= Double(whole)
    if owed + whole <= cap { owed += whole }
    return owed
  }

  /// What the tick left unstepped of what `earn` gave: owed to the next ticks.
  mutating func leave(_ unstepped: UInt64) {
    owed = unstepped
  }

  /// Forgets owed ticks (a command changed what play means), keeping the part of a tick.
  mutating func forgetOwed() {
    owed = 0
  }

  /// Starts over: nothing owed, nothing earned.
  mutating func reset() {
    self = PlayCredit()
  }
}
