/// What one client's (address group's) connections on one event loop have read in the loop's
/// current turn, against its `ReadBudget`.
///
/// A connection takes its group's account from its loop once, when it opens, so that a read or
/// a request costs a comparison and an addition, not a lookup by the group's name. Counts of an
/// earlier turn are stale and read as nothing: a new turn needs no clearing. Loop thread only.
final class ReadAccount {
  // NB: touched only on the loop's thread, without nested accesses (see `EventLoop`).
  @exclusivity(unchecked) private var turn: UInt64 = 0
  @exclusivity(unchecked) private var used = ReadBudget(bytes: 0, messages: 0)

  /// What the group's connections read in `turn`.
  func spent(in turn: UInt64) -> ReadBudget {
    self.turn == turn ? used : ReadBudget(bytes: 0, messages: 0)
  }

  /// Counts `bytes` and `messages` read in `turn`.
  func charge(bytes: Int, messages: Int, in turn: UInt64) {
    if self.turn != turn {
      self.turn = turn
      used = ReadBudget(bytes: 0, messages: 0)
    }
    used.bytes += bytes
    used.messages += messages
  }
}
