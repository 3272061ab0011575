import CSQLite
import Testing

@testable import Storage

@Suite struct DatabaseTests {
  @Test func opensWithWALForeignKeysAndNormalSync() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    #expect(try database.query("PRAGMA journal_mode") { $0.string(0) } == ["wal"])
    #expect(try database.query("PRAGMA foreign_keys") { $0.int64(0) } == [1])
    #expect(try database.query("PRAGMA synchronous") { $0.int64(0) } == [1])  // NORMAL
    #expect(try database.query("PRAGMA auto_vacuum") { $0.int64(0) } == [2])  // INCREMENTAL
    #expect(!database.isReadOnly)
  }

  @Test func roundTripsEveryStorageClass() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
    let values: [[SQLValue]] = [
      [.integer(.min), .real(-0.5), .text(""), .blob([]), .null],
      [.integer(.max), .real(1e300), .text("a\u{0}b ✓ 😀"), .blob([0, 255, 7]), .integer(3)],
    ]
    for row in values {
      try database.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", row)
    }
    let read = try database.query("SELECT i, r, s, b, n, typeof(s), typeof(b) FROM t ORDER BY i") {
      row in
      [
        SQLValue.integer(row.int64(0)), .real(row.double(1)), .text(row.string(2)),
        .blob(row.blob(3)), row.isNull(4) ? .null : .integer(row.int64(4)), .text(row.string(5)),
        .text(row.string(6)),
      ]
    }
    // NB: the empty string and the empty blob stay empty values, not NULL.
    #expect(read[0] == values[0] + [.text("text"), .text("blob")])
    #expect(read[1] == values[1] + [.text("text"), .text("blob")])
  }

  @Test func wrongParameterCountIsMisuse() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    try database.execute("CREATE TABLE t (x)")
    let error = try #require(throws: SQLiteError.self) {
      try database.execute("INSERT INTO t VALUES (?)", [.integer(1), .integer(2)])
    }
    #expect(error.kind == .misuse)
    #expect(error.message.contains("takes 1 parameters, 2 given"))
  }

  @Test func syntaxErrorCarriesSQLiteMessage() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let error = try #require(throws: SQLiteError.self) { try database.execute("SELEC 1") }
    #expect(error.code == SQLITE_ERROR)
    #expect(error.kind == .other)
    #expect(error.sqliteMessage.contains("syntax error"))
  }

  @Test func constraintErrorHasExtendedCode() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
    try database.execute("INSERT INTO t (name) VALUES ('a')")
    let error = try #require(throws: SQLiteError.self) {
      try database.execute("INSERT INTO t (name) VALUES ('a')")
    }
    #expect(error.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.kind == .constraint)
    #expect(!error.isTransient)
    #expect(error.message == "constraint failed: UNIQUE constraint failed: t.name")
  }

  @Test func transactionRollsBackWhenBodyThrows() throws {
    struct Boom: Error {}
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    try database.execute("CREATE TABLE t (x)")
    #expect(throws: Boom.self) {
      try database.transaction {
        try database.execute("INSERT INTO t VALUES (1)")
        throw Boom()
      }
    }
    try database.transaction { try database.execute("INSERT INTO t VALUES (2)") }
    #expect(try database.query("SELECT x FROM t") { $0.int64(0) } == [2])
  }

  @Test func executeReportsChangedRows() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    try database.execute("CREATE TABLE t (x)")
    try database.executeScript("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
    #expect(try database.execute("UPDATE t SET x = x + 1") == 2)
    #expect(try database.execute("DELETE FROM t WHERE x = 3") == 1)
  }

  @Test func missingDirectoryCannotOpen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let error = try #require(throws: SQLiteError.self) {
      try Database(path: directory.file("missing/t.db"))
    }
    #expect(error.code & 0xFF == SQLITE_CANTOPEN)
    #expect(error.message.hasPrefix("cannot open the database file"))
  }
}
