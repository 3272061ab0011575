/// Whether a client may add more to the writer's queue now (back-pressure, pure).
///
/// Under half its byte bound everyone goes. From half to the bound, a client holding more than
/// its share of the queued bytes (more than the mean of the clients with bytes queued) waits,
/// so the one filling it most is slowed first; at the bound every client waits. Only when the
/// database cannot be written at all, and the queue is at its bound, is a client refused.
public enum WriteAdmission: Equatable, Sendable {
  /// Go on now.
  case go
  /// Wait until a flush has made room.
  case wait
  /// Refused: the database cannot be written and the queue is at its bound (says why).
  case refuse(String)

  /// The decision for a client with `mine` bytes queued, of `queued` in all, when `fillers`
  /// clients have bytes queued and `cannotWrite` says why the database cannot be written (nil
  /// while flushes succeed).
  public static func decide(
    queued: Int, bound: Int, mine: Int, fillers: Int, cannotWrite: String?
  ) -> WriteAdmission {
    if queued >= bound, let cannotWrite { return .refuse(cannotWrite) }
    if queued < bound / 2 { return .go }
    if queued >= bound { return .wait }
    return mine * max(1, fillers) > queued && fillers > 1 ? .wait : .go
  }
}
