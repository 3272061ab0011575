import Foundation
import HTTP
import JSON
import Storage
import Testing

@testable import Playfield

/// Parked sessions are bounded: they expire after `--parked-max-age` without updates, and a
/// session the store could not keep is never parked (that would lose it).
@Suite(.serialized) struct ParkedPlacesTests {
  private func create(_ app: TestApplication) -> (status: Int, id: String?) {
    let response = app.request(.post, "/api/sessions", json: ["kind": "maze"])
    let body = try? JSONValue.parse(response.body)
    return (response.status.code, body?["id"]?.stringValue)
  }

  @Test("a parked session nobody asks for is deleted after --parked-max-age")
  func parkedSessionsExpire() throws {
    let app = try TestApplication {
      $0.limits[.sessionsPerClient] = 1
      $0.limits[.parkedMaxAge] = 60
    }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let first = try #require(create(app).id)
    let second = create(app)
    #expect(second.status == 201)
    #expect(registry.parked.withLock { $0.contains(first) }, "the first made room")
    app.clock.advance(59)
    registry.removeExpired()
    #expect(registry.parked.withLock { $0.contains(first) }, "not yet expired")
    app.clock.advance(2)
    registry.removeExpired()
    #expect(!registry.parked.withLock { $0.contains(first) })
    #expect(app.request(.get, "/api/sessions/\(first)").status.code == 404)
    #expect(app.request(.get, "/api/sessions/\(try #require(second.id))").status.code == 200)
  }

  @Test("a session the store could not keep is never parked: the next create is refused")
  func memoryOnlySessionsStay() throws {
    let app = try TestApplication { $0.limits[.sessionsPerClient] = 1 }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let first = try #require(create(app).id)
    registry.memoryOnly.withLock { _ = $0.insert(first) }
    #expect(create(app).status == 429)
    #expect(registry.session(first) != nil)
    let health = try app.json(.get, "/healthz")
    #expect(health["memoryOnlySessions"]?.intValue == 1)
    #expect(health["status"]?.stringValue == "degraded")
  }

  @Test("past its stored share, a client's own oldest parked session makes room")
  func ownOldestParkedMakesRoom() throws {
    let app = try TestApplication {
      $0.limits[.sessionsPerClient] = 1
      $0.limits[.storedSessionsPerClient] = 2
    }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let first = try #require(create(app).id)
    app.clock.advance(1)
    let second = try #require(create(app).id)
    app.clock.advance(1)
    let third = create(app)
    #expect(third.status == 201)
    #expect(app.request(.get, "/api/sessions/\(first)").status.code == 404, "the oldest went")
    #expect(registry.parked.withLock { $0 == [second] })
    let stored = try #require(try app.application.journal?.store.listSessions())
    #expect(Set(stored.map(\.id)) == [second, try #require(third.id)])
  }

  @Test("the session idle longest is parked first, not the one whose last tick is oldest")
  func longestIdleIsParkedFirst() throws {
    let app = try TestApplication()
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    // Nobody ever joins either: the running one is idle since its first tick, and each of its
    // ticks moves its `updatedAt`; the on-demand one, made a second later, never steps, so its
    // `updatedAt` stays older than the running one's last tick.
    let running = try #require(create(app).id)
    app.tick(30)
    let response = app.request(
      .post, "/api/sessions", json: ["kind": "maze", "clock": "on-demand"])
    #expect(response.status.code == 201)
    let later = try #require(try JSONValue.parse(response.body)["id"]?.stringValue)
    app.tick(60)
    let idle = try #require(registry.session(running)?.summary.idleSince)
    let laterIdle = registry.session(later)?.summary.idleSince
    #expect(idle < (laterIdle ?? .infinity))
    let ticked = try #require(registry.session(running)?.summary.updatedAt)
    let stepped = try #require(registry.session(later)?.summary.updatedAt)
    #expect(stepped < ticked, "the later session's last update is the older one")
    #expect(registry.parkIdle(of: nil) != nil)
    #expect(registry.parked.withLock { $0 == [running] }, "the one idle since longest")
    #expect(registry.parkIdle(of: nil) != nil)
    #expect(registry.parked.withLock { $0 == [running, later] })
  }

  @Test("a parked session that cannot come back is 429 to every route that names it, never 404")
  func parkedAndRefusedIsNeverNotFound() throws {
    let app = try TestApplication { $0.limits[.sessionsPerClient] = 1 }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let first = try #require(create(app).id)
    let second = try #require(create(app).id)
    #expect(registry.parked.withLock { $0.contains(first) })
    // NB: the owner's one live place stays in use (a session the store could not keep is
    // never parked), so the first cannot come back.
    registry.memoryOnly.withLock { _ = $0.insert(second) }
    #expect(app.request(.get, "/api/sessions/\(first)").status.code == 429)
    // What a request sees when the session was parked after the route's first look: the
    // handlers themselves answer why (these answered 404 before `lookup`).
    let id = try #require(SessionID(segments: [first]))
    #expect(app.application.sessionAPI.show(id).status.code == 429)
    let upgrade = Request(method: .get, target: "/ws/sessions/\(first)", headers: HTTPHeaders())
    guard case .response(let refused) = app.application.sessionSocket(upgrade, id: id) else {
      Issue.record("a parked session that cannot come back was joined")
      return
    }
    #expect(refused.status.code == 429)
    #expect(throws: APIError.self) { try registry.lookup(first) }
    #expect(app.request(.get, "/api/sessions/no-such-session").status.code == 404)
  }

