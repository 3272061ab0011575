/// What came of asking for a session's lease.
public enum LeaseAcquisition: Sendable, Equatable {
  /// The lease is the caller's now: it was free, had run out, or was already the caller's.
  case acquired(Lease)
  /// Another process holds it until the lease's `expiresAt`.
  case held(by: Lease)
  /// No session with that id is stored.
  case missing

  /// The lease acquired, or nil.
  public var lease: Lease? {
    guard case .acquired(let lease) = self else { return nil }
    return lease
  }
}
