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
        let lease = terms.map {
          Lease(
            sessionID: session.id, owner: $0.owner, epoch: 1,
            expiresAt: resolved?.expiresAt ?? session.createdAt)
        }
        try database.execute(
          """
          INSERT INTO sessions
            (id, kind, config, seed, status, created_at, updated_at, tick, token_hash,
             lease_owner, lease_epoch, lease_expires_at, clock, owner_client)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(session.id), .text(session.kind), .text(session.config),
            .integer(Int64(bitPattern: session.seed)), .text(session.status.rawValue),
            .real(session.createdAt), .real(session.updatedAt), .integer(session.tick),
            .text(session.tokenHash), lease.map { .text($0.owner) } ?? .null,
            .integer(lease?.epoch ?? 0), lease.map { .real($0.expiresAt) } ?? .null,
            .text(session.clock), session.owner.map { .text($0) } ?? .null,
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
}
