import Foundation
import HTTP
import JSON
import Synchronization
import Testing

@testable import Playfield
@testable import Server

/// The game loop and its step scheduler, through the whole app on a manual clock: what is
/// stepped, when, and what costs nothing.
@Suite(.serialized) struct GameLoopSchedulingTests {
  private func create(_ app: TestApplication, _ kind: String = "maze") throws -> LiveSession {
    let id = try #require(
      try app.json(.post, "/api/sessions", ["kind": .string(kind)])["id"]?.stringValue)
    return try #require(app.application.registry.session(id))
  }

  /// A connection that is never opened (its loop never runs), to join sessions with.
  private func socket(_ loop: EventLoop) -> WebSocket {
    WebSocket(
      request: Request(method: .get, target: "/ws", headers: HTTPHeaders(), body: []),
      remoteAddress: "127.0.0.1", subprotocol: nil, compressionWindowBits: nil, loop: loop)
  }

  @Test("a stopped session is never stepped, nor advanced at all")
  func stoppedCostsNothing() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let session = try create(app)
    app.tick(3)
    session.send(.stop)
    app.tick()
    let (advances, tick) = (session.advanceCount, session.summary.tick)
    app.tick(200)
    #expect(session.advanceCount == advances)
    #expect(session.summary.tick == tick)
    // A command wakes it for one tick; asked-for steps run, then it is idle again.
    session.send(.step(5))
    app.tick(10)
    #expect(session.summary.tick == tick + 5)
    #expect(session.advanceCount == advances + 1)
  }

  @Test("a session paused for lack of spectators is not advanced while paused")
  func pausedCostsNothing() throws {
    let app = try TestApplication(database: false) { $0.limits[.idlePause] = 30 }
    defer { app.shutdown() }
    let session = try create(app)
    app.tick()
    app.clock.advance(30)
    app.tick()
    #expect(session.summary.paused)
    let advances = session.advanceCount
    app.tick(300)
    #expect(session.advanceCount == advances)
  }

  @Test("idle sessions of other clients are not looked at; the running one steps every tick")
  func idleSessionsDoNotDilute() throws {
    let app = try TestApplication(database: false) { $0.limits[.sessionsPerClient] = 64 }
    defer { app.shutdown() }
    var idle: [LiveSession] = []
    for _ in 0..<40 {
      let session = try create(app)
      session.send(.stop)
      idle.append(session)
    }
    let active = try create(app, "bouncing-balls")
    app.tick(2)
    let before = idle.map(\.advanceCount)
    let start = active.summary.tick
    app.tick(120)
    #expect(idle.map(\.advanceCount) == before)
    #expect(active.summary.tick == start + 120)
  }

  @Test("realtime ticks run before any job: a job sees the tick already done")
  func realtimeFirst() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let session = try create(app)
    app.tick(3)
    let seen = Mutex<[UInt64]>([])
    for _ in 0..<3 {
      app.application.gameLoop.scheduler.submit(
        StepJob(
          client: "10.0.0.9", label: "test",
          work: { _ in
            seen.withLock { $0.append(session.summary.tick) }
            return .done
          }))
      app.tick()
    }
    #expect(seen.withLock { $0 } == [4, 5, 6])
  }

  @Test("asked-for steps run in slices of the scheduler, never more per slice than its bound")
  func askedForStepsAreSliced() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let session = try create(app)
    app.tick()
    session.send(.stop)
    app.tick()
    let tick = session.summary.tick
    let bound = UInt64(app.application.gameLoop.scheduler.configuration.maxStepsPerSlice)
    session.send(.step(600))
    var seen: [UInt64] = []
    for _ in 0..<20 {
      app.tick()
      seen.append(session.summary.tick - tick)
    }
    // NB: the manual clock never moves, so only the step bound ends a slice.
    #expect(seen.prefix(10) == (1...10).map { min(600, $0 * bound) }[...])
    #expect(seen.last == 600)
  }

  @Test("a replay state is worked out by the scheduler in bounded slices, charged to its client")
  func replayStateIsAJob() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let session = try create(app, "bouncing-balls")
    app.tick(300)
    session.send(.stop)
    app.tick()
    let live = try app.json(.get, "/api/sessions/\(session.id)/state")
    let before = app.application.gameLoop.scheduler.statistics
    let replayed = try app.json(
      .get, "/api/sessions/\(session.id)/replay?tick=\(live["tick"]!.intValue!)&from=start")
    #expect(replayed["stateHash"] == live["stateHash"])
    let after = app.application.gameLoop.scheduler.statistics
    let bound = UInt64(app.application.gameLoop.scheduler.configuration.maxStepsPerSlice)
    let steps = after.steps - before.steps
    #expect(steps >= UInt64(live["tick"]!.intValue!))
    #expect(after.slices - before.slices >= steps / bound)
  }

  @Test("a session a client has just joined is never parked to make room")
  func watchedIsNeverParked() throws {
    let app = try TestApplication { $0.limits[.sessionsPerClient] = 2 }
    defer { app.shutdown() }
    let loop = try EventLoop(index: 0)
    let watched = try create(app)
    app.clock.advance(1)
    let other = try create(app)
    // The join is queued; no tick has applied it yet, so the summary still says nobody.
    watched.send(.join(socket(loop), .spectator))
    #expect(watched.summary.spectators == 0)
    _ = try create(app)
    let live = app.application.registry.live.withLock { Set($0.keys) }
    #expect(live.contains(watched.id))
    #expect(!live.contains(other.id))
  }

  @Test("restored sessions come back paused and cost nothing until someone joins")
  func restoredCostNothing() throws {
    let first = try TestApplication()
    let id = try create(first, "bouncing-balls").id
    first.tick(30)
    first.application.shutdown()
    let database = first.directory + "/playfield.db"
    let app = try TestApplication { $0.databasePath = database }
    defer {
      app.shutdown()
      try? FileManager.default.removeItem(atPath: first.directory)
    }
    let session = try #require(app.application.registry.session(id))
    #expect(session.summary.paused && !session.summary.running)
    let tick = session.summary.tick
    app.tick(120)
    #expect(session.advanceCount == 0)
    #expect(session.summary.tick == tick)
    let loop = try EventLoop(index: 0)
    session.send(.join(socket(loop), .spectator))
    app.tick(10)
    #expect(session.summary.running && session.summary.tick >= tick + 9)
  }
}
