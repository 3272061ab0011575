import Foundation
import Testing

@testable import Storage

@Suite struct SessionWriterTests {
  @Test(arguments: Backend.allCases) func flushedWritesAreDurableForAFreshConnection(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let ids = ["a", "b", "c"]
    for id in ids { try fixture.store.createSession(StoreFixture.session(id)) }
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 0.05))
    defer { writer.close() }
    for id in ids {
      for input in StoreFixture.inputs(id, count: 120) { #expect(writer.append(input)) }
      writer.save(Snapshot(sessionID: id, tick: 60, state: [6, 0]))
      writer.update(SessionProgress(sessionID: id, status: .running, tick: 120, updatedAt: 102))
    }
    #expect(writer.flush())

    // As if the process were killed now: a new connection must see every flushed row.
    let counts = try fixture.column(
      """
      SELECT session_id || ':' || COUNT(*) || ':' || MAX(tick) FROM inputs
      GROUP BY session_id ORDER BY session_id
      """)
    #expect(counts == ["a:120:120", "b:120:120", "c:120:120"])
    #expect(try fixture.column("SELECT tick FROM sessions ORDER BY id") == ["120", "120", "120"])
    #expect(try fixture.column("SELECT COUNT(*) FROM snapshots WHERE tick = 60") == ["3"])
    #expect(writer.status.isHealthy)
    #expect(writer.status.summary == "storage ok")
  }

  @Test(arguments: Backend.allCases) func writesLandWithoutAnExplicitFlush(_ backend: Backend)
    throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 0.02))
    defer { writer.close() }
    for input in StoreFixture.inputs("s", count: 10) { writer.append(input) }
    let deadline = Date(timeIntervalSinceNow: 10)
    while try fixture.store.inputs(sessionID: "s").count < 10, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(try fixture.store.inputs(sessionID: "s").count == 10)
  }

  @Test(arguments: Backend.allCases) func refusesInputsBeyondTheBacklogCapAndSaysSo(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    var configuration = configuration(interval: 3600)
    configuration.maxPendingInputs = 5
    let writer = SessionWriter(store: fixture.store, configuration: configuration)
    defer { writer.close() }
    let accepted = StoreFixture.inputs("s", count: 7).map { writer.append($0) }
    #expect(accepted == [true, true, true, true, true, false, false])
    let status = writer.status
    #expect(status.pendingInputs == 5 && status.rejectedInputs == 2 && status.isBacklogFull)
    #expect(!status.isHealthy)
    #expect(status.summary.contains("2 inputs were refused and not stored"))

    #expect(writer.flush())
    #expect(try fixture.store.inputs(sessionID: "s").map(\.tick) == [1, 2, 3, 4, 5])
    #expect(!writer.status.isBacklogFull)
    #expect(writer.append(LoggedInput(sessionID: "s", tick: 8, seq: 0, input: "{}")))
    // A tick's inputs go in whole or not at all.
    #expect(!writer.append(contentsOf: StoreFixture.inputs("s", from: 9, count: 5)))
    #expect(writer.status.pendingInputs == 1 && writer.status.rejectedInputs == 7)
    #expect(writer.append(contentsOf: StoreFixture.inputs("s", from: 9, count: 4)))
    #expect(writer.status.isBacklogFull)
  }

  @Test(arguments: Backend.allCases) func forgetDropsTheQueuedWritesOfASession(_ backend: Backend)
    throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("gone"))
    try fixture.store.createSession(StoreFixture.session("kept"))
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 3600))
    defer { writer.close() }
    for input in StoreFixture.inputs("gone", count: 3) + StoreFixture.inputs("kept", count: 2) {
      writer.append(input)
    }
    writer.forget(sessionID: "gone")
    #expect(writer.flush())
    #expect(try fixture.store.inputs(sessionID: "gone") == [])
    #expect(try fixture.store.inputs(sessionID: "kept").count == 2)

    writer.append(LoggedInput(sessionID: "gone", tick: 9, seq: 0, input: "{}"))
    writer.forget(sessionID: "gone")
    #expect(writer.flush(timeout: 5))  // nothing left to wait for
  }

  @Test(arguments: Backend.allCases) func concurrentProducersLoseNothing(_ backend: Backend) throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let ids = (0..<4).map { "s\($0)" }
    for id in ids { try fixture.store.createSession(StoreFixture.session(id)) }
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 0.005))
    defer { writer.close() }
    DispatchQueue.concurrentPerform(iterations: ids.count) { index in
      for input in StoreFixture.inputs(ids[index], count: 500) {
        writer.append(input)
        if input.tick % 50 == 0 {
          writer.update(
            SessionProgress(
              sessionID: input.sessionID, status: .running, tick: input.tick, updatedAt: 1))
        }
      }
    }
    #expect(writer.flush())
    for id in ids {
      #expect(try fixture.store.inputs(sessionID: id).map(\.tick) == Array(1...500))
      #expect(try fixture.store.session(id: id)?.tick == 500)
    }
  }

  @Test(arguments: Backend.allCases) func closeWritesEverythingAndThenRefusesMore(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 3600))
    for input in StoreFixture.inputs("s", count: 4) { writer.append(input) }
    writer.update(SessionProgress(sessionID: "s", status: .paused, tick: 4, updatedAt: 104))
    #expect(writer.close())
    #expect(try fixture.store.inputs(sessionID: "s").count == 4)
    #expect(try fixture.store.session(id: "s")?.status == .paused)
    #expect(!writer.append(LoggedInput(sessionID: "s", tick: 5, seq: 0, input: "{}")))
  }

  /// A session's flush waits for the transaction under way when that holds any of its rows,
  /// its progress alone too: a parked session is read back only once its last tick is stored.
  /// Before, only inputs and snapshots were waited for, and a loaded stress run brought a
  /// session back three ticks older than its client had been told.
  @Test func aSessionsProgressBeingWrittenIsWaitedFor() throws {
    let fixture = try StoreFixture(busyTimeoutMilliseconds: 60_000)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    let writer = SessionWriter(store: fixture.store, configuration: configuration(interval: 3600))
    defer { writer.close() }
    // Another connection holds the write lock: the flush waits inside its transaction.
    let other = try Database(path: fixture.path)
    try other.execute("BEGIN EXCLUSIVE")
    writer.update(SessionProgress(sessionID: "s", status: .running, tick: 375, updatedAt: 101))
    #expect(!writer.flush(sessionID: "s", timeout: 0.1))
    let deadline = Date(timeIntervalSinceNow: 30)
    while writer.writing.flushingSince == nil, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(writer.writing.flushingSince != nil, "the flush took the progress")

    #expect(!writer.flush(sessionID: "s", timeout: 0.2), "its progress is not stored yet")
    #expect(try fixture.store.session(id: "s")?.tick == 0)
    try other.execute("COMMIT")
    #expect(writer.flush(sessionID: "s", timeout: 30))
    #expect(try fixture.store.session(id: "s")?.tick == 375)
  }

  private func configuration(interval: Double) -> WriterConfiguration {
    var configuration = WriterConfiguration()
    configuration.flushInterval = interval
    configuration.maxBackoff = max(interval, 0.05)
    return configuration
  }
}
