import CSQLite

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe: use each `Database` from one thread at a time (the store keeps each one in a
/// `Mutex`). Open one writing connection and, in WAL mode, read-only ones beside it.
public final class Database {
  /// How to open the connection.
  public struct Options: Sendable {
    /// Open read-only; writes then fail with `SQLiteError.Kind.readOnly`.
    public var readOnly = false
    /// How long a statement waits for another connection's lock before failing busy (ms).
    public var busyTimeoutMilliseconds: Int32 = 2000
    /// The page size of a file this connection creates, in bytes (a power of two from 512 to
    /// 65,536). An existing file keeps the page size it was made with.
    public var newFilePageSize = Database.newFilePageSize

    /// Makes options; the defaults open read-write with a two-second busy timeout, and create
    /// a missing file with 16 KiB pages.
    public init(
      readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 2000,
      newFilePageSize: Int = Database.newFilePageSize
    ) {
      self.readOnly = readOnly
      self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
      self.newFilePageSize = newFilePageSize
    }
  }

  /// The file this connection opened.
  public let path: String
  private let connection: OpaquePointer
  private var statements: [String: Statement] = [:]
  private static let statementCacheLimit = 64
  /// The page size of a new file, in bytes, unless the options say otherwise. 16 KiB: a flush's
  /// packed input rows (up to 64 KiB each) then span a quarter of the overflow pages, and the
  /// WAL's writes, reads and checkpoints fall with them (docs/benchmarks.md, "16 KiB pages").
  public static let newFilePageSize = 16_384

  /// Opens (creating if needed, with `options.newFilePageSize` pages and incremental
  /// auto-vacuum) the file at `path` and sets WAL, NORMAL sync and foreign keys.
  public init(path: String, options: Options = Options()) throws(SQLiteError) {
    var handle: OpaquePointer?
    let access =
      options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
    guard let handle else {
      throw SQLiteError(code: code, sqliteMessage: "cannot allocate a connection for \(path)")
    }
    self.path = path
    self.connection = handle
    // From here a throw releases self, and deinit closes the handle.
    try check(code, handle)
    sqlite3_extended_result_codes(handle, 1)
    try check(sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds), handle)
    try execute("PRAGMA foreign_keys = ON")
    guard !options.readOnly else { return }
    // NB: the page size and auto_vacuum can only be chosen before the first page is written,
    // i.e. in a new file, and the page size first: once auto_vacuum has been set, SQLite ignores
    // a new page size without a word. Existing files keep their page size (no silent VACUUM).
    if try query("PRAGMA page_count", row: { $0.int64(0) }).first == 0 {
      try execute("PRAGMA page_size = \(options.newFilePageSize)")
      try execute("PRAGMA auto_vacuum = INCREMENTAL")
    }
    _ = try query("PRAGMA journal_mode = WAL", row: { $0.string(0) })
    try execute("PRAGMA synchronous = NORMAL")
  }

  deinit {
    statements.removeAll()
    sqlite3_close_v2(connection)
  }

  /// True when writes are impossible (opened read-only, or the file is not writable).
  public var isReadOnly: Bool {
    sqlite3_db_readonly(connection, "main") == 1
  }

  /// Runs one statement and returns how many rows it inserted, updated or deleted.
  @discardableResult
  public func execute(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int {
    let statement = try prepared(sql)
    defer { statement.reset() }
    try statement.bind(values)
    while try statement.step() {}
    return Int(sqlite3_changes64(connection))
  }

  /// Runs one query and maps each result row with `row`.
  public func query<T>(
    _ sql: String, _ values: [SQLValue] = [], row: (Row) -> T
  ) throws(SQLiteError) -> [T] {
    let statement = try prepared(sql)
    defer { statement.reset() }
    try statement.bind(values)
    var rows: [T] = []
    while try statement.step() {
      rows.append(row(Row(handle: statement.handle)))
    }
    return rows
  }

  /// Runs several `;`-separated statements without parameters (e.g. a migration).
  public func executeScript(_ sql: String) throws(SQLiteError) {
    try check(sqlite3_exec(connection, sql, nil, nil, nil), connection)
  }

  /// Runs `body` in one write transaction (BEGIN IMMEDIATE), rolled back if anything throws.
  @discardableResult
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      // NB: after some errors (full, I/O, busy on commit) SQLite has already rolled back; a
      // second ROLLBACK would fail and hide the error that matters, so only end an open one.
      if sqlite3_get_autocommit(connection) == 0 {
        _ = try? execute("ROLLBACK")
      }
      throw error
    }
  }

  private func prepared(_ sql: String) throws(SQLiteError) -> Statement {
    if let statement = statements[sql] { return statement }
    let statement = try Statement(sql: sql, connection: connection)
    if statements.count >= Self.statementCacheLimit { statements.removeAll() }
    statements[sql] = statement
    return statement
  }
}
