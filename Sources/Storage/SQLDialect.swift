/// The SQL that differs between the two databases a store runs on. Everything else the stores
/// say is written once, in SQL both accept (`?` or `?N` parameters, `ON CONFLICT`, `RETURNING`).
public enum SQLDialect: String, Sendable {
  case sqlite
  case postgresql

  /// Appended to a SELECT that reads rows the transaction goes on to decide about, so that no
  /// other process changes them before it commits. SQLite's BEGIN IMMEDIATE already excludes
  /// every other writer.
  var lockingRead: String {
    switch self {
    case .sqlite: ""
    case .postgresql: " FOR UPDATE"
    }
  }

  /// The statement that makes a transaction wait for others that take the same `lock` (for a
  /// rule over many rows, such as a table's size limit); nil where transactions are serial.
  func serialize(_ lock: TableLock) -> (sql: String, values: [SQLValue])? {
    switch self {
    case .sqlite: nil
    case .postgresql: ("SELECT pg_advisory_xact_lock(?1)", [.integer(lock.key)])
    }
  }

  /// The statement that tells every process listening on `channel` (`StoreWatch`) of
  /// `payload` once the transaction commits; nil where the store is one process's alone.
  func notify(_ channel: String, _ payload: String) -> (sql: String, values: [SQLValue])? {
    switch self {
    case .sqlite: nil
    case .postgresql: ("SELECT pg_notify(?1, ?2)", [.text(channel), .text(payload)])
    }
  }

  /// The database's clock now, in unix seconds (the time of the statement, not of its
  /// transaction's start): what every process's leases are judged by.
  var clockNow: String {
    switch self {
    case .sqlite: "SELECT (julianday('now') - 2440587.5) * 86400.0"
    case .postgresql: "SELECT EXTRACT(EPOCH FROM clock_timestamp())::double precision"
    }
  }

  /// The UTF-8 bytes of `column`'s text, not its characters (SQLite's `length` of text counts
  /// characters; both still read the whole value).
  func byteLength(_ column: String) -> String {
    switch self {
    case .sqlite: "length(CAST(\(column) AS BLOB))"
    case .postgresql: "octet_length(\(column))"
    }
  }

  /// The bytes the database takes on disk.
  var sizeQuery: String {
    switch self {
    case .sqlite:
      "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
    case .postgresql: "SELECT pg_database_size(current_database())"
    }
  }

  /// Run after deleting many rows to give their space back, if the database needs telling.
  var reclaimSpace: String? {
    switch self {
    case .sqlite: "PRAGMA incremental_vacuum"
    // NB: autovacuum makes the space of deleted rows reusable; only VACUUM FULL, which locks
    // the table, would shrink the files.
    case .postgresql: nil
    }
  }

  /// The table of applied migrations.
  var migrationsTable: String {
    switch self {
    case .sqlite:
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        position INTEGER PRIMARY KEY NOT NULL,
        name TEXT NOT NULL UNIQUE,
        sql_sha256 TEXT NOT NULL,
        applied_at REAL NOT NULL
      )
      """
    case .postgresql:
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        position BIGINT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL UNIQUE,
        sql_sha256 TEXT NOT NULL,
        applied_at DOUBLE PRECISION NOT NULL
      )
      """
    }
  }

  /// The database's clock as unix seconds, for `schema_migrations.applied_at`.
  var unixTimeNow: String {
    switch self {
    case .sqlite: "(julianday('now') - 2440587.5) * 86400.0"
    case .postgresql: "extract(epoch from clock_timestamp())"
    }
  }

  /// The statements that take and give back a lock held across transactions (migrating, which
  /// commits once per migration); nil where the store's own lock already excludes others.
  func sessionLock(_ lock: TableLock) -> (take: String, give: String, values: [SQLValue])? {
    switch self {
    case .sqlite: nil
    case .postgresql:
      ("SELECT pg_advisory_lock(?1)", "SELECT pg_advisory_unlock(?1)", [.integer(lock.key)])
    }
  }

  /// The condition that keeps the recipes (`recipes AS r`) matching a full-text `query`, with
  /// its parameter as `?N`: FTS5 on SQLite, the tsvector column on PostgreSQL.
  func recipeSearch(_ query: RecipeQuery, parameter: Int) -> (sql: String, value: SQLValue)? {
    switch self {
    case .sqlite:
      query.ftsQuery.map {
        ("r.id IN (SELECT rowid FROM recipes_fts WHERE recipes_fts MATCH ?\(parameter))", .text($0))
      }
    case .postgresql:
      query.tsQuery.map {
        ("r.search_vector @@ to_tsquery('simple', ?\(parameter))", .text($0))
      }
    }
  }
}