  @Test("a parked session whose row went meanwhile leaves nothing behind when asked for")
  func parkedWithoutRowIsForgotten() throws {
    let app = try TestApplication {
      $0.limits[.sessionsPerClient] = 1
      $0.limits[.storedSessionsPerClient] = 2
    }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let store = try #require(app.application.journal?.store)
    let first = try #require(create(app).id)
    app.clock.advance(1)
    let second = try #require(create(app).id)
    #expect(registry.parked.withLock { $0 == [first] })
    // Its row goes while it is parked, as when an idle expiry raced its parking.
    #expect(try store.deleteSession(id: first))
    #expect(app.request(.get, "/api/sessions/\(first)").status.code == 404)
    #expect(registry.parkedAt.withLock { $0[first] } == nil)
    #expect(registry.parkedOwners.withLock { $0[first] } == nil)
    app.clock.advance(1)
    #expect(create(app).status == 201, "the second is parked")
    app.clock.advance(1)
    // Past the stored share: the owner's oldest parked session makes room. Before, that was
    // the first, whose owner and age outlived its row: nothing was deleted, and this was 429.
    #expect(create(app).status == 201)
    #expect(app.request(.get, "/api/sessions/\(second)").status.code == 404, "the second went")
  }

  @Test(
    "a parked session that fails to come back stays parked with its age, evicts nobody, expires")
  func failedReturnStillExpires() throws {
    let app = try TestApplication {
      $0.limits[.sessionsPerClient] = 1
      $0.limits[.parkedMaxAge] = 60
    }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let registry = app.application.registry
    let store = try #require(app.application.journal?.store)
    let first = try #require(create(app).id)
    let second = try #require(create(app).id)
    #expect(registry.parked.withLock { $0 == [first] })
    // A row that cannot be rebuilt: its return fails after the store was read.
    let database = try Database(path: app.directory + "/playfield.db")
    _ = try database.execute("UPDATE sessions SET kind = 'no-such-kind' WHERE id = '\(first)'")
    #expect(app.request(.get, "/api/sessions/\(first)").status.code == 503)
    // Its owner's live session, whose place it would have taken, was not parked for a return
    // that failed. Before, it was parked first.
    #expect(registry.parked.withLock { $0 == [first] }, "nothing else parked")
    #expect(registry.live.withLock { $0[second] } != nil, "the second still live")
    #expect(registry.parked.withLock { $0.contains(first) }, "still parked")
    #expect(registry.parkedAt.withLock { $0[first] } != nil, "with its age")
    app.clock.advance(61)
    registry.removeExpired()
    // Before, it stayed parked without its age: never deleted, its row kept for good.
    #expect(!registry.parked.withLock { $0.contains(first) })
    #expect(try store.session(id: first) == nil)
  }

  private func createOnDemand(_ app: TestApplication) -> (status: Int, id: String?, body: String) {
    let response = app.request(
      .post, "/api/sessions", json: ["kind": "maze", "clock": "on-demand"])
    let body = try? JSONValue.parse(response.body)
    let text = String(decoding: response.body, as: UTF8.self)
    return (response.status.code, body?["id"]?.stringValue, text)
  }

  /// An app whose one client may hold 2 sessions, 1 on demand, and holds both: a realtime one
  /// made first (idle longest) and an on-demand one. `check` gets the app and the two IDs.
  private func atBothBounds(_ check: (TestApplication, String, String) throws -> Void) throws {
    let app = try TestApplication {
      $0.limits[.sessionsPerClient] = 2
      $0.limits[.onDemandSessionsPerClient] = 1
    }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: app.directory)
    }
    let realtime = try #require(create(app).id)
    app.tick(30)
    let onDemand = try #require(createOnDemand(app).id)
    app.tick(60)
    try check(app, realtime, onDemand)
  }

  @Test("a create refused at its on-demand bound parks nobody at its client bound first")
  func refusedCreateParksNobody() throws {
    try atBothBounds { app, realtime, onDemand in
      let registry = app.application.registry
      // NB: the on-demand one cannot be parked (a session the store could not keep never is):
      // the client is at both its bounds with only a realtime idle session.
      registry.memoryOnly.withLock { _ = $0.insert(onDemand) }
      let refused = createOnDemand(app)
      #expect(refused.status == 429, "\(refused.body)")
      #expect(refused.body.contains("--sessions-per-client"), "the first bound's message")
      // Before, the realtime session was parked at the client bound, then the create refused
      // at the on-demand bound: parked for nothing.
      #expect(registry.parked.withLock { $0.isEmpty }, "nothing parked")
      #expect(registry.live.withLock { $0[realtime] } != nil, "the realtime session still live")
    }
  }

  @Test("a create past both its bounds parks one session, from the narrower bound's")
  func createParksOnceFromTheNarrowestBound() throws {
    try atBothBounds { app, realtime, onDemand in
      let registry = app.application.registry
      let made = createOnDemand(app)
      #expect(made.status == 201, "\(made.body)")
      // Before, the realtime one (idle longest) was parked at the client bound, then the
      // on-demand one at the on-demand bound: two parked for one place.
      #expect(registry.parked.withLock { $0 == [onDemand] }, "only the on-demand one parked")
      #expect(registry.live.withLock { $0[realtime] } != nil, "the realtime session still live")
    }
  }
}
