import Foundation
import Synchronization
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

  @Test func sessionsGoOnPastTheirLeasesWhileTheStoreCannotBeReachedButNotAfterAPause() throws {
    let server = try PostgresServer()
    defer { server.destroy() }
    let name = try server.makeDatabase()
    let store = try PostgresSessionStore(url: server.tcpURL(name))
    let other = try PostgresSessionStore(url: server.tcpURL(name))
    for id in ["s", "t"] { try store.createSession(StoreFixture.session(id)) }
    let wall = LeaseKeeperTests.ManualClock()
    let steady = LeaseKeeperTests.ManualClock()
    let lost = Mutex<[String]>([])
    let answers = Mutex(0)
    let keeper = LeaseKeeper(
      store: store, owner: "a", duration: 10, pauseGap: 1, wallClock: { wall.now },
      steadyClock: { steady.now }, renewing: false, lost: { ids in lost.withLock { $0 += ids } },
      answered: { answers.withLock { $0 += 1 } })
    for id in ["s", "t"] { #expect(try keeper.acquire(sessionID: id).lease?.expiresAt == 110) }
    /// The process runs for `seconds`: both clocks move, and the keeper beats every 0.1 s.
    func run(_ seconds: Double) {
      for _ in 0..<Int((seconds * 10).rounded()) {
        wall.advance(0.1)
        steady.advance(0.1)
        keeper.beat()
      }
    }
    func mayStep(_ id: String) -> Bool { keeper.mayStep(sessionID: id, margin: 1) }
    run(0.5)

    try server.stop()
    run(9)  // wall 109.5: within the margin of the leases, and no renewal has failed yet
    #expect(!mayStep("s"), "a lease near its end, the store not yet found away: fenced")
    let refused = try #require(throws: PostgresError.self) { try keeper.renew() }
    #expect(refused.kind == .connection)
    #expect(keeper.health.cutOff && keeper.health.failures == 1)
    #expect(mayStep("s") && mayStep("t"), "cut off from the store: nobody can adopt, go on")
    run(20)
    #expect(throws: PostgresError.self) { try keeper.renew() }
    #expect(mayStep("s"), "20 s past the lease, still cut off: go on")

    // Paused (SIGSTOP, SIGCONT): the steady clock moved on without a beat.
    wall.advance(3)
    steady.advance(3)
    #expect(!mayStep("s"), "the first check after a pause sees it, before any beat")
    #expect(!keeper.health.cutOff)
    run(1)
    #expect(throws: PostgresError.self) { try keeper.renew() }
    #expect(!mayStep("s"), "after a pause, fenced until a renewal answers, not one that fails")

    // The store is back, and another process adopted "t" before this one's renewal.
    try server.start()
    let adopted = try eventually {
      try other.acquireLease(sessionID: "t", LeaseTerms(owner: "b", now: wall.now, duration: 10))
    }
    #expect(adopted.lease?.epoch == 2)
    #expect(try eventually { try keeper.renew() } == ["t"])
    #expect(lost.withLock { $0 } == ["t"] && answers.withLock { $0 } == 1)
    #expect(mayStep("s") && !mayStep("t"), "s renewed and stepped again; t is b's")
    #expect(!keeper.health.cutOff && keeper.health.failures == 0)
  }

  @Test func pastItsBoundTheQueueRefusesNewInputsButKeepsEveryOneAdmitted() throws {
    let server = try PostgresServer()
    defer { server.destroy() }
    let name = try server.makeDatabase()
    let store = try PostgresSessionStore(url: server.tcpURL(name))
    try store.createSession(StoreFixture.session("s"))
    var configuration = WriterConfiguration()
    configuration.flushInterval = 0.02
    configuration.maxBackoff = 0.2
    configuration.maxPendingInputs = 3
    let writer = SessionWriter(store: store, configuration: configuration)
    defer { writer.close(timeout: 1) }
    try server.stop()
    let inputs = StoreFixture.inputs("s", from: 1, count: 5)
    for input in inputs.prefix(3) {
      #expect(writer.admitsInput())
      #expect(writer.append(contentsOf: [input], admitted: true))
    }
    #expect(!writer.admitsInput(), "3 inputs wait: the bound")
    #expect(!writer.append(inputs[3]), "nor may an input not admitted pass it")
    // Two admitted (and acknowledged) before the queue filled, applied after: kept.
    #expect(writer.append(contentsOf: Array(inputs.suffix(2)), admitted: true))
    let full = writer.status
    #expect(full.isBacklogFull && full.pendingInputs == 5 && full.rejectedInputs == 2)
    #expect(full.summary.contains("backlog full: new inputs are refused"))

    try server.start()
    #expect(writer.flush(timeout: 60))
    #expect(try store.inputs(sessionID: "s").map(\.tick) == Array(1...5))
    #expect(writer.admitsInput())
  }

  /// `body`'s result once it stops throwing (a connection is made again after a restart).
  private func eventually<T>(_ body: () throws -> T) throws -> T {
    let deadline = Date(timeIntervalSinceNow: 30)
    while true {
      do {
        return try body()
      } catch {
        guard Date() < deadline else { throw error }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
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
