/// The right of one process to step a session and write its rows, until `expiresAt`.
///
/// Every write of the session's rows carries the lease it was made under; the store refuses it
/// once another process has taken the session over, which raised `epoch` (the fencing token).
public struct Lease: Sendable, Equatable, Hashable {
  /// The session it is for.
  public var sessionID: String
  /// The process that holds it: a name unique to that process's life (see `LeaseOwner`).
  public var owner: String
  /// Raised each time the session passes to an owner other than the last: the fencing token.
  public var epoch: Int64
  /// When it runs out unless renewed (unix seconds, on the holder's clock).
  public var expiresAt: Double

  /// Makes a lease.
  public init(sessionID: String, owner: String, epoch: Int64, expiresAt: Double) {
    self.sessionID = sessionID
    self.owner = owner
    self.epoch = epoch
    self.expiresAt = expiresAt
  }

  /// True when `other` is this lease, perhaps renewed since: same session, owner and epoch.
  public func isSameHold(as other: Lease) -> Bool {
    sessionID == other.sessionID && owner == other.owner && epoch == other.epoch
  }

  /// Whether rows written under `lease` (nil: under none) may be stored for a session whose
  /// stored lease is `owner` and `epoch`: only by that very holder, or, for a session no one
  /// holds, by a writer that holds nothing.
  static func permits(_ lease: Lease?, storedOwner owner: String?, storedEpoch epoch: Int64)
    -> Bool
  {
    guard let lease else { return owner == nil }
    return lease.owner == owner && lease.epoch == epoch
  }
}
