extension SQLSessionStore {
  /// Writes the batch in one transaction. Each session's row is read (and, on PostgreSQL,
  /// locked) first: rows of a session no longer stored are skipped, rows of a session whose
  /// lease is not the one they were made under are refused and the session reported lost.
  @discardableResult
  public func write(_ batch: WriteBatch) throws -> WriteResult {
    guard !batch.isEmpty else { return WriteResult() }
    let keep = Int64(max(1, limits.snapshotsPerSession))
    return try withWriter { database in
      try database.transaction {
        var stored: [String: (owner: String?, epoch: Int64, clock: String)] = [:]
        // NB: in id order, so that two processes' batches lock rows in the same order.
        for chunk in SQLRows.chunks(batch.sessionIDs) {
          let rows = try database.query(
            """
            SELECT id, lease_owner, lease_epoch, clock FROM sessions
            WHERE id IN \(SQLRows.placeholders(rows: 1, columns: chunk.count)) ORDER BY id
            """ + database.dialect.lockingRead, chunk.map { .text($0) }
          ) {
            (id: $0.string(0), owner: $0.optionalString(1), epoch: $0.int64(2), clock: $0.string(3))
          }
          for row in rows { stored[row.id] = (row.owner, row.epoch, row.clock) }
        }
        var writable = Set<String>()
        var gone = Set<String>()
        var lost: [String] = []
        for id in batch.sessionIDs {
          guard let stored = stored[id] else {
            gone.insert(id)
            continue
          }
          let lease = batch.leases[id] ?? batch.releases.first { $0.sessionID == id }
          if Lease.permits(lease, storedOwner: stored.owner, storedEpoch: stored.epoch) {
            writable.insert(id)
          } else {
            lost.append(id)
          }
        }
        let compacted = writable.filter { stored[$0]?.clock == Self.compactedClock }
        try database.executeBatch(
          Self.statements(for: batch, writable: writable, keep: keep, compacted: compacted))
        let rows = { (ids: Set<String>) in
          batch.inputs.count(where: { ids.contains($0.sessionID) })
            + batch.snapshots.count(where: { ids.contains($0.sessionID) })
            + batch.progress.count(where: { ids.contains($0.sessionID) })
        }
        return WriteResult(
          skippedRows: rows(gone), refusedRows: rows(Set(lost)), lostSessions: lost)
      }
    }
  }

  // NB: the one place rows become inputs: a packed row (`LoggedInput.packed`, keyed by its last
  // tick) is unpacked here, so every reader (replays, seeks, resume, `/inputs` pages) sees
  // the same inputs, by tick and seq, whichever form they were written in.
  public func inputs(sessionID: String, afterTick: Int64, throughTick: Int64) throws
    -> [LoggedInput]
  {
    try withReader { database in
      try database.query(
        """
        SELECT session_id, tick, seq, input FROM inputs
        WHERE session_id = ? AND tick > ? AND (tick <= ? OR seq = ?) ORDER BY tick, seq
        """,
        [
          .text(sessionID), .integer(afterTick), .integer(throughTick),
          .integer(LoggedInput.packedSeq),
        ], row: LoggedInput.init(row:)
      ).flatMap(\.unpacked).filter { $0.tick > afterTick && $0.tick <= throughTick }
    }
  }

  public func inputs(
    sessionID: String, after position: LogPosition, limit: Int, wait: Bool
  ) throws -> [LoggedInput]? {
    let limit = max(1, limit)
    let query = { (database: Connection) throws -> [LoggedInput] in
      var found: [LoggedInput] = []
      var cursor = position
      // NB: a packed row holding `position` yields only its inputs after it: read on until
      // `limit` inputs or the end, so a short answer always means the end of the log. A row
      // may pack hundreds of inputs, so rows are read a few first, then four times as many
      // each round: `limit` rows at once read (and unpacked) a whole log for a page of it.
      var rows = min(limit, 16)
      while found.count < limit {
        let read = try database.query(
          """
          SELECT session_id, tick, seq, input FROM inputs
          WHERE session_id = ? AND (tick, seq) > (?, ?) ORDER BY tick, seq LIMIT ?
          """,
          [
            .text(sessionID), .integer(cursor.tick), .integer(cursor.seq),
            .integer(Int64(rows)),
          ], row: LoggedInput.init(row:))
        for row in read where found.count < limit {
          found += row.unpacked.filter {
            $0.tick > position.tick || ($0.tick == position.tick && $0.seq > position.seq)
          }
        }
        guard read.count == rows, let last = read.last else { break }
        cursor = LogPosition(tick: last.tick, seq: last.seq)
        rows = min(limit, rows * 4)
      }
      return Array(found.prefix(limit))
    }
    return wait ? try withReader(query) : try withReaderIfAvailable(query)
  }

  public func logStart(sessionID: String, wait: Bool) throws -> Int64? {
    let query = { (database: Connection) throws -> Int64 in
      try database.query(
        "SELECT log_start FROM sessions WHERE id = ?", [.text(sessionID)]
      ) { $0.int64(0) }.first ?? 0
    }
    return wait ? try withReader(query) : try withReaderIfAvailable(query)
  }

  public func lastInputTick(sessionID: String) throws -> Int64? {
    try withReader { database in
      try database.query(
        "SELECT MAX(tick) FROM inputs WHERE session_id = ?", [.text(sessionID)]
      ) { row -> Int64? in row.isNull(0) ? nil : row.int64(0) }.first ?? nil
    }
  }

