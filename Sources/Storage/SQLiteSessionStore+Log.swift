extension SQLiteSessionStore {
  @discardableResult
  public func write(_ batch: WriteBatch) throws -> Int {
    guard !batch.isEmpty else { return 0 }
    let keep = Int64(max(1, limits.snapshotsPerSession))
    return try withWriter { database in
      try database.transaction {
        var stored: [String: Bool] = [:]
        func isStored(_ id: String) throws -> Bool {
          if let known = stored[id] { return known }
          let rows = try database.query("SELECT 1 FROM sessions WHERE id = ?", [.text(id)]) {
            _ in true
          }
          stored[id] = !rows.isEmpty
          return !rows.isEmpty
        }

        var skipped = 0
        for progress in batch.progress {
          guard try isStored(progress.sessionID) else {
            skipped += 1
            continue
          }
          try database.execute(
            "UPDATE sessions SET status = ?, tick = ?, updated_at = ? WHERE id = ?",
            [
              .text(progress.status.rawValue), .integer(progress.tick), .real(progress.updatedAt),
              .text(progress.sessionID),
            ])
        }
        // NB: OR REPLACE makes a batch idempotent, so retrying one that did commit is harmless.
        for input in batch.inputs {
          guard try isStored(input.sessionID) else {
            skipped += 1
            continue
          }
          try database.execute(
            "INSERT OR REPLACE INTO inputs (session_id, tick, seq, input) VALUES (?, ?, ?, ?)",
            [.text(input.sessionID), .integer(input.tick), .integer(input.seq), .text(input.input)])
        }
        var snapshotted: [String] = []
        for snapshot in batch.snapshots {
          guard try isStored(snapshot.sessionID) else {
            skipped += 1
            continue
          }
          try database.execute(
            "INSERT OR REPLACE INTO snapshots (session_id, tick, state) VALUES (?, ?, ?)",
            [.text(snapshot.sessionID), .integer(snapshot.tick), .blob(snapshot.state)])
          if !snapshotted.contains(snapshot.sessionID) { snapshotted.append(snapshot.sessionID) }
        }
        for id in snapshotted {
          try database.execute(
            """
            DELETE FROM snapshots WHERE session_id = ?1 AND tick NOT IN
              (SELECT tick FROM snapshots WHERE session_id = ?1 ORDER BY tick DESC LIMIT ?2)
            """, [.text(id), .integer(keep)])
        }
        return skipped
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
}
