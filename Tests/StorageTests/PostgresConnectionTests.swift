import Testing

@testable import Storage

/// The libpq wrapper on a real server: values in and out, errors with their SQLSTATE,
/// transactions, pipelined batches, and URLs that cannot work.
@Suite struct PostgresConnectionTests {
  /// A connection to a fresh database, and a way to drop it.
  static func connect() throws -> (PostgresConnection, () -> Void) {
    let server = try PostgresServer.shared
    let name = try server.makeDatabase()
    return (try PostgresConnection(url: server.url(name)), { server.dropDatabase(name) })
  }

  @Test func roundTripsEveryValue() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.execute(
      "CREATE TABLE t (i BIGINT, r DOUBLE PRECISION, s TEXT, b BYTEA, n BIGINT)")
    let values: [[SQLValue]] = [
      [.integer(.min), .real(-0.5), .text(""), .blob([]), .null],
      [.integer(.max), .real(1e300), .text("a'b\"c ✓ 😀 ?1 $1"), .blob([0, 255, 7]), .integer(3)],
      [.integer(0), .real(0.1 + 0.2), .text("\\x41"), .blob(Array(0...255)), .null],
    ]
    for row in values {
      try database.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", row)
    }
    let read = try database.query("SELECT i, r, s, b, n, s IS NULL, b IS NULL FROM t ORDER BY i") {
      row in
      [
        SQLValue.integer(row.int64(0)), .real(row.double(1)), .text(row.string(2)),
        .blob(row.blob(3)), row.isNull(4) ? .null : .integer(row.int64(4)), .text(row.string(5)),
        .text(row.string(6)),
      ]
    }
    // NB: the empty string and the empty blob stay empty values, not NULL; doubles are exact.
    #expect(read[0] == values[0] + [.text("f"), .text("f")])
    #expect(read[1] == values[2] + [.text("f"), .text("f")])
    #expect(read[2] == values[1] + [.text("f"), .text("f")])
  }

  @Test func aNulInTextIsRefusedNotCut() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.execute("CREATE TABLE t (s TEXT)")
    let error = try #require(throws: PostgresError.self) {
      try database.execute("INSERT INTO t VALUES (?)", [.text("a\u{0}b")])
    }
    #expect(error.sqlState == "22021")
    #expect(error.kind == .invalidData)
    #expect(try database.query("SELECT COUNT(*) FROM t") { $0.int64(0) } == [0])
  }

  @Test func wrongParameterCountIsMisuse() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    let error = try #require(throws: PostgresError.self) {
      try database.execute("SELECT ?", [.integer(1), .integer(2)])
    }
    #expect(error.kind == .misuse)
    #expect(!error.isTransient)
    #expect(error.message.contains("statement takes 1 parameters, 2 given"))
  }

  @Test func syntaxErrorCarriesTheSQLState() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    let error = try #require(throws: PostgresError.self) { try database.execute("SELEC 1") }
    #expect(error.sqlState == "42601")
    #expect(error.kind == .misuse)
    #expect(error.serverMessage.contains("syntax error"))
    #expect(try database.query("SELECT 1") { $0.int64(0) } == [1])  // still usable
  }

  @Test func constraintErrorSaysWhichKey() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT UNIQUE)")
    try database.execute("INSERT INTO t VALUES (1, 'a')")
    let error = try #require(throws: PostgresError.self) {
      try database.execute("INSERT INTO t VALUES (2, ?)", [.text("a")])
    }
    #expect(error.sqlState == "23505")
    #expect(error.kind == .constraint)
    #expect(
      error.message
        == "constraint failed: duplicate key value violates unique constraint \"t_name_key\" "
        + "(Key (name)=(a) already exists.)")
  }

  @Test func transactionRollsBackWhenBodyThrows() throws {
    struct Boom: Error {}
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.execute("CREATE TABLE t (x BIGINT)")
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
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.executeScript("CREATE TABLE t (x BIGINT); INSERT INTO t VALUES (1), (2);")
    #expect(try database.execute("UPDATE t SET x = x + 1") == 2)
    #expect(try database.execute("DELETE FROM t WHERE x = ?", [.integer(3)]) == 1)
  }

  /// More statements than one pipeline chunk, in order; a failure in the middle stops the batch
  /// and the transaction leaves nothing.
  @Test func batchesRunInOrderAndStopAtTheFirstError() throws {
    let (database, drop) = try Self.connect()
    defer { drop() }
    try database.execute("CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT)")
    let count = PostgresConnection.pipelineChunk * 2 + 17
    let inserts = (0..<count).map {
      BatchStatement(sql: "INSERT INTO t VALUES (?, ?)", values: [.integer(Int64($0)), .text("v")])
    }
    let update = BatchStatement(sql: "UPDATE t SET v = 'w' WHERE k = ?", values: [.integer(3)])
    try database.transaction { try database.executeBatch(inserts + [update]) }
    #expect(
      try database.query("SELECT COUNT(*), MAX(k) FROM t") { [$0.int64(0), $0.int64(1)] }
        == [[Int64(count), Int64(count - 1)]])
    #expect(try database.query("SELECT v FROM t WHERE k = 3") { $0.string(0) } == ["w"])

    let more = (count..<(count + 600)).map {
      BatchStatement(sql: "INSERT INTO t VALUES (?, ?)", values: [.integer(Int64($0)), .text("x")])
    }
    let clash = BatchStatement(
      sql: "INSERT INTO t VALUES (?, ?)", values: [.integer(5), .text("y")])
    let error = try #require(throws: PostgresError.self) {
      try database.transaction { try database.executeBatch(more + [clash] + more.prefix(3)) }
    }
    #expect(error.kind == .constraint)
    #expect(try database.query("SELECT COUNT(*) FROM t") { $0.int64(0) } == [Int64(count)])
    try database.executeBatch([update])  // the connection is out of pipeline mode again
  }

  @Test func anUnreachableServerIsOneClearLine() throws {
    let url = "postgresql://playfield:s3cret@127.0.0.1:1/playfield"
    let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
    #expect(error.kind == .connection)
    #expect(error.sqlState == "08001")
    #expect(
      error.message.hasPrefix(
        "cannot connect to PostgreSQL at postgresql://playfield:***@127.0.0.1:1/playfield: "))
    #expect(error.message.contains("Connection refused"))
    #expect(!error.message.contains("s3cret"))
    #expect(!error.message.contains("\n"))
  }

  @Test func aMalformedURLOrAMissingDatabaseSaysSo() throws {
    let malformed = try #require(throws: PostgresError.self) {
      try PostgresConnection(url: "postgresql://[::1/x")
    }
    #expect(malformed.message.hasPrefix("cannot connect to PostgreSQL at postgresql://[::1/x: "))
    #expect(malformed.serverMessage.contains("IPv6 host address"))

    let server = try PostgresServer.shared
    let missing = try #require(throws: PostgresError.self) {
      try PostgresConnection(url: server.url("no_such_database"))
    }
    #expect(missing.kind == .connection)
    #expect(missing.message.contains("database \"no_such_database\" does not exist"))
  }

  @Test(arguments: [
    ("SELECT ?", "SELECT $1", 1),
    ("WHERE a = ? AND b = ?", "WHERE a = $1 AND b = $2", 2),
    ("WHERE a = ?1 OR b = ?1 || ' ' AND c = ?2", "WHERE a = $1 OR b = $1 || ' ' AND c = $2", 2),
    ("SELECT '?', \"?\", ? -- ?\n, ?", "SELECT '?', \"?\", $1 -- ?\n, $2", 2),
    ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", 1),
  ])
  func placeholdersBecomeNumberedParameters(sql: String, expected: String, count: Int) {
    let translated = PostgresPlaceholders.translate(sql)
    #expect(translated.sql == expected)
    #expect(translated.parameters == count)
  }

  @Test(arguments: [
    ("postgresql://u:p@h/db", "postgresql://u:***@h/db"),
    (
      "postgresql://u@h:5/db?password=x&sslmode=off",
      "postgresql://u@h:5/db?password=***&sslmode=off"
    ),
    ("postgresql://h/db", "postgresql://h/db"),
    ("postgres://a:b:c@h", "postgres://a:***@h"),
  ])
  func passwordsNeverReachAMessage(url: String, shown: String) {
    #expect(PostgresURL.redacted(url) == shown)
  }
}
