import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Storage

/// Lease renewals on PostgreSQL have a connection of their own, with a deadline: a flush that
/// holds the writing connection never holds a renewal up, and a renewal that waits for row
/// locks past its deadline fails (logged, counted) instead of waiting as long as they are held.
@Suite struct LeaseConnectionTests {
  @Test func aRenewalGoesThroughWhileTheWritingConnectionIsBusy() throws {
    let server = try PostgresServer()
    defer { server.destroy() }
    let store = try PostgresSessionStore(url: server.tcpURL(try server.makeDatabase()))
    try store.createSession(StoreFixture.session("s"))
    _ = try store.acquireLease(sessionID: "s", LeaseTerms(owner: "a", now: nil, duration: 10))
    // The writing connection held, as a long flush holds it.
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let writerDone = DispatchSemaphore(value: 0)
    Thread {
      _ = try? store.withWriter { _ in
        holding.signal()
        release.wait()
      }
      writerDone.signal()
    }.start()
    holding.wait()
    defer {
      release.signal()
      writerDone.wait()
    }
    let renewed = Mutex<[Lease]?>(nil)
    let renewal = DispatchSemaphore(value: 0)
    Thread {
      renewed.withLock {
        $0 = try? store.renewLeases(LeaseTerms(owner: "a", now: nil, duration: 10))
      }
      renewal.signal()
    }.start()
    // NB: a bound on the wait, not a measure of speed: on the writing connection it never comes.
    #expect(renewal.wait(timeout: .now() + 30) == .success, "renewed while the writer is held")
    #expect(renewed.withLock { $0 }?.map(\.sessionID) == ["s"])
  }

  @Test func aRenewalWaitingForRowLocksPastItsDeadlineFailsAndIsLogged() throws {
    let server = try PostgresServer()
    defer { server.destroy() }
    let store = try PostgresSessionStore(url: server.tcpURL(try server.makeDatabase()))
    try store.createSession(StoreFixture.session("s"))
    let lines = Mutex<[String]>([])
    let keeper = LeaseKeeper(
      store: store, owner: "a", duration: 10, renewing: false,
      log: { line in lines.withLock { $0.append(line) } })
    _ = try keeper.acquire(sessionID: "s")
    // Another transaction holds the session's row (as a flush does until it commits).
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let writerDone = DispatchSemaphore(value: 0)
    Thread {
      _ = try? store.withWriter { database in
        try database.transaction {
          _ = try database.query("SELECT id FROM sessions WHERE id = 's' FOR UPDATE", []) {
            $0.string(0)
          }
          holding.signal()
          release.wait()
        }
      }
      writerDone.signal()
    }.start()
    holding.wait()
    // NB: nothing below throws, so the row is let go below whatever the expectations find.
    let finished = DispatchSemaphore(value: 0)
    Thread {
      keeper.renewAndSay()
      finished.signal()
    }.start()
    #expect(finished.wait(timeout: .now() + 30) == .success, "the deadline ended the wait")
    #expect(keeper.health.failures == 1 && !keeper.health.cutOff, "an answer, not a lost server")
    #expect(keeper.totals.failed == 1 && keeper.totals.renewed == 0)
    let logged = lines.withLock { $0 }
    #expect(
      logged.count == 1 && logged[0].hasPrefix("cannot renew this process's 1 session leases"))
    release.signal()
    writerDone.wait()
    keeper.renewAndSay()
    #expect(lines.withLock { $0 }.last == "lease renewals succeed again, after 1 failed in a row")
  }
}
