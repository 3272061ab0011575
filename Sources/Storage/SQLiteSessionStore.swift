import Synchronization

/// The `SessionStore` on one SQLite file: one writing and one reading connection, in WAL mode.
///
/// Writes are serialized on the writer connection; reads go to the reader connection so they
/// never wait behind a flush (WAL lets them run side by side). Safe to use from any thread.
public final class SQLiteSessionStore: SessionStore {
  /// The bounds this store enforces.
  public let limits: StoreLimits
  private let writer: Mutex<Database>
  private let reader: Mutex<Database>
  private let readOnly: Bool
  /// The file opened, and its identity then.
  private let path: String
  private let opened: FileIdentity?

  /// Opens (or creates) the database at `path` and applies `Schema.migrations`.
  ///
  /// With `readOnly`, or when the file is not writable, it still opens a migrated database for
  /// reading, and every write throws `SQLiteError` of kind `.readOnly`.
  public init(
    path: String, limits: StoreLimits = StoreLimits(), readOnly: Bool = false,
    busyTimeoutMilliseconds: Int32 = 2000
  ) throws {
    let writer = try Database(
      path: path,
      options: Database.Options(
        readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    try writer.migrate(Schema.migrations)
    let reader = try Database(
      path: path,
      options: Database.Options(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    self.readOnly = writer.isReadOnly
    self.path = path
    self.opened = DatabaseFileCheck.identity(of: path)
    self.limits = limits
    self.writer = Mutex(writer)
    self.reader = Mutex(reader)
  }

  /// True when the database cannot be written (opened read-only or the file is not writable).
  public var isReadOnly: Bool { readOnly }

  /// Whether the path still names the file opened (a deleted or replaced file loses every
  /// later write at the next restart).
  public var fileCheck: DatabaseFileCheck {
    DatabaseFileCheck.check(path: path, opened: opened)
  }

  /// Runs `body` with the writing connection, holding its lock.
  func withWriter<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
    try writer.withLock { database in try body(database) }
  }

  /// Runs `body` with the reading connection, holding its lock.
  func withReader<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
    try reader.withLock { database in try body(database) }
  }

  /// Runs `body` with the reading connection when no other read holds it; nil when one does.
  func withReaderIfAvailable<T: Sendable>(_ body: (Database) throws -> T) throws -> T? {
    try reader.withLockIfAvailable { database in try body(database) }
  }

  @discardableResult
  public func createSession(_ session: StoredSession) throws -> [String] {
    guard !session.id.isEmpty, session.id.utf8.count <= 128 else {
      throw StoreError.invalidValue(field: "id", reason: "must have 1 to 128 bytes")
    }
    guard session.config.utf8.count <= limits.maxConfigBytes else {
      throw StoreError.invalidValue(
        field: "config", reason: "is larger than \(limits.maxConfigBytes) bytes")
    }
    let limit = limits.maxSessions
    return try withWriter { database in
      try database.transaction {
        let found = try database.query("SELECT 1 FROM sessions WHERE id = ?", [.text(session.id)]) {
          _ in true
        }
        guard found.isEmpty else { throw StoreError.sessionExists(id: session.id) }
        let count = try database.query("SELECT COUNT(*) FROM sessions") { Int($0.int64(0)) }
        let excess = (count.first ?? 0) - limit + 1
        var evicted: [String] = []
        if excess > 0 {
          evicted = try database.query(
            "SELECT id FROM sessions WHERE status != ? ORDER BY updated_at, id LIMIT ?",
            [.text(SessionStatus.running.rawValue), .integer(Int64(excess))]
          ) { $0.string(0) }
          guard evicted.count == excess else { throw StoreError.tooManySessions(limit: limit) }
          for id in evicted {
            try database.execute("DELETE FROM sessions WHERE id = ?", [.text(id)])
          }
        }
        try database.execute(
          """
          INSERT INTO sessions
            (id, kind, config, seed, status, created_at, updated_at, tick, token_hash)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(session.id), .text(session.kind), .text(session.config),
            .integer(Int64(bitPattern: session.seed)), .text(session.status.rawValue),
            .real(session.createdAt), .real(session.updatedAt), .integer(session.tick),
            .text(session.tokenHash),
          ])
        return evicted
      }
    }
  }

  public func session(id: String) throws -> StoredSession? {
    try withReader { database in
      try database.query(
        "SELECT \(Self.sessionColumns) FROM sessions WHERE id = ?", [.text(id)],
        row: Self.storedSession
      ).first
    }
  }

  public func listSessions(status: SessionStatus?) throws -> [StoredSession] {
    try withReader { database in
      guard let status else {
        return try database.query(
          "SELECT \(Self.sessionColumns) FROM sessions ORDER BY updated_at DESC, id",
          row: Self.storedSession)
      }
      return try database.query(
        "SELECT \(Self.sessionColumns) FROM sessions WHERE status = ? ORDER BY updated_at DESC, id",
        [.text(status.rawValue)], row: Self.storedSession)
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
        let ids = try database.query(
          "SELECT id FROM sessions WHERE updated_at < ? ORDER BY updated_at, id", [.real(cutoff)]
        ) { $0.string(0) }
        try database.execute("DELETE FROM sessions WHERE updated_at < ?", [.real(cutoff)])
        return ids
      }
      // Give the freed pages back to the file system (the file uses auto_vacuum = INCREMENTAL).
      try database.executeScript("PRAGMA incremental_vacuum")
      return deleted
    }
  }

  public func statistics() throws -> StoreStatistics {
    try withReader { database in
      let sessions = try database.query("SELECT COUNT(*) FROM sessions") { Int($0.int64(0)) }
      let pages = try database.query("PRAGMA page_count") { $0.int64(0) }
      let pageSize = try database.query("PRAGMA page_size") { $0.int64(0) }
      return StoreStatistics(sessions: sessions[0], bytes: pages[0] * pageSize[0])
    }
  }

  /// Copies the WAL into the database file and empties it (e.g. at shutdown, after the writer
  /// is closed), so the file alone holds everything.
  public func checkpoint() throws {
    try withWriter { database in
      _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    }
  }

  private static let sessionColumns =
    "id, kind, config, seed, status, created_at, updated_at, tick, token_hash"

  private static func storedSession(_ row: Row) -> StoredSession {
    StoredSession(
      id: row.string(0), kind: row.string(1), config: row.string(2),
      seed: UInt64(bitPattern: row.int64(3)),
      // NB: a status this version does not know (written by a newer one) reads as paused, so
      // the session is kept and listed but not resumed.
      status: SessionStatus(rawValue: row.string(4)) ?? .paused,
      createdAt: row.double(5), updatedAt: row.double(6), tick: row.int64(7),
      tokenHash: row.string(8))
  }
}
