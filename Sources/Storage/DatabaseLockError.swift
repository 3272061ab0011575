/// Why a SQLite file could not be opened for writing by this process.
public enum DatabaseLockError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Another process has the file open for writing; `holder` says who: its pid, host and what
  /// it serves, e.g. `pid 4242 on host web1: http://127.0.0.1:8080`.
  case inUse(path: String, holder: String)
  /// The lock file next to the database cannot be made or locked.
  case cannotLock(path: String, reason: String)

  public var description: String {
    switch self {
    case .inUse(let path, let holder):
      "the database \(path) is in use by another Playfield process (\(holder)); stop it, or "
        + "give this one another database (a SQLite file is for one process; PostgreSQL is shared)"
    case .cannotLock(let path, let reason):
      "cannot lock \(path), which keeps a second process off the database: \(reason)"
    }
  }
}
