extension SQLSessionStore {
  public func acquireLease(sessionID: String, _ terms: LeaseTerms) throws -> LeaseAcquisition {
    let terms = try terms.validated()
    return try withWriter { database in
      try database.transaction {
        let (now, expiresAt) = try terms.resolved(on: database)
        // NB: in one UPDATE, so of two processes asking at once exactly one wins (PostgreSQL
        // re-checks the WHERE on the row the other committed); the epoch rises unless the
        // lease was already the asker's.
        let won = try database.query(
          """
          UPDATE sessions SET lease_owner = ?2, lease_expires_at = ?3,
            lease_epoch = CASE WHEN lease_owner = ?2 THEN lease_epoch ELSE lease_epoch + 1 END
          WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?2 OR lease_expires_at <= ?4)
          RETURNING lease_epoch
          """,
          [.text(sessionID), .text(terms.owner), .real(expiresAt), .real(now)]
        ) { $0.int64(0) }
        if let epoch = won.first {
          return .acquired(
            Lease(
              sessionID: sessionID, owner: terms.owner, epoch: epoch, expiresAt: expiresAt))
        }
        let holder = try database.query(
          "SELECT lease_owner, lease_epoch, lease_expires_at FROM sessions WHERE id = ?",
          [.text(sessionID)]
        ) {
          Lease(
            sessionID: sessionID, owner: $0.string(0), epoch: $0.int64(1),
            expiresAt: $0.double(2))
        }
        return holder.first.map { .held(by: $0) } ?? .missing
      }
    }
  }

  public func renewLeases(_ terms: LeaseTerms) throws -> [Lease] {
    let terms = try terms.validated()
    // NB: on a connection of its own where the store has one, so no flush delays it.
    return try withLeaseConnection { database in
      let expiresAt = try terms.resolved(on: database).expiresAt
      // NB: a lease that ran out but that no one took is renewed too: its epoch is unchanged,
      // so no other process has written the session since.
      return try database.query(
        "UPDATE sessions SET lease_expires_at = ?2 WHERE lease_owner = ?1 RETURNING id, lease_epoch",
        [.text(terms.owner), .real(expiresAt)]
      ) {
        Lease(
          sessionID: $0.string(0), owner: terms.owner, epoch: $0.int64(1),
          expiresAt: expiresAt)
      }.sorted { $0.sessionID < $1.sessionID }
    }
  }

  @discardableResult
  public func releaseLease(_ lease: Lease) throws -> Bool {
    try withWriter { database in
      try database.execute(Self.release.sql, Self.release.values(lease)) > 0
    }
  }

  /// The statement that gives a lease up, if it is still the holder's.
  static var release: (sql: String, values: (Lease) -> [SQLValue]) {
    (
      """
      UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL
      WHERE id = ? AND lease_owner = ? AND lease_epoch = ?
      """,
      { [.text($0.sessionID), .text($0.owner), .integer($0.epoch)] }
    )
  }

  @discardableResult
  public func releaseLeases(owner: String) throws -> Int {
    try withWriter { database in
      try database.execute(
        "UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ?",
        [.text(owner)])
    }
  }

  public func lease(sessionID: String) throws -> Lease? {
    try withReader { database in
      try database.query(
        """
        SELECT lease_owner, lease_epoch, lease_expires_at FROM sessions
        WHERE id = ? AND lease_owner IS NOT NULL
        """, [.text(sessionID)]
      ) {
        Lease(
          sessionID: sessionID, owner: $0.string(0), epoch: $0.int64(1), expiresAt: $0.double(2))
      }.first
    }
  }
}
