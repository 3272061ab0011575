/// One named schema change. Migrations are only ever appended: a shipped one never changes.
public struct Migration: Sendable, Equatable {
  /// A unique, stable name such as "create-sessions", recorded once applied.
  public let name: String
  /// The SQL to run, one or more `;`-separated statements.
  public let sql: String

  /// Makes a migration.
  public init(name: String, sql: String) {
    self.name = name
    self.sql = sql
  }

  /// The SHA-256 of `sql` in hex, recorded to catch edits to a migration already applied.
  var checksum: String {
    TokenHash.hex(TokenHash.sha256(Array(sql.utf8)))
  }
}
