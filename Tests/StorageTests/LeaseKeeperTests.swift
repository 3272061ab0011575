import Foundation
import Synchronization
import Testing

@testable import Storage

/// The keeper of a process's leases: renewals, losses found, and letting go at shutdown.
@Suite struct LeaseKeeperTests {
  /// A clock the test sets by hand (unix seconds).
  final class ManualClock: Sendable {
    let time = Mutex(100.0)
    var now: Double { time.withLock { $0 } }
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
  }

  @Test(
    "renewals move every kept lease on; a lease another process adopted is reported lost",
    arguments: Backend.allCases)
  func renewAndLose(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let other = try fixture.reopen()
    for id in ["s", "t"] { try fixture.store.createSession(StoreFixture.session(id)) }
    let clock = ManualClock()
    let lost = Mutex<[String]>([])
    let keeper = LeaseKeeper(
      store: fixture.store, owner: "a", duration: 10, wallClock: { clock.now },
      renewing: false, lost: { ids in lost.withLock { $0 += ids } })
    #expect(try keeper.acquire(sessionID: "s").lease?.expiresAt == 110)
    let created = try fixture.store.createSession(
      StoreFixture.session("u"), lease: keeper.terms)
    keeper.keep(try #require(created.lease))
    try other.createSession(
      StoreFixture.session("v"),
      lease: LeaseTerms(
        owner: "b", now: 100, duration: 10))
    let held = try #require(try other.lease(sessionID: "v"))
    #expect(try keeper.acquire(sessionID: "v") == .held(by: held))

    clock.advance(5)
    #expect(try keeper.renew() == [])
    #expect(try fixture.store.lease(sessionID: "s")?.expiresAt == 115)
    #expect(keeper.lease(sessionID: "u")?.expiresAt == 115)

    // The keeper's process is paused past its leases; b adopts "s" meanwhile.
    clock.advance(20)
    _ = try other.acquireLease(sessionID: "s", LeaseTerms(owner: "b", now: 125, duration: 10))
    #expect(try keeper.renew() == ["s"])
    #expect(lost.withLock { $0 } == ["s"])
    #expect(keeper.lease(sessionID: "s") == nil)
    #expect(keeper.lease(sessionID: "u")?.expiresAt == 135)
    #expect(keeper.health.failures == 0)

    #expect(keeper.forget(sessionID: "u")?.sessionID == "u")
    #expect(try keeper.releaseAll() == 1)  // "u": forgotten here, still held in the database
    #expect(
      try other.acquireLease(sessionID: "u", LeaseTerms(owner: "b", now: 126, duration: 10))
        .lease?.epoch == 2)
  }

  @Test(
    "a session may be stepped only while its kept lease has more than the margin left",
    arguments: Backend.allCases)
  func fenceBeforeApply(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    for id in ["s", "t"] { try fixture.store.createSession(StoreFixture.session(id)) }
    let clock = ManualClock()
    // NB: the store judges by the wall clock, the keeper by its steady one; here they agree.
    let keeper = LeaseKeeper(
      store: fixture.store, owner: "a", duration: 10, wallClock: { clock.now },
      steadyClock: { clock.now }, renewing: false)
    #expect(try keeper.acquire(sessionID: "s").lease?.expiresAt == 110)
    #expect(keeper.mayStep(sessionID: "s", margin: 1))
    #expect(!keeper.mayStep(sessionID: "t", margin: 1), "a lease never taken")
    clock.advance(8.5)
    #expect(keeper.mayStep(sessionID: "s", margin: 1))
    clock.advance(0.5)  // 109: exactly the margin left
    #expect(!keeper.mayStep(sessionID: "s", margin: 1))
    clock.advance(20)  // paused past the lease; nobody took it, so the renewal keeps it
    #expect(!keeper.mayStep(sessionID: "s", margin: 1))
    #expect(try keeper.renew() == [])
    #expect(keeper.mayStep(sessionID: "s", margin: 1))
    keeper.forget(sessionID: "s")
    #expect(!keeper.mayStep(sessionID: "s", margin: 1), "a lease let go")
  }

