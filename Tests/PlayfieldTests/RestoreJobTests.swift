import Foundation
import HTTP
import JSON
import Testing

@testable import Playfield
@testable import Server

/// Stored sessions come back (at start, or from parking) as jobs of the step scheduler: the
/// replay from the last snapshot runs in bounded slices below the ticks, and whoever joins
/// meanwhile gets the `hello` once the session is where it was.
@Suite(.serialized) struct RestoreJobTests {
  /// A connection that is never opened (its loop never runs), to join sessions with.
  private func socket(_ loop: EventLoop) -> WebSocket {
    WebSocket(
      request: Request(method: .get, target: "/ws", headers: HTTPHeaders(), body: []),
      remoteAddress: "127.0.0.1", subprotocol: nil, compressionWindowBits: nil, loop: loop)
  }

  @Test("a restore replays the log in slices of a job; the session takes no tick until done")
  func restoreIsSliced() throws {
    let first = try TestApplication()
    let id = try #require(
      try first.json(.post, "/api/sessions", ["kind": "bouncing-balls"])["id"]?.stringValue)
    let original = try #require(first.application.registry.session(id))
    first.tick(3)
    original.send(.stop)
    first.tick()
    original.send(.step(250))
    first.tick(10)
    let stored = try first.json(.get, "/api/sessions/\(id)/state")
    let tick = try #require(stored["tick"]?.intValue)
    #expect(tick > 250 && tick < 300, "no snapshot after the first: the log brings it back")
    // A crash: no snapshot at the end.
    first.application.gameLoop.stop()
    first.application.journal?.close()
    let database = first.directory + "/playfield.db"
    let app = try TestApplication { $0.databasePath = database }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: first.directory)
    }
    let scheduler = app.application.gameLoop.scheduler
    let session = try #require(app.application.registry.session(id))
    #expect(session.isRestoring)
    #expect(scheduler.statistics.submitted["restore"] == 1)
    let loop = try EventLoop(index: 0)
    session.send(.join(socket(loop), .spectator))
    let bound = scheduler.configuration.maxStepsPerSlice
    var slices = 0
    while session.isRestoring && slices < 100 {
      #expect(session.advanceCount == 0, "no tick, not even for the join, while restoring")
      app.tick()
      slices += 1
    }
    #expect(!session.isRestoring)
    #expect(slices == (tick + bound - 1) / bound, "one bounded slice a tick")
    #expect(scheduler.statistics.steps >= UInt64(tick))
    let restored = try app.json(.get, "/api/sessions/\(id)/state")
    #expect(restored["tick"] == stored["tick"])
    #expect(restored["stateHash"] == stored["stateHash"])
    #expect(session.summary.spectators == 1, "the join waited and was applied")
  }
}
