import Testing

@testable import Storage

@Suite struct MigrationTests {
  /// A bare connection to a fresh database of `backend`, and the store opened on it later.
  struct Fixture {
    let backend: Backend
    let directory: TemporaryDirectory
    let location: String
    let database: String?
    let connection: any SQLConnection

    init(_ backend: Backend) throws {
      self.backend = backend
      directory = try TemporaryDirectory()
      switch backend {
      case .sqlite:
        location = directory.file("t.db")
        database = nil
        connection = try Database(path: location)
      case .postgresql:
        do {
          let server = try PostgresServer.shared
          let name = try server.makeDatabase()
          database = name
          location = server.url(name)
          connection = try PostgresConnection(url: location)
        } catch {
          directory.remove()
          throw error
        }
      }
    }

    func store() throws -> any SessionStore {
      switch backend {
      case .sqlite: try SQLiteSessionStore(path: location)
      case .postgresql: try PostgresSessionStore(url: location)
      }
    }

    func remove() {
      directory.remove()
      if let database { try? PostgresServer.shared.dropDatabase(database) }
    }
  }

  @Test(arguments: Backend.allCases)
  func migratesAnOlderSchemaKeepingItsRows(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    do {
      // A database from a version that had only the first two migrations.
      let old = fixture.connection
      #expect(
        try old.migrate(Array(Schema.migrations.prefix(2))) == ["create-sessions", "create-inputs"])
      try old.execute(
        """
        INSERT INTO sessions
          (id, kind, config, seed, status, created_at, updated_at, tick, token_hash)
        VALUES ('s1', 'maze', '{}', -1, 'running', 10, 20, 42, 'abc')
        """, [])
      try old.execute("INSERT INTO inputs VALUES ('s1', 7, 0, '{\"type\":\"tilt\"}')", [])
      #expect(throws: (any Error).self) { try old.count("SELECT COUNT(*) FROM snapshots") }
    }

    let store = try fixture.store()
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
    #expect(try store.lease(sessionID: "s1") == nil)
    #expect(
      try Fixture(backend, reusing: fixture).connection.appliedMigrations()
        == Schema.migrations.map(\.name))
  }

  @Test(arguments: Backend.allCases)
  func highScoresKeepTheirSessionAndOlderOnesHaveNone(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let before = Schema.migrations.prefix { $0.name != "high-score-sessions" }
    try fixture.connection.migrate(Array(before))
    try fixture.connection.execute(
      "INSERT INTO high_scores (name, score, level, created_at) VALUES ('old', 1, 1, 10)", [])

    let store = try fixture.store()
    try store.addHighScore(
      HighScore(name: "new", score: 2, level: 1, createdAt: 20, session: "run-1"))
    let table = try store.topHighScores()
    #expect(table.map(\.name) == ["new", "old"])
    #expect(table.map(\.session) == ["run-1", nil])
  }

  @Test(arguments: Backend.allCases)
  func shoppingListsStoredBeforeWriteIDsLoadAndAreWritten(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let before = Schema.migrations.prefix { $0.name != "shopping-writes" }
    try fixture.connection.migrate(Array(before))
    try fixture.connection.execute(
      """
      INSERT INTO recipe_books (id, owner_hash, created_at, shopping)
      VALUES ('old', 'hash', 10, '[{"name":"milk"}]')
      """, [])

    let store = try fixture.store()
    let old = try #require(try store.shoppingList(bookID: "old"))
    #expect(old == StoredShoppingList(items: #"[{"name":"milk"}]"#, writes: []))
    #expect(old.head == nil)
    // A write over it as read: stored, with its ID; one over it as it was, no longer.
    #expect(try store.setShoppingList(bookID: "old", items: "[]", write: "w1", over: old.writes))
    #expect(
      try store.shoppingList(bookID: "old") == StoredShoppingList(items: "[]", writes: ["w1"]))
    #expect(try !store.setShoppingList(bookID: "old", items: "[1]", write: "w2", over: old.writes))
  }

  @Test(arguments: Backend.allCases)
  func migratingTwiceAppliesNothing(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    #expect(try fixture.connection.migrate(Schema.migrations).count == Schema.migrations.count)
    #expect(try fixture.connection.migrate(Schema.migrations) == [])
  }

  @Test(arguments: Backend.allCases)
  func refusesAnEditedMigration(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let first = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER)")
    try fixture.connection.migrate([first])
    let edited = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER, y INTEGER)")
    #expect(throws: MigrationError.changed(name: "a")) {
      try fixture.connection.migrate([edited])
    }
  }

  @Test(arguments: Backend.allCases)
  func refusesAReorderedList(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let a = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER)")
    let b = Migration(name: "b", sql: "CREATE TABLE b (x INTEGER)")
    try fixture.connection.migrate([a])
    #expect(throws: MigrationError.reordered(position: 0, recorded: "a", expected: "b")) {
      try fixture.connection.migrate([b, a])
    }
  }

  @Test(arguments: Backend.allCases)
  func refusesADatabaseFromANewerVersion(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let a = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER)")
    let b = Migration(name: "b", sql: "CREATE TABLE b (x INTEGER)")
    try fixture.connection.migrate([a, b])
    #expect(throws: MigrationError.unknownMigration(name: "b", position: 1)) {
      try fixture.connection.migrate([a])
    }
  }

  @Test(arguments: Backend.allCases)
  func aFailingMigrationLeavesNoTrace(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let a = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER)")
    let broken = Migration(
      name: "b", sql: "CREATE TABLE b (x INTEGER); CREATE TABLE a (y INTEGER)")
    #expect(throws: (any Error).self) { try fixture.connection.migrate([a, broken]) }
    #expect(try fixture.connection.appliedMigrations() == ["a"])
    #expect(throws: (any Error).self) { try fixture.connection.count("SELECT COUNT(*) FROM b") }
  }

  @Test(arguments: Backend.allCases)
  func refusesDuplicateNames(_ backend: Backend) throws {
    let fixture = try Fixture(backend)
    defer { fixture.remove() }
    let a = Migration(name: "a", sql: "CREATE TABLE a (x INTEGER)")
    #expect(throws: MigrationError.duplicateName("a")) { try fixture.connection.migrate([a, a]) }
  }

  /// The SQLite text of every shipped migration is as it shipped: the checksums recorded in
  /// existing files must keep matching.
  @Test func sqliteMigrationsAreTheShippedOnes() {
    let shipped = [
      "0c0cb99b5fb6ea00ab7fcc2d2920fa1d8b4df2f3013d5eecd4486cd1536a1e53",
      "efa75cb0dce5d5706b548737038e45cd1f0f8e0e16415c2a50b4992597d070fe",
      "d238f2cc826a8d2f899f115ea645fc1804eafd34804cafc9d9abae8477d3d7a2",
      "01d86b092fd468c23b01821bf309c76a99df02436c984414561ab53695c86585",
      "76819f3842fad6ac53420cecc170d630bcc134cb36bbe539b5478f484e0e8d60",
      "07250647f5b752fc33c2a72d9c8a3c84f109a581c616c9ad9aa260f3aeb3d007",
    ]
    #expect(Array(Schema.migrations.prefix(6).map { $0.checksum(.sqlite) }) == shipped)
  }
}

extension MigrationTests.Fixture {
  /// A second connection to `fixture`'s database.
  init(_ backend: Backend, reusing fixture: Self) throws {
    self.backend = backend
    directory = fixture.directory
    location = fixture.location
    database = fixture.database
    switch backend {
    case .sqlite: connection = try Database(path: location)
    case .postgresql: connection = try PostgresConnection(url: location)
    }
  }
}
