import Foundation
import Synchronization
import Testing

@testable import Storage

/// The write-behind queue under leases: rows carry their lease, a takeover stops them.
@Suite struct WriterLeaseTests {
  static func configuration() -> WriterConfiguration {
    var configuration = WriterConfiguration()
    configuration.flushInterval = 3600
    configuration.maxBackoff = 3600
    return configuration
  }

  @Test(
    "a takeover refuses the old holder's queued rows and tells the writer's owner",
    arguments: Backend.allCases)
  func takeover(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let b = try fixture.reopen()
    try a.createSession(StoreFixture.session("s"))
    try a.createSession(StoreFixture.session("kept"))
    let lost = Mutex<[String]>([])
    let writer = SessionWriter(
      store: a, configuration: Self.configuration(),
      leaseLost: { ids in lost.withLock { $0 += ids } })
    defer { writer.close() }
    let held = try #require(
      try a.acquireLease(sessionID: "s", LeaseTerms(owner: "a", now: 100, duration: 10)).lease)
    let kept = try #require(
      try a.acquireLease(sessionID: "kept", LeaseTerms(owner: "a", now: 100, duration: 10)).lease)
    writer.hold(held)
    writer.hold(kept)
    for input in StoreFixture.inputs("s", count: 3) + StoreFixture.inputs("kept", count: 3) {
      writer.append(input)
    }
    #expect(writer.flush())
    #expect(try a.inputs(sessionID: "s").count == 3)

    _ = try b.acquireLease(sessionID: "s", LeaseTerms(owner: "b", now: 111, duration: 10))
    for input in StoreFixture.inputs("s", from: 4, count: 2)
      + StoreFixture.inputs("kept", from: 4, count: 2)
    {
      writer.append(input)
    }
    #expect(writer.flush())
    #expect(lost.withLock { $0 } == ["s"])
    #expect(try a.inputs(sessionID: "s").count == 3)
    #expect(try a.inputs(sessionID: "kept").count == 5)
    let status = writer.status
    #expect(status.lostSessions == 1 && status.refusedRows == 2)
    #expect(status.isHealthy)
    #expect(status.summary.contains("1 sessions were taken over by another process"))

    // Rows queued after the loss (the app had not dropped the session yet) are refused too.
    writer.append(LoggedInput(sessionID: "s", tick: 9, seq: 0, input: "{}"))
    #expect(writer.flush())
    #expect(try a.inputs(sessionID: "s").count == 3)
  }

  /// A store with session "s", held by "a" from 100 for 10 s, and a writer that flushes only
  /// when asked, holding that lease.
  static func held(_ backend: Backend) throws -> (StoreFixture, SessionWriter, Lease) {
    let fixture = try StoreFixture(backend)
    try fixture.store.createSession(StoreFixture.session("s"))
    let writer = SessionWriter(store: fixture.store, configuration: Self.configuration())
    let lease = try #require(
      try fixture.store.acquireLease(sessionID: "s", LeaseTerms(owner: "a", now: 100, duration: 10))
        .lease)
    writer.hold(lease)
    return (fixture, writer, lease)
  }

  @Test(
    "holding a session under a new lease drops rows queued under the old one",
    arguments: Backend.allCases)
  func newEpoch(_ backend: Backend) throws {
    let (fixture, writer, _) = try Self.held(backend)
    defer { fixture.remove() }
    defer { writer.close() }
    let store = fixture.store
    for input in StoreFixture.inputs("s", count: 4) { writer.append(input) }
    // The session went to "b" and came back: rows stepped under the first lease are stale.
    _ = try store.acquireLease(sessionID: "s", LeaseTerms(owner: "b", now: 111, duration: 10))
    let again = try #require(
      try store.acquireLease(sessionID: "s", LeaseTerms(owner: "a", now: 122, duration: 10)).lease)
    #expect(again.epoch == 3)
    writer.hold(again)
    writer.append(LoggedInput(sessionID: "s", tick: 10, seq: 0, input: "fresh"))
    #expect(writer.flush())
    #expect(try store.inputs(sessionID: "s").map(\.input) == ["fresh"])
    #expect(writer.status.refusedRows == 4)
  }

  @Test(
    "a release queued behind rows gives the lease up in the same flush, after them",
    arguments: Backend.allCases)
  func releaseAfterRows(_ backend: Backend) throws {
    let (fixture, writer, lease) = try Self.held(backend)
    defer { fixture.remove() }
    defer { writer.close() }
    let store = fixture.store
    for input in StoreFixture.inputs("s", count: 3) { writer.append(input) }
    writer.update(SessionProgress(sessionID: "s", status: .paused, tick: 3, updatedAt: 103))
    writer.release(lease)
    #expect(writer.flush())
    #expect(try store.inputs(sessionID: "s").count == 3)
    #expect(try store.session(id: "s")?.status == .paused)
    #expect(try store.lease(sessionID: "s") == nil)
    #expect(writer.status.lostSessions == 0)
  }
}
