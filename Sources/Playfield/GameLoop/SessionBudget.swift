/// What the per-tick CPU budget (`TickBudget`) says of one session: how often it is stepped and
/// why, for its `status` message.
struct SessionBudget: Sendable, Equatable {
  /// Ticks between two steps: 1 steps it every tick; more means it is over its share.
  var interval = 1
  /// Moving average of one step's cost, in milliseconds.
  var cost = 0.0
  /// Its fair share of one tick's budget, in milliseconds (the budget over the sessions).
  var share = 0.0

  /// Whether it is stepped less often than every tick.
  var throttled: Bool { interval > 1 }
}
