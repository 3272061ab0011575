import JSON
import Simulation
import Testing

@testable import Playfield

/// One watcher's connection.
private final class Watcher: Sendable {}

/// A running session sends a frame only for a step that changed it
/// (`Simulation.lastStepChangedFrame`); joiners still get their hello and first frame.
@Suite struct FramesOnChangeTests {
  fileprivate typealias Machine = SessionMachine<Watcher>

  /// Runs `ticks` ticks (the first with `first`), counting the frames broadcast and sent.
  private static func frames(
    _ machine: inout Machine, ticks: Int, first: [Machine.Command] = []
  ) -> (broadcast: Int, sent: Int) {
    var counts = (broadcast: 0, sent: 0)
    for tick in 0..<ticks {
      machine.tick(
        tick == 0 ? first : [], now: 1_000 + Double(tick) / 60, mayStepAgain: { false },
        perform: { action in
          switch action {
          case .broadcast(.frame, _, _): counts.broadcast += 1
          case .send(.frame, _): counts.sent += 1
          default: break
          }
        })
    }
    return counts
  }

  private static func running(_ model: any Simulation) -> Machine {
    Machine(id: "s", model: model, running: true, configuration: Machine.Configuration())
  }

  @Test("a watched street-soccer match waiting for a person's move sends no frames")
  func idleMatch() throws {
    var machine = Self.running(
      try StreetSoccer(config: ["home": "human", "away": "human"], seed: 1))
    let watcher = Watcher()
    // The joiner gets its first frame; then 600 ticks (10 s) of waiting send none.
    let joined = Self.frames(&machine, ticks: 600, first: [.join(watcher, .spectator)])
    #expect(joined.sent == 1)
    #expect(joined.broadcast == 0)
    #expect(machine.model.tick == 600)
    // A kit changes the frame: exactly one frame, on its step.
    let kit = try #require(
      try StreetSoccer.checkedInput(
        from: [
          "type": "kit", "side": "home", "shirt": "#d00000", "shorts": "#ffffff",
          "pattern": "plain", "patternColor": "#d00000",
        ], sentBy: .controller))
    let changed = Self.frames(&machine, ticks: 60, first: [.input(kit)])
    #expect(changed.broadcast == 1)
    // A second joiner still gets hello and a frame at once.
    let late = Self.frames(&machine, ticks: 1, first: [.join(Watcher(), .spectator)])
    #expect(late == (broadcast: 0, sent: 1))
  }

  @Test("a computer's turn is a frame; the ticks while it waits are not")
  func computerTurns() throws {
    var machine = Self.running(
      try StreetSoccer(
        config: ["home": "novice", "away": "novice", "computerDelay": 30, "turnsPerSide": 2],
        seed: 7))
    let counts = Self.frames(&machine, ticks: 120, first: [.join(Watcher(), .spectator)])
    // Turns at ticks 30, 60, 90 and 120.
    #expect(counts.broadcast == 4)
  }

  @Test("a model that does not say (a maze, even at rest) sends a frame every tick")
  func mazeAndOthers() throws {
    var maze = Self.running(try MazeBall(config: [:], seed: 1))
    // Untilted, the ball does not move, and its frames still come: scripts count on them.
    let still = Self.frames(&maze, ticks: 120, first: [.join(Watcher(), .spectator)])
    #expect(still.broadcast == 120)
    var balls = Self.running(try BouncingBalls(config: [:], seed: 1))
    let moving = Self.frames(&balls, ticks: 120, first: [.join(Watcher(), .spectator)])
    #expect(moving.broadcast == 120)
  }
}
