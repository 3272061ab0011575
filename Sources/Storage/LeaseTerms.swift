/// Who asks for a lease, when, and for how long.
public struct LeaseTerms: Sendable, Equatable {
  /// The asking process's owner name.
  public var owner: String
  /// Now, in unix seconds, when the asker decides it (tests); nil: the database's own clock
  /// decides (`SQLDialect.clockNow`), so that every process's leases are judged by one clock.
  public var now: Double?
  /// Seconds until the lease runs out unless renewed.
  public var duration: Double

  /// Makes terms.
  public init(owner: String, now: Double?, duration: Double) {
    self.owner = owner
    self.now = now
    self.duration = duration
  }

  /// The terms with `now` read from `database`'s clock when the asker left it to the database.
  func resolved(on database: some SQLConnection) throws -> (now: Double, expiresAt: Double) {
    let now = try self.now ?? database.clockNow()
    return (now, now + duration)
  }

  /// The terms, or `StoreError.invalidValue` for an empty owner or a duration that is not a
  /// positive number of seconds.
  func validated() throws(StoreError) -> LeaseTerms {
    guard !owner.isEmpty, owner.utf8.count <= 256 else {
      throw .invalidValue(field: "owner", reason: "must have 1 to 256 bytes")
    }
    guard duration > 0, duration.isFinite, now?.isFinite ?? true else {
      throw .invalidValue(field: "duration", reason: "must be a positive number of seconds")
    }
    return self
  }
}
