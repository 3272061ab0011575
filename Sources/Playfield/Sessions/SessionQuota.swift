import Storage
import Synchronization

/// Live sessions per client and per address: one client (an address, or a browser family of it)
/// may hold `perClient` at once, and all clients of one address together `perAddress`, so
/// neither one client nor one address can take the whole global limit from everyone else.
/// When the server is nearly full, its last places go to the addresses holding fewer: an
/// address that holds at least as many sessions as places are free gets no more (`.reserve`),
/// so that a few addresses cannot fill it while others hold nothing.
///
/// Sessions brought back from storage have no known client and count for nobody.
final class SessionQuota: Sendable {
  /// Which bound a new session would pass.
  enum Bound: Equatable, Sendable {
    case client
    case address
    /// The server has no more free places than the address holds.
    case reserve
    /// The client holds as many on-demand sessions as it may (`perClientOnDemand`).
    case onDemand

    /// The bound a claim on a shared store passed (`ClientClaim`).
    init(_ bound: ClientClaim.Bound) {
      switch bound {
      case .client: self = .client
      case .address: self = .address
      case .onDemand: self = .onDemand
      }
    }
  }

  /// Sessions one client may have live at once.
  let perClient: Int
  /// Sessions all clients of one address may have live at once.
  let perAddress: Int
  /// Of its `perClient`, the on-demand sessions one client may have live at once.
  let perClientOnDemand: Int
  private let owners = Mutex<[String: ClientKey]>([:])
  /// The sessions in `owners` that step on demand.
  private let onDemand = Mutex<Set<String>>([])

  init(perClient: Int, perAddress: Int, perClientOnDemand: Int = .max) {
    self.perClient = perClient
    self.perAddress = max(perClient, perAddress)
    self.perClientOnDemand = perClientOnDemand
  }

  /// The bound `client` is at, or nil when it may have one more session; `free` is how many
  /// more sessions the server as a whole may hold.
  func bound(for client: ClientKey, free: Int = .max) -> Bound? {
    owners.withLock {
      Self.bound(for: client, in: $0, perClient: perClient, perAddress: perAddress, free: free)
    }
  }

  /// Records `sessionID` for `client` when under every bound; otherwise the bound it is at.
  /// An on-demand session (`onDemand`) must also be under `perClientOnDemand`.
  func admit(_ sessionID: String, client: ClientKey, free: Int = .max, onDemand: Bool = false)
    -> Bound?
  {
    owners.withLock { owners in
      var bound = Self.bound(
        for: client, in: owners, perClient: perClient, perAddress: perAddress, free: free)
      if bound == nil && onDemand && onDemandCount(of: client, in: owners) >= perClientOnDemand {
        bound = .onDemand
      }
      guard bound == nil else { return bound }
      owners[sessionID] = client
      if onDemand { _ = self.onDemand.withLock { $0.insert(sessionID) } }
      return nil
    }
  }

  /// The bound a new on-demand session of `client` would pass, if any (besides `bound(for:)`).
  func onDemandBound(for client: ClientKey) -> Bound? {
    owners.withLock { onDemandCount(of: client, in: $0) >= perClientOnDemand ? .onDemand : nil }
  }

  /// Frees the session's place (deleted, expired or parked).
  func release(_ sessionID: String) {
    _ = owners.withLock { owners in
      _ = onDemand.withLock { $0.remove(sessionID) }
      return owners.removeValue(forKey: sessionID)
    }
  }

  /// Whether `sessionID` was admitted as an on-demand session.
  func isOnDemand(_ sessionID: String) -> Bool {
    onDemand.withLock { $0.contains(sessionID) }
  }

  private func onDemandCount(of client: ClientKey, in owners: [String: ClientKey]) -> Int {
    onDemand.withLock { ids in ids.lazy.filter { owners[$0] == client }.count }
  }

  /// The client that made `sessionID`, if known.
  func owner(of sessionID: String) -> ClientKey? {
    owners.withLock { $0[sessionID] }
  }

  /// How many live sessions `client` holds here, its address's clients together, and its
  /// on-demand ones.
  func counts(of client: ClientKey) -> ClientCounts {
    owners.withLock { owners in
      var counts = ClientCounts(client: 0, address: 0, onDemand: 0)
      for (id, owner) in owners where owner.address == client.address {
        counts.address += 1
        guard owner == client else { continue }
        counts.client += 1
        if isOnDemand(id) { counts.onDemand += 1 }
      }
      return counts
    }
  }

  /// The claim a new session of `client` makes on a store other processes share: this
  /// process's counts (`counts(of:)`, the new session admitted) and the bounds.
  func claim(for client: ClientKey, onDemand: Bool) -> ClientClaim {
    ClientClaim(
      client: client.description, address: client.address, onDemand: onDemand,
      perClient: perClient, perAddress: perAddress, perClientOnDemand: perClientOnDemand,
      heldHere: counts(of: client))
  }

  /// How many live sessions the clients of `address` hold together.
  func count(forAddress address: String) -> Int {
    owners.withLock { $0.values.lazy.filter { $0.address == address }.count }
  }

  /// What to tell a client refused at `bound`.
  func message(_ bound: Bound) -> String {
    switch bound {
    case .client:
      "you have \(perClient) live sessions in use, the most one client may "
        + "(--sessions-per-client); close one"
    case .address:
      "your address has \(perAddress) live sessions in use, the most one address may "
        + "(--session-share of --max-sessions, at most --sessions-per-client for each of its "
        + "--families-per-address); close one"
    case .reserve:
      "the server is nearly full, and its last places go to addresses holding fewer live "
        + "sessions than yours (--session-share); close one or try again later"
    case .onDemand:
      "you have \(perClientOnDemand) on-demand sessions in use, the most one client may "
        + "(--on-demand-sessions-per-client); close one"
    }
  }

  private static func bound(
    for client: ClientKey, in owners: [String: ClientKey], perClient: Int, perAddress: Int,
    free: Int
  ) -> Bound? {
    var mine = 0
    var address = 0
    for owner in owners.values where owner.address == client.address {
      address += 1
      if owner == client { mine += 1 }
    }
    if mine >= perClient { return .client }
    if address >= perAddress { return .address }
    if address > 0 && address >= free { return .reserve }
    return nil
  }
}
