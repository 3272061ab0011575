extension SQLConnection {
  /// Applies the migrations not yet recorded, each in its own transaction; returns their names.
  ///
  /// The recorded migrations must be a prefix of `migrations`, same names, same SQL (in this
  /// connection's dialect).
  @discardableResult
  func migrate(_ migrations: [Migration]) throws -> [String] {
    var names = Set<String>()
    for migration in migrations where !names.insert(migration.name).inserted {
      throw MigrationError.duplicateName(migration.name)
    }
    guard let lock = dialect.sessionLock(.migrations) else {
      return try applyMissing(migrations)
    }
    _ = try query(lock.take, lock.values) { _ in () }
    defer { _ = try? query(lock.give, lock.values) { _ in () } }
    return try applyMissing(migrations)
  }

  /// The names of the migrations recorded in this database, in the order they were applied.
  func appliedMigrations() throws -> [String] {
    try query("SELECT name FROM schema_migrations ORDER BY position", []) { $0.string(0) }
  }

  private func applyMissing(_ migrations: [Migration]) throws -> [String] {
    try executeScript(dialect.migrationsTable)
    let recorded = try query("SELECT position, name, sql_sha256 FROM schema_migrations", []) {
      (position: Int($0.int64(0)), name: $0.string(1), checksum: $0.string(2))
    }
    for (position, record) in recorded.sorted(by: { $0.position < $1.position }).enumerated() {
      guard position == record.position, position < migrations.count else {
        throw MigrationError.unknownMigration(name: record.name, position: record.position)
      }
      let expected = migrations[position]
      guard record.name == expected.name else {
        throw MigrationError.reordered(
          position: position, recorded: record.name, expected: expected.name)
      }
      guard record.checksum == expected.checksum(dialect) else {
        throw MigrationError.changed(name: record.name)
      }
    }

    var applied: [String] = []
    for (position, migration) in migrations.enumerated().dropFirst(recorded.count) {
      try transaction {
        try executeScript(migration.sql(dialect))
        try execute(
          """
          INSERT INTO schema_migrations (position, name, sql_sha256, applied_at)
          VALUES (?, ?, ?, \(dialect.unixTimeNow))
          """,
          [
            .integer(Int64(position)), .text(migration.name),
            .text(migration.checksum(dialect)),
          ])
      }
      applied.append(migration.name)
    }
    return applied
  }
}
