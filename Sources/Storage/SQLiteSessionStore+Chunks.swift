extension SQLiteSessionStore {
  /// At most `limit` inputs of a session after `position`, in tick then seq order; nil when
  /// `wait` is false and another read holds the reading connection (ask again later).
  public func inputs(
    sessionID: String, after position: LogPosition, limit: Int, wait: Bool = true
  ) throws -> [LoggedInput]? {
    let query = { (database: Database) throws -> [LoggedInput] in
      try database.query(
        """
        SELECT session_id, tick, seq, input FROM inputs
        WHERE session_id = ? AND (tick, seq) > (?, ?) ORDER BY tick, seq LIMIT ?
        """,
        [
          .text(sessionID), .integer(position.tick), .integer(position.seq),
          .integer(Int64(max(1, limit))),
        ]
      ) {
        LoggedInput(
          sessionID: $0.string(0), tick: $0.int64(1), seq: $0.int64(2), input: $0.string(3))
      }
    }
    return wait ? try withReader(query) : try withReaderIfAvailable(query)
  }

  /// The tick of a session's last logged input, or nil when it has none.
  public func lastInputTick(sessionID: String) throws -> Int64? {
    try withReader { database in
      try database.query(
        "SELECT MAX(tick) FROM inputs WHERE session_id = ?", [.text(sessionID)]
      ) { row -> Int64? in row.isNull(0) ? nil : row.int64(0) }.first ?? nil
    }
  }

  /// The newest snapshot taken at or before `tick`, or nil when there is none or (with `wait`
  /// false) another read holds the reading connection.
  public func snapshot(sessionID: String, atOrBefore tick: Int64, wait: Bool) throws
    -> Snapshot?
  {
    guard !wait else { return try snapshot(sessionID: sessionID, atOrBefore: tick) }
    let found = try withReaderIfAvailable { database in
      try Self.snapshot(in: database, sessionID: sessionID, atOrBefore: tick)
    }
    return found ?? nil
  }
}
