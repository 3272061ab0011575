import Foundation
import HTTP
import JSON
import Testing

@testable import Playfield

/// Replay-state answers are kept (`ReplayStates`), but not past their session's delete: once
/// the store has deleted it (`DELETE`, or expiry), `/replay?tick=N` is `404`, never the
/// answer kept from before (it was `200` with the old hash).
@Suite(.serialized) struct DeletedReplayStateTests {
  /// A session with a few stored ticks, its replay state at tick 0 asked for (and kept).
  private func replayed(_ app: TestApplication) throws -> (id: String, token: String) {
    let created = try app.json(.post, "/api/sessions", ["kind": "bouncing-balls"])
    let id = try #require(created["id"]?.stringValue)
    let token = try #require(created["token"]?.stringValue)
    app.tick(5)
    app.application.registry.session(id)?.send(.stop)
    app.tick()
    let state = app.request(.get, "/api/sessions/\(id)/replay?tick=0")
    #expect(state.status == .ok, "\(state.text)")
    #expect(app.request(.get, "/api/sessions/\(id)/replay?tick=0").status == .ok, "kept")
    return (id, token)
  }

  @Test func aDeletedSessionsReplayStateIsNotFound() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let (id, token) = try replayed(app)
    let deleted = app.request(
      .delete, "/api/sessions/\(id)", headers: ["Authorization": "Bearer \(token)"])
    #expect(deleted.status == .noContent)
    #expect(app.request(.get, "/api/sessions/\(id)/replay?tick=0").status == .notFound)
  }

  @Test func anExpiredSessionsReplayStateIsNotFound() throws {
    let app = try TestApplication { $0.limits[.sessionMaxAge] = 60 }
    defer { app.shutdown() }
    let (id, _) = try replayed(app)
    app.clock.advance(61)
    app.application.registry.removeExpired()
    #expect(app.application.registry.live.withLock { $0[id] } == nil)
    #expect(app.request(.get, "/api/sessions/\(id)/replay?tick=0").status == .notFound)
  }
}
