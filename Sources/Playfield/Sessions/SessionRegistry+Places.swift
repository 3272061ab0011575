import Storage

extension SessionRegistry {
  /// Charges live session `id` to `client`'s quotas (none but the server's when nil), for a
  /// create or a return from storage alike: under its own and its address's live places (and
  /// on-demand ones when `onDemand`), and the server's. Throws what the client is told, `told`
  /// prefixed; records the place otherwise. A refusal is counted in `/metrics` (`refusals`)
  /// unless `mayPark` is false (a start's restore, which refuses nobody: the session stays
  /// parked).
  ///
  /// With `mayPark`, the bounds it would pass are met by parking one idle unwatched session
  /// (`parkIdle`), at most one, from the narrowest of them: on-demand ones ⊂ the client's own
  /// ⊂ its address's ⊂ all, and one place freed in a narrower set is free under every wider
  /// bound too. When none there can be parked, it is refused (with the first bound's message)
  /// and nothing is parked. Before, each bound parked in turn: a create could park the
  /// client's idle realtime session at its own bound and then be refused at its on-demand
  /// bound, the session parked for nothing.
  ///
  /// `beforePark`, when given, is asked before the park, with what the park surely takes off
  /// the client's counts (`ClientCounts`: every candidate is its own, its own on-demand, of its
  /// address): a refusal it returns (the cluster's, on a shared store) is thrown, nothing
  /// parked; when it names a bound narrower than the park's set, the park is looked for there
  /// instead.
  ///
  /// Returns the id of the session parked for it, if any: a caller whose exact check across
  /// the cluster then refuses the admission brings that one back (`unparkRefused`).
  @discardableResult
  func admitLive(
    _ id: String, client: ClientKey?, onDemand: Bool, mayPark: Bool, told: String = "",
    beforePark: ((ClientCounts) -> (bound: SessionQuota.Bound, error: APIError)?)? = nil
  ) throws(APIError) -> String? {
    func refuse(_ passed: PassedBound) -> APIError {
      if mayPark { refusals.note(passed.limit) }
      return passed.error
    }
    let passed = passedBounds(client: client, onDemand: onDemand, told: told)
    var parkedFor: String?
    if let first = passed.first {
      guard mayPark, var scope = passed.map(\.scope).min(by: { $0.breadth < $1.breadth }) else {
        throw refuse(first)
      }
      var candidates = parkCandidates(of: scope.client, at: scope.bound)
      guard !candidates.isEmpty else { throw refuse(first) }
      while let beforePark, let client,
        let refused = beforePark(lowered(client, byParkingOneOf: candidates))
      {
        let narrower = ParkScope(client: client, bound: refused.bound)
        let there = parkCandidates(of: client, at: refused.bound)
        guard narrower.breadth < scope.breadth, !there.isEmpty else {
          refusals.note(refused.bound.limitName)
          throw refused.error
        }
        (scope, candidates) = (narrower, there)
      }
      guard let parked = parkIdle(of: scope.client, at: scope.bound) else { throw refuse(first) }
      parkedFor = parked
      if let still = passedBounds(client: client, onDemand: onDemand, told: told).first {
        throw refuse(still)
      }
    }
    var free: Int { limits.maxLive - listed.count }
    if let client, let bound = quota.admit(id, client: client, free: free, onDemand: onDemand) {
      throw refuse(PassedBound(client: client, bound: bound, told: told, quota: quota))
    }
    return parkedFor
  }

  /// Where one park makes a place (`parkIdle`): among `client`'s sessions at `bound` (its
  /// on-demand ones, its own, its address's), or among all when `client` is nil.
  struct ParkScope {
    var client: ClientKey?
    var bound: SessionQuota.Bound

    /// How wide its set of sessions is: each set holds every narrower one.
    var breadth: Int {
      guard client != nil else { return 3 }
      switch bound {
      case .onDemand: return 0
      case .client: return 1
      case .address, .reserve: return 2
      }
    }
  }

  /// A bound a new live session would pass: what the client is told, the limit counted in
  /// `/metrics`, and where one park meets it.
  struct PassedBound {
    var error: APIError
    var limit: String
    var scope: ParkScope

    init(error: APIError, limit: String, scope: ParkScope) {
      self.error = error
      self.limit = limit
      self.scope = scope
    }

    /// `client`'s quota `bound`.
    init(client: ClientKey, bound: SessionQuota.Bound, told: String, quota: SessionQuota) {
      self.init(
        error: APIError(.tooManyRequests, told + quota.message(bound)), limit: bound.limitName,
        scope: ParkScope(client: client, bound: bound))
    }
  }

  /// The bounds a new live session of `client` would pass now, in the order they are told: its
  /// own or its address's, its on-demand ones, the server's.
  private func passedBounds(client: ClientKey?, onDemand: Bool, told: String) -> [PassedBound] {
    var passed: [PassedBound] = []
    let free = limits.maxLive - listed.count
    if let client, let bound = quota.bound(for: client, free: free) {
      passed.append(PassedBound(client: client, bound: bound, told: told, quota: quota))
    }
    if onDemand, let client, let bound = quota.onDemandBound(for: client) {
      passed.append(PassedBound(client: client, bound: bound, told: told, quota: quota))
    }
    if free <= 0 {
      passed.append(
        PassedBound(
          error: APIError.full(
            told + "the server is full: \(limits.maxLive) live sessions in use; try again later"),
          limit: Limit.maxSessions.name, scope: ParkScope(client: nil, bound: .client)))
    }
    return passed
  }

