extension SQLSessionStore {
  /// Checks that `session` has a place in the store, inside the caller's transaction (the
  /// sessions table serialized). A session with an owner must fit its owner's share
  /// (`maxSessionsPerClient`), its address's (`maxSessionsPerAddress`) and the whole store
  /// (`maxSessions`), or is refused: nobody else's session is ever deleted for it. When the
  /// store is nearly full, its last places go to the addresses holding fewer: an address that
  /// holds at least as many sessions as places are free gets no more (as for live places),
  /// so that a few addresses' clients cannot fill it while others hold nothing. A session
  /// without one may evict the stalest non-running, unheld sessions without an owner; returns
  /// their ids.
  static func makeRoom(
    for session: StoredSession, limits: StoreLimits, now: Double, in database: some SQLConnection
  ) throws -> [String] {
    let limit = limits.maxSessions
    let total = try database.count("SELECT COUNT(*) FROM sessions", [])
    if let owner = session.owner {
      let perClient = limits.maxSessionsPerClient
      let mine = try database.count(
        "SELECT COUNT(*) FROM sessions WHERE owner_client = ?", [.text(owner)])
      guard mine < perClient else { throw StoreError.tooManySessionsForClient(limit: perClient) }
      // A client is `ADDRESS` or `ADDRESS FAMILY`: the address's clients are both shapes.
      let address = String(owner.prefix { $0 != " " })
      let perAddress = max(perClient, limits.maxSessionsPerAddress)
      let ofAddress = try database.count(
        """
        SELECT COUNT(*) FROM sessions
        WHERE owner_client = ?1 OR substr(owner_client, 1, length(?1) + 1) = ?1 || ' '
        """, [.text(address)])
      guard ofAddress < perAddress else {
        throw StoreError.tooManySessionsForAddress(limit: perAddress)
      }
      guard total < limit else { throw StoreError.tooManySessions(limit: limit) }
      guard ofAddress == 0 || ofAddress < limit - total else {
        throw StoreError.storeReserved(held: ofAddress, free: limit - total)
      }
      return []
    }
    let excess = total - limit + 1
    guard excess > 0 else { return [] }
    // NB: a stopped session some process still holds is live there, so it stays.
    let evicted = try database.query(
      """
      SELECT id FROM sessions
      WHERE owner_client IS NULL AND status != ?
        AND (lease_owner IS NULL OR lease_expires_at <= ?)
      ORDER BY updated_at, id LIMIT ?
      """,
      [.text(SessionStatus.running.rawValue), .real(now), .integer(Int64(excess))]
    ) { $0.string(0) }
    guard evicted.count == excess else { throw StoreError.tooManySessions(limit: limit) }
    try database.executeBatch(
      evicted.map {
        BatchStatement(sql: "DELETE FROM sessions WHERE id = ?", values: [.text($0)])
      })
    return evicted
  }
}
