/// Opens the store a `--database` value names: a `postgresql://` URL is PostgreSQL, shared by
/// every Playfield process pointed at it; anything else is a SQLite file for this process alone.
public enum SessionStores {
  /// Opens the store at `database`. `holder` says what this process serves (e.g.
  /// `http://127.0.0.1:8080`), for the message a second process gets on the same SQLite file.
  ///
  /// Throws, with a one-line description: `PostgresError` (`cannot connect to PostgreSQL at
  /// URL: <reason>`), `DatabaseLockError.inUse` (another process has the SQLite file), or
  /// `SQLiteError` / `MigrationError`.
  public static func open(_ database: String, limits: StoreLimits, holder: String = "") throws
    -> any SessionStore
  {
    if PostgresURL.isPostgreSQL(database) {
      return try PostgresSessionStore(url: database, limits: limits)
    }
    return try SQLiteSessionStore(path: database, limits: limits, holder: holder)
  }
}
