import JSON
import Testing

@testable import Playfield
@testable import Simulation

/// One connection of a session machine in these tests.
private final class Peer: Sendable {}

/// A session on either clock gives the same states as the model alone: each scenario of
/// `Scenario.all`, driven through a `SessionMachine` on the 60 Hz tick and on demand (its
/// steps grouped as a client would send them), ends at the golden hash.
@Suite("Determinism across session clocks")
struct ClockDeterminismTests {
  private typealias Machine = SessionMachine<Peer>

  @Test("a realtime session ends at the golden hash", arguments: Scenario.all)
  func realtime(_ scenario: Scenario) throws {
    var machine = Machine(
      id: "r", model: try scenario.start(), running: true, configuration: .init())
    for tick in 0..<scenario.steps {
      machine.tick(
        Self.inputs(scenario, at: tick), now: 0, mayStepAgain: { false }, perform: { _ in })
    }
    #expect(machine.model.tick == UInt64(scenario.steps))
    #expect(machine.model.stateHash == DeterminismTests.goldenHashes[scenario.type.kind])
  }

  @Test("an on-demand session ends at the golden hash", arguments: Scenario.all)
  func onDemand(_ scenario: Scenario) throws {
    var configuration = Machine.Configuration()
    configuration.clock = .onDemand
    var machine = Machine(
      id: "o", model: try scenario.start(), running: false, configuration: configuration)
    let peer = Peer()
    var frames: [UInt64] = []
    machine.drain([.join(peer, .controller)], now: 0, perform: { _ in })
    var tick = 0
    while tick < scenario.steps {
      // A step of several ticks carries the inputs of its first tick; the next inputs start
      // the next step (at most 600 ticks, as the socket allows).
      var count = 1
      while tick + count < scenario.steps && count < 600
        && scenario.inputs(tick + count).isEmpty
      {
        count += 1
      }
      machine.drain(
        Self.inputs(scenario, at: tick) + [.stepFor(peer, count: count, id: nil)], now: 0,
        perform: { action in
          if case .send(.stepped(let model, _), to: _) = action { frames.append(model.tick) }
        })
      tick += count
      // Watchers' frames on the game loop's tick now and then change nothing.
      if frames.count % 7 == 0 { machine.show(now: 0, perform: { _ in }) }
    }
    #expect(frames.last == UInt64(scenario.steps))
    #expect(frames == frames.sorted() && Set(frames).count == frames.count)
    #expect(machine.model.stateHash == DeterminismTests.goldenHashes[scenario.type.kind])
  }

  private static func inputs(_ scenario: Scenario, at tick: Int) -> [Machine.Command] {
    scenario.inputs(tick).compactMap {
      try? scenario.type.checkedInput(from: $0, sentBy: .controller)
    }.map { .input($0) }
  }
}
