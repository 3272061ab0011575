import Foundation
import Testing

@testable import Storage

/// Real faults on a real file: read-only, locked, full and corrupt databases.
@Suite struct FaultTests {
  @Test func readOnlyDatabaseSaysSoAndStillServesReads() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    try fixture.store.addHighScore(HighScore(name: "Ada", score: 3, level: 2, createdAt: 1))

    let store = try SQLiteSessionStore(path: fixture.path, readOnly: true)
    #expect(store.isReadOnly)
    #expect(try store.listSessions().map(\.id) == ["s"])
    #expect(try store.topHighScores().map(\.name) == ["Ada"])
    let error = try #require(throws: SQLiteError.self) {
      try store.createSession(StoreFixture.session("t"))
    }
    #expect(error.kind == .readOnly)
    #expect(error.message.hasPrefix("database is read-only: "))
    // Issue 22, finding 11: the check that /healthz reads says so before any write fails.
    #expect(store.fileCheck == .readOnly)
    #expect(fixture.sqlite.fileCheck == .same)
    #expect(throws: SQLiteError.self) { try store.saveMaze(name: "m", cells: "1", at: 1) }

    let writer = SessionWriter(store: store, configuration: fastRetries())
    writer.append(LoggedInput(sessionID: "s", tick: 1, seq: 0, input: "{}"))
    #expect(!writer.flush(timeout: 0.3))
    let status = writer.status
    #expect(status.lastErrorKind == .readOnly)
    #expect(status.pendingInputs == 1 && status.consecutiveFailures > 0)
    #expect(status.summary.contains("database is read-only"))
    #expect(!writer.close(timeout: 0.2))
    #expect(writer.status.pendingInputs == 1)  // reported as not written, not dropped silently
  }

  @Test func lockedDatabaseIsBusyThenTheRetriedFlushLands() throws {
    let fixture = try StoreFixture(busyTimeoutMilliseconds: 20)
    defer { fixture.remove() }
    let store = fixture.sqlite
    try store.createSession(StoreFixture.session("s"))
    let other = try Database(path: fixture.path)
    try other.execute("BEGIN EXCLUSIVE")

    let error = try #require(throws: SQLiteError.self) {
      try store.createSession(StoreFixture.session("t"))
    }
    #expect(error.kind == .busy)
    #expect(error.message.hasPrefix("database is locked by another connection"))
    #expect(try store.listSessions().map(\.id) == ["s"])  // WAL readers are not blocked

    let writer = SessionWriter(store: store, configuration: fastRetries())
    defer { writer.close() }
    for input in StoreFixture.inputs("s", count: 30) { writer.append(input) }
    #expect(!writer.flush(timeout: 0.3))
    #expect(writer.status.lastErrorKind == .busy)
    #expect(writer.status.pendingInputs == 30)

    try other.execute("COMMIT")
    #expect(writer.flush())
    #expect(try store.inputs(sessionID: "s").count == 30)
    #expect(writer.status.isHealthy)
  }

  @Test func fullDatabaseSaysSoThenTheRetriedFlushLands() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let store = fixture.sqlite
    try store.createSession(StoreFixture.session("s"))
    // NB: max_page_count cannot go below the current size, so asking for 1 pins it there.
    try store.withWriter { database in
      _ = try database.query("PRAGMA max_page_count = 1") { $0.int64(0) }
    }

    let writer = SessionWriter(store: store, configuration: fastRetries())
    defer { writer.close() }
    let payload = String(repeating: "x", count: 200)
    for tick in 1...2000 as ClosedRange<Int64> {
      writer.append(LoggedInput(sessionID: "s", tick: tick, seq: 0, input: payload))
    }
    #expect(!writer.flush(timeout: 0.3))
    let status = writer.status
    #expect(status.lastErrorKind == .full)
    #expect(status.lastError?.hasPrefix("disk is full") == true)
    #expect(status.pendingInputs == 2000)
    #expect(try store.session(id: "s") != nil)  // reads go on

    try store.withWriter { database in
      _ = try database.query("PRAGMA max_page_count = 1000000") { $0.int64(0) }
    }
    #expect(writer.flush())
    #expect(try store.inputs(sessionID: "s").count == 2000)
  }

  @Test func garbageFileIsNotADatabase() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("garbage.db")
    let garbage = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
    let error = try #require(throws: SQLiteError.self) { try SQLiteSessionStore(path: path) }
    #expect(error.kind == .notADatabase)
    #expect(error.message == "file is not an SQLite database: file is not a database")
  }

  @Test func corruptTableIsReportedWhileTheRestIsServed() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    var rootPage: Int64 = 0
    var pageSize: Int64 = 0
    do {
      let store = try SQLiteSessionStore(path: fixture.path)
      try store.createSession(StoreFixture.session("s"))
      try store.appendInputs(StoreFixture.inputs("s", count: 500))
      rootPage = try store.withReader { database in
        try database.query("SELECT rootpage FROM sqlite_master WHERE name = 'inputs'") {
          $0.int64(0)
        }[0]
      }
      pageSize = try store.withReader { try $0.query("PRAGMA page_size") { $0.int64(0) }[0] }
      try store.checkpoint()
    }

    let handle = try #require(FileHandle(forUpdatingAtPath: fixture.path))
    try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
    handle.write(Data(repeating: 0xA5, count: Int(pageSize)))
    try handle.close()

    let store = try SQLiteSessionStore(path: fixture.path)
    #expect(try store.listSessions().map(\.id) == ["s"])
    let error = try #require(throws: SQLiteError.self) { try store.inputs(sessionID: "s") }
    #expect(error.kind == .corrupt)
    #expect(error.message.hasPrefix("database file is corrupt: "))
  }

  private func fastRetries() -> WriterConfiguration {
    var configuration = WriterConfiguration()
    configuration.flushInterval = 0.02
    configuration.maxBackoff = 0.05
    return configuration
  }
}
