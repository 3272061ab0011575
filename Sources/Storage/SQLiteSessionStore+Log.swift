extension SQLiteSessionStore {
  @discardableResult
  public func write(_ batch: WriteBatch) throws -> Int {
    guard !batch.isEmpty else { return 0 }
    let keep = Int64(max(1, limits.snapshotsPerSession))
    return try withWriter { database in
      try database.transaction {
        // Rows of sessions deleted since they were queued are dropped here, on purpose.
        var ids = Set(batch.progress.map(\.sessionID))
        ids.formUnion(batch.inputs.map(\.sessionID))
        ids.formUnion(batch.snapshots.map(\.sessionID))
        let stored = try ids.filter { id in
          try !database.query("SELECT 1 FROM sessions WHERE id = ?", [.text(id)]) { _ in true }
            .isEmpty
        }
        let progress = batch.progress.filter { stored.contains($0.sessionID) }
        let inputs = batch.inputs.filter { stored.contains($0.sessionID) }
        let snapshots = batch.snapshots.filter { stored.contains($0.sessionID) }

        for update in progress {
          try database.execute(
            "UPDATE sessions SET status = ?, tick = ?, updated_at = ? WHERE id = ?",
            [
              .text(update.status.rawValue), .integer(update.tick), .real(update.updatedAt),
              .text(update.sessionID),
            ])
        }
        // NB: OR REPLACE makes a batch idempotent, so retrying one that did commit is harmless.
        for input in inputs {
          try database.execute(
            "INSERT OR REPLACE INTO inputs (session_id, tick, seq, input) VALUES (?, ?, ?, ?)",
            [.text(input.sessionID), .integer(input.tick), .integer(input.seq), .text(input.input)])
        }
        for snapshot in snapshots {
          try database.execute(
            "INSERT OR REPLACE INTO snapshots (session_id, tick, state) VALUES (?, ?, ?)",
            [.text(snapshot.sessionID), .integer(snapshot.tick), .blob(snapshot.state)])
        }
        for id in Set(snapshots.map(\.sessionID)) {
          try database.execute(
            """
            DELETE FROM snapshots WHERE session_id = ?1 AND tick NOT IN
              (SELECT tick FROM snapshots WHERE session_id = ?1 ORDER BY tick DESC LIMIT ?2)
            """, [.text(id), .integer(keep)])
        }
        return batch.count - progress.count - inputs.count - snapshots.count
      }
    }
  }

  public func inputs(sessionID: String, afterTick: Int64, throughTick: Int64) throws
    -> [LoggedInput]
  {
    try withReader { database in
      try database.query(
        """
        SELECT session_id, tick, seq, input FROM inputs
        WHERE session_id = ? AND tick > ? AND tick <= ? ORDER BY tick, seq
        """, [.text(sessionID), .integer(afterTick), .integer(throughTick)]
      ) {
        LoggedInput(
          sessionID: $0.string(0), tick: $0.int64(1), seq: $0.int64(2), input: $0.string(3))
      }
    }
  }

  public func snapshot(sessionID: String, atOrBefore tick: Int64) throws -> Snapshot? {
    try withReader { database in
      try Self.snapshot(in: database, sessionID: sessionID, atOrBefore: tick)
    }
  }

  /// The newest snapshot at or before `tick`, read on `database`.
  static func snapshot(in database: Database, sessionID: String, atOrBefore tick: Int64) throws
    -> Snapshot?
  {
    try database.query(
      """
      SELECT session_id, tick, state FROM snapshots
      WHERE session_id = ? AND tick <= ? ORDER BY tick DESC LIMIT 1
      """, [.text(sessionID), .integer(tick)]
    ) {
      Snapshot(sessionID: $0.string(0), tick: $0.int64(1), state: $0.blob(2))
    }.first
  }
}
