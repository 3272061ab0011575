import Foundation
import Synchronization
import Testing

@testable import Storage

/// One owner per session: two stores on one database stand for two processes, `a` and `b`.
@Suite struct LeaseTests {
  static func terms(_ owner: String, at now: Double, for duration: Double = 10) -> LeaseTerms {
    LeaseTerms(owner: owner, now: now, duration: duration)
  }

  /// A fixture with session "s" and a second store on its database.
  static func twoProcesses(_ backend: Backend) throws -> (StoreFixture, any SessionStore) {
    let fixture = try StoreFixture(backend)
    try fixture.store.createSession(StoreFixture.session("s"))
    return (fixture, try fixture.reopen())
  }

  @Test(
    "a lease is one holder's until it runs out; asking again keeps the epoch",
    arguments: Backend.allCases)
  func exclusive(_ backend: Backend) throws {
    let (fixture, other) = try Self.twoProcesses(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let lease = try #require(try a.acquireLease(sessionID: "s", Self.terms("a", at: 100)).lease)
    #expect(lease == Lease(sessionID: "s", owner: "a", epoch: 1, expiresAt: 110))
    #expect(try other.acquireLease(sessionID: "s", Self.terms("b", at: 109.9)) == .held(by: lease))
    let again = try a.acquireLease(sessionID: "s", Self.terms("a", at: 105))
    #expect(again == .acquired(Lease(sessionID: "s", owner: "a", epoch: 1, expiresAt: 115)))
    #expect(try other.acquireLease(sessionID: "missing", Self.terms("b", at: 100)) == .missing)
    #expect(try other.lease(sessionID: "s")?.owner == "a")
  }

  @Test(
    "a lease that runs out is adopted with a higher epoch, and its old holder learns so",
    arguments: Backend.allCases)
  func expiryAndAdoption(_ backend: Backend) throws {
    let (fixture, b) = try Self.twoProcesses(backend)
    defer { fixture.remove() }
    let a = fixture.store
    try a.createSession(StoreFixture.session("t"))
    _ = try a.acquireLease(sessionID: "s", Self.terms("a", at: 100))
    _ = try a.acquireLease(sessionID: "t", Self.terms("a", at: 100))
    #expect(try a.renewLeases(Self.terms("a", at: 105)).map(\.expiresAt) == [115, 115])

    // a stops renewing (killed, or paused); once its lease has run out, b adopts "s".
    #expect(try b.acquireLease(sessionID: "s", Self.terms("b", at: 114.9)).lease == nil)
    let adopted = try b.acquireLease(sessionID: "s", Self.terms("b", at: 115))
    #expect(adopted == .acquired(Lease(sessionID: "s", owner: "b", epoch: 2, expiresAt: 125)))

    // a's next renewal holds only "t": "s" is lost. A lease that ran out but that no one took
    // ("t") is renewed: no one else has written that session.
    let renewed = try a.renewLeases(Self.terms("a", at: 130))
    #expect(renewed == [Lease(sessionID: "t", owner: "a", epoch: 1, expiresAt: 140)])
  }

  @Test(
    "after a takeover the old holder's writes are refused and the session reported lost",
    arguments: Backend.allCases)
  func fencing(_ backend: Backend) throws {
    let (fixture, b) = try Self.twoProcesses(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let old = try #require(try a.acquireLease(sessionID: "s", Self.terms("a", at: 100)).lease)
    let before = WriteBatch(
      inputs: StoreFixture.inputs("s", from: 1, count: 5),
      progress: [SessionProgress(sessionID: "s", status: .running, tick: 5, updatedAt: 101)],
      leases: ["s": old])
    #expect(try a.write(before) == WriteResult())

    let new = try #require(try b.acquireLease(sessionID: "s", Self.terms("b", at: 111)).lease)
    #expect(new.epoch == old.epoch + 1)
    // Both processes stepped tick 6; only the holder's input and progress may land.
    let stale = WriteBatch(
      inputs: [LoggedInput(sessionID: "s", tick: 6, seq: 0, input: "from a")],
      snapshots: [Snapshot(sessionID: "s", tick: 6, state: [0xA])],
      progress: [SessionProgress(sessionID: "s", status: .running, tick: 6, updatedAt: 112)],
      leases: ["s": old])
    #expect(try a.write(stale) == WriteResult(refusedRows: 3, lostSessions: ["s"]))
    let fresh = WriteBatch(
      inputs: [LoggedInput(sessionID: "s", tick: 6, seq: 0, input: "from b")],
      progress: [SessionProgress(sessionID: "s", status: .running, tick: 6, updatedAt: 113)],
      leases: ["s": new])
    #expect(try b.write(fresh) == WriteResult())

    let log = try b.inputs(sessionID: "s")
    #expect(log.map(\.tick) == [1, 2, 3, 4, 5, 6])
    #expect(log.last?.input == "from b")
    #expect(try b.latestSnapshot(sessionID: "s") == nil)
    #expect(try b.session(id: "s")?.updatedAt == 113)
    // A write under no lease is refused too while someone holds the session.
    #expect(
      try a.appendInputs(StoreFixture.inputs("s", from: 7, count: 1))
        == WriteResult(refusedRows: 1, lostSessions: ["s"]))
    #expect(try b.inputs(sessionID: "s").count == 6)
  }

  @Test(
    "two processes asking for one lease at once: exactly one gets it",
    arguments: Backend.allCases)
  func race(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let ids = (0..<20).map { "s\($0)" }
    for id in ids { try fixture.store.createSession(StoreFixture.session(id)) }
    let stores = [fixture.store, try fixture.reopen(), try fixture.reopen(), try fixture.reopen()]
    let winners = Mutex<[String: [String]]>([:])
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: stores.count) { index in
      for id in ids {
        do {
          let owner = "p\(index)"
          if try stores[index].acquireLease(sessionID: id, Self.terms(owner, at: 100)).lease != nil
          {
            winners.withLock { $0[id, default: []].append(owner) }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let won = winners.withLock { $0 }
    #expect(ids.allSatisfy { won[$0]?.count == 1 })
    for id in ids {
      #expect(try fixture.store.lease(sessionID: id)?.owner == won[id]?.first)
    }
  }

  @Test(
    "a session created with a lease is its creator's; a held stopped session is not evicted",
    arguments: Backend.allCases)
  func creation(_ backend: Backend) throws {
    var limits = StoreLimits()
    limits.maxSessions = 2
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let a = fixture.store
    let created = try a.createSession(
      StoreFixture.session("held", now: 1), lease: Self.terms("a", at: 100))
    #expect(
      created
        == CreatedSession(
          lease: Lease(sessionID: "held", owner: "a", epoch: 1, expiresAt: 110), evicted: []))
    let paused = WriteBatch(
      progress: [SessionProgress(sessionID: "held", status: .paused, tick: 0, updatedAt: 1)],
      leases: ["held": try #require(created.lease)])
    #expect(try a.write(paused) == WriteResult())
    #expect(try a.session(id: "held")?.status == .paused)
    #expect(try a.acquireLease(sessionID: "held", Self.terms("b", at: 105)).lease == nil)

    try a.createSession(StoreFixture.session("free", now: 2))
    try a.updateSession(SessionProgress(sessionID: "free", status: .paused, tick: 0, updatedAt: 2))
    // "held" is the stalest stopped session, but its holder is alive: "free" goes instead.
    #expect(
      try a.createSession(StoreFixture.session("new", now: 105), lease: nil).evicted == [
        "free"
      ])
    #expect(throws: StoreError.tooManySessions(limit: 2)) {
      try a.createSession(StoreFixture.session("more", now: 106), lease: nil)
    }
    // Once its lease has run out (its process died), "held" may go.
    #expect(try a.createSession(StoreFixture.session("later", now: 110)) == ["held"])
    #expect(throws: StoreError.self) {
      try a.createSession(StoreFixture.session("bad"), lease: Self.terms("", at: 1))
    }
  }

  @Test(
    "a release lets another process adopt at once; a release in a batch follows its rows",
    arguments: Backend.allCases)
  func release(_ backend: Backend) throws {
    let (fixture, b) = try Self.twoProcesses(backend)
    defer { fixture.remove() }
    let a = fixture.store
    try a.createSession(StoreFixture.session("t"))
    let lease = try #require(try a.acquireLease(sessionID: "s", Self.terms("a", at: 100)).lease)
    let other = try #require(try a.acquireLease(sessionID: "t", Self.terms("a", at: 100)).lease)
    let last = WriteBatch(
      inputs: StoreFixture.inputs("s", count: 2), leases: ["s": lease], releases: [lease])
    #expect(try a.write(last) == WriteResult())
    #expect(try a.inputs(sessionID: "s").count == 2)
    #expect(try a.lease(sessionID: "s") == nil)
    #expect(try !a.releaseLease(lease))  // already given up
    let adopted = try b.acquireLease(sessionID: "s", Self.terms("b", at: 101))
    #expect(adopted.lease?.epoch == 2)

    #expect(try a.releaseLeases(owner: "a") == 1)
    #expect(
      try b.acquireLease(sessionID: "t", Self.terms("b", at: 101)).lease?.epoch
        == other.epoch + 1)
  }
}
