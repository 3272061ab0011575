/// A session just stored: the lease its creator holds on it, and the sessions evicted to make
/// room.
public struct CreatedSession: Sendable, Equatable {
  /// The creator's lease, when the session was created with lease terms.
  public var lease: Lease?
  /// The ids of the stale, stopped sessions deleted to stay under `StoreLimits.maxSessions`.
  public var evicted: [String]

  /// Makes the result of a creation.
  public init(lease: Lease?, evicted: [String]) {
    self.lease = lease
    self.evicted = evicted
  }
}