  public func snapshot(sessionID: String, atOrBefore tick: Int64) throws -> Snapshot? {
    try withReader { database in
      try Self.snapshot(in: database, sessionID: sessionID, atOrBefore: tick)
    }
  }

  public func snapshot(sessionID: String, atOrBefore tick: Int64, wait: Bool) throws
    -> Snapshot?
  {
    guard !wait else { return try snapshot(sessionID: sessionID, atOrBefore: tick) }
    let found = try withReaderIfAvailable { database in
      try Self.snapshot(in: database, sessionID: sessionID, atOrBefore: tick)
    }
    return found ?? nil
  }

  /// The newest snapshot at or before `tick`, read on `database`.
  private static func snapshot(in database: Connection, sessionID: String, atOrBefore tick: Int64)
    throws -> Snapshot?
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

  /// The clock (`sessions.clock`) of the sessions whose log is compacted behind their
  /// snapshots: on-demand sessions, stepped by scripts and learning agents for millions of
  /// steps. Realtime sessions keep their whole log.
  static var compactedClock: String { "on-demand" }

  /// The statements that write a batch's rows of the `writable` sessions: progress, inputs and
  /// snapshots (upserts, so writing a batch twice stores it once) many rows to a statement,
  /// old snapshots pruned to `keep`, the logs of `compacted` sessions with a new snapshot cut
  /// behind the oldest kept one (`compaction`), then the leases given up.
  private static func statements(
    for batch: WriteBatch, writable: Set<String>, keep: Int64, compacted: Set<String> = []
  ) -> [BatchStatement] {
    var statements: [BatchStatement] = []
    let progress = SQLRows.lastOfEach(
      batch.progress.filter { writable.contains($0.sessionID) }, key: \.sessionID)
    for chunk in SQLRows.chunks(progress) {
      // NB: both databases name the columns of a VALUES list column1, column2, ...
      statements.append(
        BatchStatement(
          sql: """
            UPDATE sessions SET status = v.column2, tick = v.column3, updated_at = v.column4
            FROM (VALUES \(SQLRows.placeholders(rows: chunk.count, columns: 4))) AS v
            WHERE sessions.id = v.column1
            """,
          values: chunk.flatMap { update -> [SQLValue] in
            [
              .text(update.sessionID), .text(update.status.rawValue), .integer(update.tick),
              .real(update.updatedAt),
            ]
          }))
    }
    let inputs = SQLRows.lastOfEach(batch.inputs.filter { writable.contains($0.sessionID) }) {
      LogKey(sessionID: $0.sessionID, tick: $0.tick, seq: $0.seq)
    }
    for chunk in SQLRows.chunks(inputs) {
      statements.append(
        BatchStatement(
          sql: """
            INSERT INTO inputs (session_id, tick, seq, input)
            VALUES \(SQLRows.placeholders(rows: chunk.count, columns: 4))
            ON CONFLICT (session_id, tick, seq) DO UPDATE SET input = excluded.input
            """,
          values: chunk.flatMap { input -> [SQLValue] in
            [.text(input.sessionID), .integer(input.tick), .integer(input.seq), .text(input.input)]
          }))
    }
    let snapshots = SQLRows.lastOfEach(
      batch.snapshots.filter { writable.contains($0.sessionID) }
    ) { LogKey(sessionID: $0.sessionID, tick: $0.tick, seq: 0) }
    for chunk in SQLRows.chunks(snapshots) {
      statements.append(
        BatchStatement(
          sql: """
            INSERT INTO snapshots (session_id, tick, state)
            VALUES \(SQLRows.placeholders(rows: chunk.count, columns: 3))
            ON CONFLICT (session_id, tick) DO UPDATE SET state = excluded.state
            """,
          values: chunk.flatMap { snapshot -> [SQLValue] in
            [.text(snapshot.sessionID), .integer(snapshot.tick), .blob(snapshot.state)]
          }))
    }
    for id in Set(batch.snapshots.map(\.sessionID)).intersection(writable).sorted() {
      statements.append(
        BatchStatement(
          sql: """
            DELETE FROM snapshots WHERE session_id = ?1 AND tick NOT IN
              (SELECT tick FROM snapshots WHERE session_id = ?1 ORDER BY tick DESC LIMIT ?2)
            """, values: [.text(id), .integer(keep)]))
      if compacted.contains(id) { statements += compaction(of: id) }
    }
    for lease in batch.releases where writable.contains(lease.sessionID) {
      statements.append(BatchStatement(sql: release.sql, values: release.values(lease)))
    }
    return statements
  }

  /// Compacts a session's log behind its snapshots, once it keeps two or more: its log now
  /// starts at the oldest kept snapshot (`sessions.log_start`, which only rises), and the inputs
  /// at or before that tick go. A replay or resume always finds a snapshot and every input after
  /// it. Run after the snapshots are written and pruned, in the same transaction, so writing
  /// the same batch twice (inputs put back, then dropped again) ends the same.
  private static func compaction(of id: String) -> [BatchStatement] {
    [
      BatchStatement(
        sql: """
          UPDATE sessions SET log_start = kept.oldest
          FROM (
            SELECT MIN(tick) AS oldest, COUNT(*) AS kept_count FROM snapshots WHERE session_id = ?1
          ) AS kept
          WHERE sessions.id = ?1 AND kept.kept_count >= 2 AND kept.oldest > sessions.log_start
          """, values: [.text(id)]),
      BatchStatement(
        sql: """
          DELETE FROM inputs WHERE session_id = ?1
            AND tick <= (SELECT log_start FROM sessions WHERE id = ?1)
          """, values: [.text(id)]),
    ]
  }
}
