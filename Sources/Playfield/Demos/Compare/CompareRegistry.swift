import Synchronization

/// The compare groups alive, for their API, their sockets and the game loop.
///
/// Each group is counted for its creator in a `SessionQuota` of its own
/// (`--compares-per-client`, and for an address that times `--families-per-address`), and all
/// together are bounded by `--max-compares`. A group nobody has watched for `idleLimit` seconds
/// (none since it was made, or none since its last viewer left) ends and frees its place.
final class CompareRegistry: Sendable {
  private let groups = Mutex<[String: CompareGroup]>([:])
  let quota: SessionQuota
  /// Most groups at once.
  let limit: Int
  /// Seconds a group may go unwatched.
  let idleLimit: Double
  let wallClock: @Sendable () -> Double
  /// Wakes the game loop (a new group, or a command to one).
  let wake: @Sendable () -> Void

  init(
    perClient: Int, perAddress: Int, limit: Int, idleLimit: Double,
    wallClock: @escaping @Sendable () -> Double, wake: @escaping @Sendable () -> Void = {}
  ) {
    self.quota = SessionQuota(perClient: perClient, perAddress: perAddress)
    self.limit = limit
    self.idleLimit = idleLimit
    self.wallClock = wallClock
    self.wake = wake
  }

  /// Every group still alive; ends the ones unwatched for too long first.
  var all: [CompareGroup] {
    let now = wallClock()
    return groups.withLock { groups in
      for (id, group) in groups {
        if let since = group.idleSince, now - since > idleLimit { group.close() }
        if group.isClosed {
          groups[id] = nil
          quota.release(id)
        }
      }
      return Array(groups.values)
    }
  }

  func group(_ id: String) -> CompareGroup? {
    _ = all
    return groups.withLock { $0[id] }
  }

  /// Adds `group` when its client and the server have room; otherwise why not.
  func add(_ group: CompareGroup) throws(APIError) {
    let count = all.count
    guard count < limit else {
      var error = APIError(
        .serviceUnavailable,
        "the server is full: \(limit) compare groups in use (--max-compares); try again later")
      error.headers.set("Retry-After", "60")
      throw error
    }
    if let bound = quota.admit(group.id, client: group.client) {
      throw APIError(.tooManyRequests, message(bound))
    }
    groups.withLock { $0[group.id] = group }
  }

  private func message(_ bound: SessionQuota.Bound) -> String {
    switch bound {
    case .address:
      "your address has \(quota.perAddress) compare groups in use, the most one address may "
        + "(--compares-per-client for each of its --families-per-address); leave one for "
        + "\(Int(idleLimit)) seconds to end it"
    default:
      "you have \(quota.perClient) compare groups in use, the most one client may "
        + "(--compares-per-client); leave one for \(Int(idleLimit)) seconds to end it"
    }
  }
}
