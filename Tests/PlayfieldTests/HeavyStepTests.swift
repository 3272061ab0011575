import Foundation
import JSON
import Simulation
import Synchronization
import Testing

@testable import Playfield

/// A step the model says is heavy (street soccer's computer searching its turn) runs off the
/// realtime tick as a job of the session's owner, and computes exactly what the tick would.
@Suite(.serialized) struct HeavyStepTests {
  @Test("every computer turn is a heavy-step job; the match is the same, step for step")
  func computerTurnsAreJobs() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let config: JSONValue = .object([
      "home": "novice", "away": "defensive", "computerDelay": 4,
    ])
    let id = try #require(
      try app.json(.post, "/api/sessions", ["kind": "street-soccer", "config": config])["id"]?
        .stringValue)
    let session = try #require(app.application.registry.session(id))
    var reference = try session.type.init(config: session.summary.config, seed: session.seed)
    let scheduler = app.application.gameLoop.scheduler
    let before = scheduler.statistics.submitted["heavy-step", default: 0]
    let seen = Mutex<SessionState?>(nil)
    var heavy: UInt64 = 0
    for tick in 0..<60 {
      if reference.nextStepIsHeavy { heavy += 1 }
      _ = reference.step(checked: [])
      if tick == 59 { session.send(.inspect { state in seen.withLock { $0 = state } }) }
      app.tick()
    }
    #expect(heavy >= 5, "a turn every few ticks")
    #expect(scheduler.statistics.submitted["heavy-step", default: 0] - before == heavy)
    let state = try #require(seen.withLock { $0 })
    #expect(state.tick == reference.tick)
    #expect(state.stateHash == reference.stateHash)
  }

  @Test(
    "an input that hands the move to a computer playing at once (delay 0 or 1) is stepped in a heavy-step job, never on the tick",
    arguments: [0, 1])
  func computerAnsweringAtOnceIsAJob(delay: Int) throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    // The computer kicks off; then it is the person's move, and a reset gives the computer
    // the move again, its die rolled: with a delay of 0 or 1 it plays in the reset's step.
    let config: JSONValue = .object([
      "home": "defensive", "away": "human", "computerDelay": .number(Double(delay)),
    ])
    let id = try #require(
      try app.json(.post, "/api/sessions", ["kind": "street-soccer", "config": config])["id"]?
        .stringValue)
    let session = try #require(app.application.registry.session(id))
    var reference = try session.type.init(config: session.summary.config, seed: session.seed)
    app.tick(3)
    for _ in 0..<3 { _ = reference.step(checked: []) }
    let reset = try #require(
      try session.type.checkedInput(from: ["type": "reset"], sentBy: .controller))
    #expect(!reference.nextStepIsHeavy, "the person's move: no computer due by time")
    let scheduler = app.application.gameLoop.scheduler
    let before = scheduler.statistics.submitted["heavy-step", default: 0]
    session.send(.input(reset))
    app.tick()
    let events = reference.step(checked: [reset])
    #expect(events.contains { $0.name == "turn" }, "the computer played in the reset's step")
    #expect(scheduler.statistics.submitted["heavy-step", default: 0] - before == 1)
    let seen = Mutex<SessionState?>(nil)
    session.send(.inspect { state in seen.withLock { $0 = state } })
    app.tick()
    _ = reference.step(checked: [])
    let state = try #require(seen.withLock { $0 })
    #expect(state.stateHash == reference.stateHash)
  }

  @Test("a model that never says heavy never makes a heavy-step job")
  func lightModelsStayOnTheTick() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    _ = try app.json(.post, "/api/sessions", ["kind": "bouncing-balls"])
    app.tick(30)
    let statistics = app.application.gameLoop.scheduler.statistics
    #expect(statistics.submitted["heavy-step"] == nil)
    #expect(statistics.submitted["session-step", default: 0] >= 1, "its first step is a job")
  }
}
