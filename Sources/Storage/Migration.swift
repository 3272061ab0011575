/// One named schema change, in both SQL dialects. Migrations are only ever appended: a shipped
/// one never changes.
public struct Migration: Sendable, Equatable {
  /// A unique, stable name such as "create-sessions", recorded once applied.
  public let name: String
  /// The SQL to run on SQLite, one or more `;`-separated statements.
  public let sqlite: String
  /// The same change for PostgreSQL.
  public let postgresql: String

  /// Makes a migration whose SQL differs between the dialects.
  public init(name: String, sqlite: String, postgresql: String) {
    self.name = name
    self.sqlite = sqlite
    self.postgresql = postgresql
  }

  /// Makes a migration whose SQL both dialects accept as it is.
  public init(name: String, sql: String) {
    self.init(name: name, sqlite: sql, postgresql: sql)
  }

  /// The SQL for `dialect`.
  func sql(_ dialect: SQLDialect) -> String {
    switch dialect {
    case .sqlite: sqlite
    case .postgresql: postgresql
    }
  }

  /// The SHA-256 of the dialect's SQL in hex, recorded to catch edits to an applied migration.
  func checksum(_ dialect: SQLDialect) -> String {
    TokenHash.hex(TokenHash.sha256(Array(sql(dialect).utf8)))
  }
}
