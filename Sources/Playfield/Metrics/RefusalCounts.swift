import Synchronization

/// Requests refused since start, by the limit that refused them (its option's name, e.g.
/// `sessions-per-client`), for `/metrics`.
final class RefusalCounts: Sendable {
  private let counts = Mutex<[String: UInt64]>([:])

  init() {}

  /// Counts one refusal by `limit`.
  func note(_ limit: String) {
    counts.withLock { $0[limit, default: 0] += 1 }
  }

  /// Every limit's count so far.
  var all: [String: UInt64] { counts.withLock { $0 } }
}