  /// What parking any one of `candidates` surely takes off `client`'s counts: one of its own
  /// when every candidate is, one on-demand when every one is its own on-demand, one of its
  /// address's when every one is at its address.
  private func lowered(_ client: ClientKey, byParkingOneOf candidates: [LiveSession])
    -> ClientCounts
  {
    let owners = candidates.map { quota.owner(of: $0.id) }
    let own = owners.allSatisfy { $0 == client }
    return ClientCounts(
      client: own ? 1 : 0, address: owners.allSatisfy { $0?.address == client.address } ? 1 : 0,
      onDemand: own && candidates.allSatisfy { quota.isOnDemand($0.id) } ? 1 : 0)
  }

  /// The client a stored session is charged to: its owner, or for a session stored before
  /// owners were, `SessionRegistry.unowned` (they share one client's places).
  static func owner(of stored: StoredSession) -> ClientKey {
    guard let owner = stored.owner, !owner.isEmpty else { return unowned }
    let parts = owner.split(separator: " ", maxSplits: 1).map(String.init)
    return ClientKey(address: parts[0], family: parts.count > 1 ? parts[1] : nil)
  }

  /// Parked sessions deleted for age at most at a time (`removeExpiredParked`).
  static let expiredPerCall = 64

  /// The one client all sessions stored without an owner are charged to.
  static let unowned = ClientKey(address: "(stored without an owner)")

  /// Keeps `stored` parked (in the store only, back when asked for), charged to `owner` when
  /// it comes back, deleted once `limits.parkedMaxAge` has passed without updates.
  func keepParked(_ stored: StoredSession, owner: ClientKey) {
    parked.withLock { _ = $0.insert(stored.id) }
    parkedOwners.withLock { $0[stored.id] = owner }
    parkedAt.withLock { $0[stored.id] = stored.updatedAt }
  }

  /// Deletes the parked sessions nobody has asked for in `limits.parkedMaxAge`, at most
  /// `expiredPerCall` of them (the game loop's maintenance calls it once a minute; each is a
  /// write to the store), each from the store first: one the store refuses stays parked, and
  /// the rest wait for the next call (`deleteExpired`).
  func removeExpiredParked(now: Double) {
    let expired = parkedAt.withLock { parkedAt in
      parkedAt.filter { now - $0.value > limits.parkedMaxAge }.map(\.key).sorted()
        .prefix(Self.expiredPerCall)
    }
    for id in expired {
      // NB: under `adopting`, so that the session is not being brought back meanwhile, nor
      // brought back from a row being deleted (`unpark`).
      let deleted = adopting.withLock { _ -> Bool? in
        guard let since = parkedAt.withLock({ $0[id] }), now - since > limits.parkedMaxAge,
          parked.withLock({ $0.contains(id) })
        else { return nil }
        guard deleteExpired(id) else { return false }
        parked.withLock { _ = $0.remove(id) }
        forgetParked(id)
        forgetDeleted(id)
        return true
      }
      if deleted == false { return }
      if deleted == true {
        logger.info("parked session \(id) deleted: nobody asked for it in time")
      }
    }
  }

  /// Deletes expired session `id` (live or parked) from the store before it is forgotten here;
  /// false when the store refuses: it then stays as it was (live or parked, counted in its
  /// owner's places), `/healthz` counts it (`undeletedExpiredSessions`) and the next
  /// maintenance tries again (before, it was forgotten here with the failure only logged, and
  /// came back at the next restart).
  func deleteExpired(_ id: String) -> Bool {
    // NB: a session the store could not keep has no row: it never waits for the store (it
    // stayed live while the store failed, before, and held up the expiry of the rest).
    guard !memoryOnly.withLock({ $0.contains(id) }) else { return true }
    do {
      try journal?.deleteStored(sessionID: id)
      undeletedExpired.withLock { _ = $0.remove(id) }
      return true
    } catch {
      undeletedExpired.withLock { _ = $0.insert(id) }
      logger.error("cannot delete expired session \(id) from the database, it stays: \(error)")
      return false
    }
  }

  /// Deletes `owner`'s parked session updated longest ago, to make a stored place for its new
  /// one; false when it has none parked here, or the store refuses the delete (it stays parked).
  func expireOldestParked(of owner: ClientKey) -> Bool {
    // NB: under `adopting`, so that the session is not being brought back meanwhile.
    let oldest = adopting.withLock { _ -> String? in
      let mine = parkedOwners.withLock { $0.filter { $0.value == owner }.map(\.key) }
      let since = parkedAt.withLock { $0 }
      guard
        let oldest = mine.min(by: { (since[$0] ?? 0, $0) < (since[$1] ?? 0, $1) }),
        parked.withLock({ $0.contains(oldest) })
      else { return nil }
      do {
        try journal?.deleteStored(sessionID: oldest)
      } catch {
        logger.error("cannot delete parked session \(oldest) to make room, it stays: \(error)")
        return nil
      }
      parked.withLock { _ = $0.remove(oldest) }
      forgetParked(oldest)
      forgetDeleted(oldest)
      return oldest
    }
    guard let oldest else { return false }
    logger.info("parked session \(oldest) deleted: its owner made a new one past its share")
    return true
  }

  /// Forgets what is known of parked session `id` here (it was deleted or came back).
  func forgetParked(_ id: String) {
    parkedOwners.withLock { _ = $0.removeValue(forKey: id) }
    parkedAt.withLock { _ = $0.removeValue(forKey: id) }
    notBack.withLock { _ = $0.removeValue(forKey: id) }
  }

  /// Notes why parked session `id` could not come back now, for whoever asks next.
  func noteNotBack(_ id: String, _ error: APIError?) {
    notBack.withLock {
      if let error {
        if $0.count >= Self.maxUnreachable { $0.removeAll() }
        $0[id] = error
      } else {
        $0[id] = nil
      }
    }
  }
}
