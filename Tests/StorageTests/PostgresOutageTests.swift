import Foundation
import Testing

@testable import Storage

/// PostgreSQL going away at run time, on a server of the test's own: sessions go on in memory,
/// writes wait in the queue and are retried, and everything lands once the server is back.
@Suite struct PostgresOutageTests {
  @Test func writesQueuedWhileTheServerIsDownLandWhenItIsBack() throws {
    let server = try PostgresServer()
    defer { server.destroy() }
    let name = try server.makeDatabase()
    let store = try PostgresSessionStore(url: server.tcpURL(name))
    try store.createSession(StoreFixture.session("s"))
    let lease = try #require(
      try store.acquireLease(sessionID: "s", LeaseTerms(owner: "a", now: 100, duration: 10)).lease)
    var configuration = WriterConfiguration()
    configuration.flushInterval = 0.02
    configuration.maxBackoff = 0.2
    let writer = SessionWriter(store: store, configuration: configuration)
    defer { writer.close(timeout: 1) }
    let keeper = LeaseKeeper(
      store: store, owner: "a", duration: 10, wallClock: { 101 }, renewing: false)
    keeper.keep(lease)
    writer.hold(lease)
    for input in StoreFixture.inputs("s", from: 1, count: 100) { writer.append(input) }
    writer.save(Snapshot(sessionID: "s", tick: 100, state: [1, 0, 0]))
    #expect(writer.flush())

    try server.stop()
    for input in StoreFixture.inputs("s", from: 101, count: 200) { #expect(writer.append(input)) }
    writer.update(SessionProgress(sessionID: "s", status: .running, tick: 300, updatedAt: 105))
    writer.save(Snapshot(sessionID: "s", tick: 300, state: [3, 0, 0]))
    #expect(!writer.flush(timeout: 0.5))
    let down = writer.status
    #expect(!down.isHealthy)
    #expect(down.consecutiveFailures > 0)
    #expect(down.pendingInputs == 200 && down.pendingSnapshots == 1 && down.pendingProgress == 1)
    #expect(down.summary.hasPrefix("storage cannot write ("))
    #expect(store.connectionProblem != nil)
    let read = try #require(throws: PostgresError.self) { try store.inputs(sessionID: "s") }
    #expect(read.kind == .connection && read.isTransient)
    #expect(throws: PostgresError.self) { try keeper.renew() }
    #expect(keeper.health.failures == 1 && keeper.lease(sessionID: "s") == lease)

    try server.start()
    #expect(writer.flush(timeout: 60))
    #expect(writer.status.isHealthy)
    #expect(writer.status.summary == "storage ok")
    #expect(try store.inputs(sessionID: "s").map(\.tick) == Array(1...300))
    #expect(try store.latestSnapshot(sessionID: "s")?.state == [3, 0, 0])
    #expect(try store.session(id: "s")?.tick == 300)
    #expect(try keeper.renew() == [])
    #expect(try store.lease(sessionID: "s")?.expiresAt == 111)
    #expect(keeper.health.failures == 0)
    #expect(store.connectionProblem == nil)
  }

  @Test func aStoreOnAWrongURLFailsToOpenWithOneLine() throws {
    let server = try PostgresServer.shared
    let error = try #require(throws: PostgresError.self) {
      try PostgresSessionStore(url: "postgresql://postgres@127.0.0.1:\(server.port)/missing_db")
    }
    #expect(
      error.message.hasPrefix(
        "cannot connect to PostgreSQL at postgresql://postgres@127.0.0.1:\(server.port)/missing_db: "
      ))
    #expect(error.message.contains("\"missing_db\" does not exist"))
    let refused = try #require(throws: PostgresError.self) {
      try SessionStores.open("postgresql://nobody:pw@127.0.0.1:1/x", limits: StoreLimits())
    }
    #expect(refused.message.hasPrefix("cannot connect to PostgreSQL at postgresql://nobody:***@"))
  }

  @Test func theDatabaseOptionPicksTheStore() throws {
    let server = try PostgresServer.shared
    let name = try server.makeDatabase()
    defer { server.dropDatabase(name) }
    #expect(try SessionStores.open(server.url(name), limits: StoreLimits()) is PostgresSessionStore)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(
      try SessionStores.open(directory.file("p.db"), limits: StoreLimits()) is SQLiteSessionStore)
  }
}
