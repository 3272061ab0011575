import Synchronization

/// The `SessionStore` on one SQLite file: one writing and one reading connection, in WAL mode,
/// and one process at a time.
///
/// Writes are serialized on the writer connection; reads go to the reader connection so they
/// never wait behind a flush (WAL lets them run side by side). Safe to use from any thread.
/// Opened for writing, it holds `<file>.lock` (`DatabaseLock`): a second process opening the
/// same file is refused with `DatabaseLockError.inUse`, naming the first.
public final class SQLiteSessionStore: SQLSessionStore {
  /// The bounds this store enforces.
  public let limits: StoreLimits
  private let writer: Mutex<Database>
  private let reader: Mutex<Database>
  private let readOnly: Bool
  /// The file opened, and its identity then.
  private let path: String
  private let opened: FileIdentity?
  /// This process's hold on the file; nil when opened read-only.
  private let lock: DatabaseLock?

  /// Opens (or creates) the database at `path` and applies `Schema.migrations`.
  ///
  /// With `readOnly`, or when the file is not writable, it still opens a migrated database for
  /// reading, and every write throws `SQLiteError` of kind `.readOnly`. Opened for writing,
  /// it takes the file's lock, naming this process and `holder` (e.g. the address it serves)
  /// to any other that tries, and (the first store of this process on the file) gives up
  /// every session lease: they were a dead process's.
  public init(
    path: String, limits: StoreLimits = StoreLimits(), readOnly: Bool = false,
    busyTimeoutMilliseconds: Int32 = 2000, holder: String = ""
  ) throws {
    let writer = try Database(
      path: path,
      options: Database.Options(
        readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    let lock = writer.isReadOnly ? nil : try DatabaseLock(databasePath: path, holder: holder)
    try Self.migrate(writer)
    if lock?.isFirstInProcess == true {
      // NB: leases of a SQLite file can only be this process's predecessors', which are dead
      // (the lock says so): hand them back at once rather than wait for them to run out.
      try writer.execute(
        """
        UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL
        WHERE lease_owner IS NOT NULL
        """)
    }
    let reader = try Database(
      path: path,
      options: Database.Options(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    self.readOnly = writer.isReadOnly
    self.path = path
    self.opened = DatabaseFileCheck.identity(of: path)
    self.limits = limits
    self.lock = lock
    self.writer = Mutex(writer)
    self.reader = Mutex(reader)
  }

  /// Applies `Schema.migrations` with a checkpoint after each one's commit, then, if any was
  /// applied, empties the WAL. NB: a fresh file's migrations, one transaction each, write about
  /// 1.3 MB of WAL with 16 KiB pages if it only grows; this way it holds one migration at a
  /// time, and the first flush starts from an empty WAL.
  private static func migrate(_ writer: Database) throws {
    guard !writer.isReadOnly else {
      try writer.migrate(Schema.migrations)
      return
    }
    try writer.execute("PRAGMA wal_autocheckpoint = 1")
    let applied = try writer.migrate(Schema.migrations)
    try writer.execute("PRAGMA wal_autocheckpoint = \(walAutocheckpointPages)")
    if !applied.isEmpty {
      _ = try writer.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    }
  }

  /// SQLite's default: a checkpoint once a commit leaves the WAL over this many pages.
  private static let walAutocheckpointPages = 1000

  /// True when the database cannot be written (opened read-only or the file is not writable).
  public var isReadOnly: Bool { readOnly }

  /// Whether the path still names the file opened (a deleted or replaced file loses every
  /// later write at the next restart).
  public var fileCheck: DatabaseFileCheck {
    let check = DatabaseFileCheck.check(path: path, opened: opened)
    return check == .same && readOnly ? .readOnly : check
  }

  /// Rewrites what the lock file says of this process, e.g. once the address it serves is
  /// known (`pid 4242 on host web1: HOLDER`).
  public func describeHolder(_ holder: String) {
    lock?.describe(holder: holder)
  }

  func withWriter<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
    try writer.withLock { database in try body(database) }
  }

  func withReader<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
    try reader.withLock { database in try body(database) }
  }

  func withReaderIfAvailable<T: Sendable>(_ body: (Database) throws -> T) throws -> T? {
    try reader.withLockIfAvailable { database in try body(database) }
  }

  /// Copies the WAL into the database file and empties it (e.g. at shutdown, after the writer
  /// is closed), so the file alone holds everything.
  public func checkpoint() throws {
    try withWriter { database in
      _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    }
  }
}
