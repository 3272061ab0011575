import Testing

@testable import Storage

@Suite struct MigrationTests {
  @Test func migratesAnOlderSchemaKeepingItsRows() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("old.db")
    do {
      // A database from a version that had only the first two migrations.
      let old = try Database(path: path)
      #expect(
        try old.migrate(Array(Schema.migrations.prefix(2))) == ["create-sessions", "create-inputs"])
      try old.execute(
        """
        INSERT INTO sessions
          (id, kind, config, seed, status, created_at, updated_at, tick, token_hash)
        VALUES ('s1', 'maze', '{}', -1, 'running', 10, 20, 42, 'abc')
        """)
      try old.execute("INSERT INTO inputs VALUES ('s1', 7, 0, '{\"type\":\"tilt\"}')")
      #expect(throws: SQLiteError.self) { try old.execute("SELECT * FROM snapshots") }
    }

    let store = try SQLiteSessionStore(path: path)
    let session = try #require(try store.session(id: "s1"))
    #expect(session.seed == UInt64.max)
    #expect(session.tick == 42)
    #expect(session.status == .running)
    #expect(
      try store.inputs(sessionID: "s1")
        == [LoggedInput(sessionID: "s1", tick: 7, seq: 0, input: "{\"type\":\"tilt\"}")])
    try store.saveSnapshot(Snapshot(sessionID: "s1", tick: 42, state: [1, 2, 3]))
    #expect(try store.latestSnapshot(sessionID: "s1")?.state == [1, 2, 3])
    try store.addHighScore(HighScore(name: "Ada", score: 3, level: 2, createdAt: 30))
    try store.saveMaze(name: "first", cells: "0101", at: 40)
    let applied = try store.withReader { try $0.appliedMigrations() }
    #expect(applied == Schema.migrations.map(\.name))
  }

  @Test func migratingTwiceAppliesNothing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    #expect(try database.migrate(Schema.migrations).count == Schema.migrations.count)
    #expect(try database.migrate(Schema.migrations) == [])
  }

  @Test func refusesAnEditedMigration() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let first = Migration(name: "a", sql: "CREATE TABLE a (x)")
    try database.migrate([first])
    let edited = Migration(name: "a", sql: "CREATE TABLE a (x, y)")
    #expect(throws: MigrationError.changed(name: "a")) { try database.migrate([edited]) }
  }

  @Test func refusesAReorderedList() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let a = Migration(name: "a", sql: "CREATE TABLE a (x)")
    let b = Migration(name: "b", sql: "CREATE TABLE b (x)")
    try database.migrate([a])
    #expect(throws: MigrationError.reordered(position: 0, recorded: "a", expected: "b")) {
      try database.migrate([b, a])
    }
  }

  @Test func refusesADatabaseFromANewerVersion() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let a = Migration(name: "a", sql: "CREATE TABLE a (x)")
    let b = Migration(name: "b", sql: "CREATE TABLE b (x)")
    try database.migrate([a, b])
    #expect(throws: MigrationError.unknownMigration(name: "b", position: 1)) {
      try database.migrate([a])
    }
  }

  @Test func aFailingMigrationLeavesNoTrace() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let a = Migration(name: "a", sql: "CREATE TABLE a (x)")
    let broken = Migration(name: "b", sql: "CREATE TABLE b (x); CREATE TABLE a (y)")
    #expect(throws: SQLiteError.self) { try database.migrate([a, broken]) }
    #expect(try database.appliedMigrations() == ["a"])
    #expect(try database.query("SELECT name FROM sqlite_master WHERE name = 'b'") { _ in 1 } == [])
  }

  @Test func refusesDuplicateNames() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.file("t.db"))
    let a = Migration(name: "a", sql: "CREATE TABLE a (x)")
    #expect(throws: MigrationError.duplicateName("a")) { try database.migrate([a, a]) }
  }
}