  @Test("its thread renews on its own, a third of a lease apart", arguments: Backend.allCases)
  func renewsByItself(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("s"))
    let clock = ManualClock()
    let keeper = LeaseKeeper(
      store: fixture.store, owner: "a", duration: 0.3, wallClock: { clock.now })
    defer { keeper.stop() }
    _ = try keeper.acquire(sessionID: "s")
    clock.advance(1000)
    let deadline = Date(timeIntervalSinceNow: 30)
    while try fixture.store.lease(sessionID: "s")?.expiresAt != 1100.3 {
      try #require(Date() < deadline, "no renewal within 30 s")
      Thread.sleep(forTimeInterval: 0.01)
    }
  }

  @Test(
    "the keeper fences on its steady clock from when it sent the request, however late the answer",
    arguments: Backend.allCases)
  func fenceCountsFromTheSending(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    for id in ["s", "t"] { try fixture.store.createSession(StoreFixture.session(id)) }
    // The wall clock is another machine's, an hour ahead: it plays no part in the fence.
    let wall = ManualClock()
    wall.advance(3600)
    let steady = ManualClock()
    let keeper = LeaseKeeper(
      store: fixture.store, owner: "a", duration: 10, wallClock: { wall.now },
      steadyClock: { steady.now }, renewing: false)
    let s = try #require(try keeper.acquire(sessionID: "s").lease)  // sent at steady 100
    #expect(keeper.mayStep(sessionID: "s", margin: 1))
    steady.advance(8.9)
    #expect(keeper.mayStep(sessionID: "s", margin: 1), "108.9: more than the margin left")
    steady.advance(0.1)
    #expect(!keeper.mayStep(sessionID: "s", margin: 1), "109: only the margin left")

    // A renewal sent at steady 105 whose answer came back at 109: counted from 105.
    #expect(keeper.settle([s], before: ["s": s], sentAt: 105) == [])
    #expect(keeper.mayStep(sessionID: "s", margin: 1), "109 < 105 + 10 - 1")
    steady.advance(4.9)
    #expect(keeper.mayStep(sessionID: "s", margin: 1))
    steady.advance(0.1)
    #expect(!keeper.mayStep(sessionID: "s", margin: 1), "114: 105 + 10 - 1")
    // An older renewal's late answer never shortens what a newer one gave.
    #expect(keeper.settle([s], before: ["s": s], sentAt: 101) == [])
    #expect(!keeper.mayStep(sessionID: "s", margin: 1))
    #expect(keeper.settle([s], before: ["s": s], sentAt: 110) == [])
    #expect(keeper.mayStep(sessionID: "s", margin: 1), "114 < 110 + 10 - 1")

    // A lease created with a session, asked for at 112, answered at 118.
    let t = Lease(sessionID: "t", owner: "a", epoch: 1, expiresAt: 0)
    steady.advance(4)
    keeper.keep(t, sentAt: 112)
    #expect(keeper.mayStep(sessionID: "t", margin: 1), "118 < 112 + 10 - 1")
    steady.advance(3)
    #expect(!keeper.mayStep(sessionID: "t", margin: 1), "121: 112 + 10 - 1")
    // A renewal that misses a lease: lost, never stepped again.
    #expect(keeper.settle([], before: ["s": s], sentAt: 121) == ["s"])
    #expect(!keeper.mayStep(sessionID: "s", margin: 1))
  }

  @Test(
    "without a clock of the keeper's, leases are judged by the database's own",
    arguments: Backend.allCases)
  func theDatabaseClockDecides(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let other = try fixture.reopen()
    try fixture.store.createSession(StoreFixture.session("s"))
    let before = Date().timeIntervalSince1970
    let lease = try #require(
      try fixture.store.acquireLease(
        sessionID: "s", LeaseTerms(owner: "a", now: nil, duration: 0.5)
      ).lease)
    let after = Date().timeIntervalSince1970
    // NB: the database's clock is this machine's here: the expiry is now plus the duration.
    #expect(lease.expiresAt >= before + 0.5 - 0.05 && lease.expiresAt <= after + 0.5 + 0.05)
    #expect(
      try other.acquireLease(sessionID: "s", LeaseTerms(owner: "b", now: nil, duration: 10))
        == .held(by: lease))
    // Once the database's clock is past the expiry, b adopts; a's renewal finds it gone.
    let deadline = Date(timeIntervalSinceNow: 30)
    while Date().timeIntervalSince1970 < lease.expiresAt + 0.05 {
      try #require(Date() < deadline)
      Thread.sleep(forTimeInterval: 0.05)
    }
    let adopted = try other.acquireLease(
      sessionID: "s", LeaseTerms(owner: "b", now: nil, duration: 10))
    #expect(adopted.lease?.epoch == 2 && adopted.lease?.owner == "b")
    let renewed = try fixture.store.renewLeases(LeaseTerms(owner: "a", now: nil, duration: 10))
    #expect(renewed == [], "a's lease is b's now")
  }
}
