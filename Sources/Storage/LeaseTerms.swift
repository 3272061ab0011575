/// Who asks for a lease, when, and for how long.
public struct LeaseTerms: Sendable, Equatable {
  /// The asking process's owner name.
  public var owner: String
  /// Now, in unix seconds on the asker's clock.
  public var now: Double
  /// Seconds until the lease runs out unless renewed.
  public var duration: Double

  /// Makes terms.
  public init(owner: String, now: Double, duration: Double) {
    self.owner = owner
    self.now = now
    self.duration = duration
  }

  /// When a lease made now on these terms runs out.
  var expiresAt: Double { now + duration }

  /// The terms, or `StoreError.invalidValue` for an empty owner or a duration that is not a
  /// positive number of seconds.
  func validated() throws(StoreError) -> LeaseTerms {
    guard !owner.isEmpty, owner.utf8.count <= 256 else {
      throw .invalidValue(field: "owner", reason: "must have 1 to 256 bytes")
    }
    guard duration > 0, duration.isFinite, now.isFinite else {
      throw .invalidValue(field: "duration", reason: "must be a positive number of seconds")
    }
    return self
  }
}
