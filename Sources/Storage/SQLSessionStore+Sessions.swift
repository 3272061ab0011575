extension SQLSessionStore {
  @discardableResult
  public func createSession(_ session: StoredSession, lease terms: LeaseTerms?) throws
    -> CreatedSession
  {
    guard !session.id.isEmpty, session.id.utf8.count <= 128 else {
      throw StoreError.invalidValue(field: "id", reason: "must have 1 to 128 bytes")
    }
    guard session.config.utf8.count <= limits.maxConfigBytes else {
      throw StoreError.invalidValue(
        field: "config", reason: "is larger than \(limits.maxConfigBytes) bytes")
    }
    let terms = try terms?.validated()
    return try withWriter { database in
      try database.transaction {
        let resolved = try terms?.resolved(on: database)
        let now = resolved?.now ?? session.createdAt
        try database.serialize(.sessions)
        let found = try database.count(
          "SELECT COUNT(*) FROM sessions WHERE id = ?", [.text(session.id)])
        guard found == 0 else { throw StoreError.sessionExists(id: session.id) }
        let evicted = try Self.makeRoom(for: session, limits: limits, now: now, in: database)
        if let claim = session.claim, let terms {
          try Self.check(claim, clock: session.clock, on: database, owner: terms.owner, now: now)
        }
        let lease = terms.map {
          Lease(
            sessionID: session.id, owner: $0.owner, epoch: 1,
            expiresAt: resolved?.expiresAt ?? session.createdAt)
        }
        try database.execute(
          """
          INSERT INTO sessions
            (id, kind, config, seed, status, created_at, updated_at, tick, token_hash,
             lease_owner, lease_epoch, lease_expires_at, clock, owner_client, owner_address)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(session.id), .text(session.kind), .text(session.config),
            .integer(Int64(bitPattern: session.seed)), .text(session.status.rawValue),
            .real(session.createdAt), .real(session.updatedAt), .integer(session.tick),
            .text(session.tokenHash), lease.map { .text($0.owner) } ?? .null,
            .integer(lease?.epoch ?? 0), lease.map { .real($0.expiresAt) } ?? .null,
            .text(session.clock),
            (session.owner ?? session.claim?.client).map { .text($0) } ?? .null,
            session.claim.map { .text($0.address) } ?? .null,
          ])
        return CreatedSession(lease: lease, evicted: evicted)
      }
    }
  }

  public func session(id: String) throws -> StoredSession? {
    try withReader { database in
      try database.query(
        "SELECT \(StoredSession.columns) FROM sessions WHERE id = ?", [.text(id)],
        row: StoredSession.init(row:)
      ).first
    }
  }

  public func listSessions(status: SessionStatus?) throws -> [StoredSession] {
    try withReader { database in
      guard let status else {
        return try database.query(
          "SELECT \(StoredSession.columns) FROM sessions ORDER BY updated_at DESC, id", [],
          row: StoredSession.init(row:))
      }
      return try database.query(
        """
        SELECT \(StoredSession.columns) FROM sessions WHERE status = ?
        ORDER BY updated_at DESC, id
        """,
        [.text(status.rawValue)], row: StoredSession.init(row:))
    }
  }

  public func renewSeatLinks(sessionID: String) throws -> Int64? {
    try withWriter { database in
      try database.transaction {
        guard
          try database.execute(
            "UPDATE sessions SET seat_generation = seat_generation + 1 WHERE id = ?",
            [.text(sessionID)]) > 0
        else { return nil }
        return try database.query(
          "SELECT seat_generation FROM sessions WHERE id = ?", [.text(sessionID)],
          row: { $0.int64(0) }
        ).first
      }
    }
  }

  @discardableResult
  public func deleteSession(id: String) throws -> Bool {
    try withWriter { database in
      try database.execute("DELETE FROM sessions WHERE id = ?", [.text(id)]) > 0
    }
  }

  @discardableResult
  public func deleteSessions(updatedBefore cutoff: Double) throws -> [String] {
    try withWriter { database in
      let deleted = try database.transaction {
        try database.serialize(.sessions)
        let ids = try database.query(
          "SELECT id FROM sessions WHERE updated_at < ? ORDER BY updated_at, id", [.real(cutoff)]
        ) { $0.string(0) }
        try database.execute("DELETE FROM sessions WHERE updated_at < ?", [.real(cutoff)])
        return ids
      }
      if let reclaim = database.dialect.reclaimSpace {
        try database.executeScript(reclaim)
      }
      return deleted
    }
  }

  public func statistics() throws -> StoreStatistics {
    try withReader { database in
      StoreStatistics(
        sessions: try database.count("SELECT COUNT(*) FROM sessions", []),
        bytes: Int64(try database.count(database.dialect.sizeQuery, [])))
    }
  }

  public func checkClaim(_ claim: ClientClaim, clock: String, holder terms: LeaseTerms) throws {
    let terms = try terms.validated()
    try withWriter { database in
      try database.transaction {
        let now = try terms.resolved(on: database).now
        try database.serialize(.sessions)
        try Self.check(claim, clock: clock, on: database, owner: terms.owner, now: now)
      }
    }
  }

  /// Refuses `claim` (`StoreError.clientQuota`) when its client's sessions held by processes
  /// other than `owner` under leases live at `now`, with those it holds itself, pass a bound;
  /// the client's sessions of `clock` count as its on-demand ones when the claim is on demand.
  /// Called with the sessions table serialized, so two processes never both take the last place.
  static func check(
    _ claim: ClientClaim, clock: String, on database: some SQLConnection, owner: String,
    now: Double
  ) throws {
    let counts = try database.query(
      """
      SELECT COALESCE(SUM(CASE WHEN owner_client = ?1 THEN 1 ELSE 0 END), 0), COUNT(*),
        COALESCE(SUM(CASE WHEN owner_client = ?1 AND clock = ?4 THEN 1 ELSE 0 END), 0)
      FROM sessions
      WHERE owner_address = ?2 AND lease_owner IS NOT NULL AND lease_owner <> ?3
        AND lease_expires_at > ?5
      """,
      [.text(claim.client), .text(claim.address), .text(owner), .text(clock), .real(now)]
    ) {
      ClientCounts(client: Int($0.int64(0)), address: Int($0.int64(1)), onDemand: Int($0.int64(2)))
    }
    if let bound = claim.bound(
      elsewhere: counts.first ?? ClientCounts(client: 0, address: 0, onDemand: 0))
    {
      throw StoreError.clientQuota(bound)
    }
  }
}
