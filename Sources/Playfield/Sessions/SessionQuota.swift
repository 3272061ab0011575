import Synchronization

/// Live sessions per client (by address): one client may hold `perClient` at once, so it
/// cannot take the whole global limit from everyone else.
///
/// Sessions brought back from storage have no known client and count for nobody.
final class SessionQuota: Sendable {
  /// Sessions one client may have live at once.
  let perClient: Int
  private let owners = Mutex<[String: String]>([:])

  init(perClient: Int) {
    self.perClient = perClient
  }

  /// Records `sessionID` for `client` when under the quota; false when the client is at it.
  func admit(_ sessionID: String, client: String) -> Bool {
    owners.withLock { owners in
      guard owners.values.lazy.filter({ $0 == client }).count < perClient else { return false }
      owners[sessionID] = client
      return true
    }
  }

  /// Frees the session's place (deleted, expired or parked).
  func release(_ sessionID: String) {
    _ = owners.withLock { $0.removeValue(forKey: sessionID) }
  }

  /// The client that made `sessionID`, if known.
  func owner(of sessionID: String) -> String? {
    owners.withLock { $0[sessionID] }
  }

  /// How many live sessions `client` holds.
  func count(for client: String) -> Int {
    owners.withLock { $0.values.lazy.filter { $0 == client }.count }
  }
}
