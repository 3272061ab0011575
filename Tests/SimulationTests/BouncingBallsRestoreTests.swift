import Playfield
import Testing

@testable import Simulation

@Suite("A restored bouncing-balls snapshot holds only balls a session could have made")
struct BouncingBallsRestoreTests {
  /// A two-ball session, stepped, with `change` applied to its first ball, through a snapshot.
  private func restore(
    _ change: (inout BouncingBalls.Ball, BouncingBalls.Config) -> Void
  ) throws -> BouncingBalls {
    var model = try BouncingBalls(config: ["balls": 2], seed: 7)
    for _ in 0..<3 { _ = model.step(parsing: []) }
    change(&model.state.balls[0], model.settings)
    return try BouncingBalls(snapshot: model.snapshot())
  }

  @Test(
    "masses outside what add-ball accepts are refused (the fuzzer found 1e-319 against 1e161)",
    arguments: [Double.leastNonzeroMagnitude, 1e-300, 5e-7, 2e12, 2.876241661601154e+161])
  func mass(mass: Double) {
    #expect(throws: SimulationError.self) { try restore { ball, _ in ball.mass = mass } }
  }

  @Test("speeds past the config's maxSpeed are refused", arguments: [1.001, 125.0, 1e200])
  func speed(times: Double) {
    #expect(throws: SimulationError.self) {
      try restore { ball, config in
        ball.vx = -times * config.maxSpeed
        ball.vy = 0
      }
    }
  }

  @Test("balls at the edges of those ranges restore and keep finite positions")
  func edges() throws {
    for mass in [BouncingBalls.massRange.lowerBound, BouncingBalls.massRange.upperBound] {
      var model = try restore { ball, config in
        ball.mass = mass
        ball.vx = config.maxSpeed
        ball.vy = 0
      }
      for _ in 0..<120 { _ = model.step(parsing: []) }
      #expect(model.state.balls.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    }
  }
}

@Suite("A restored snapshot's tick leaves room to step")
struct SnapshotTickTests {
  @Test("every model refuses a tick past 2^53 (the fuzzer's maze at UInt64.max) and steps at it")
  func tickBound() throws {
    let stepped: UInt64 = 777
    for type in DemoRegistry.models {
      var model = try type.init(config: .object([:]), seed: 3)
      for _ in 0..<stepped { _ = model.step(parsing: []) }
      var bytes = model.snapshot()
      // The tick is the one place the snapshot holds 777 as a little-endian UInt64.
      let pattern = withUnsafeBytes(of: stepped.littleEndian) { Array($0) }
      let places = (0...(bytes.count - 8)).filter { bytes[$0..<($0 + 8)].elementsEqual(pattern) }
      try #require(places.count == 1, "\(type.kind): the tick at \(places)")
      let at = places[0]
      for tick in [SnapshotHeader.maxTick, SnapshotHeader.maxTick + 1, UInt64.max] {
        withUnsafeBytes(of: tick.littleEndian) { bytes.replaceSubrange(at..<(at + 8), with: $0) }
        if tick <= SnapshotHeader.maxTick {
          var restored = try type.init(snapshot: bytes)
          _ = restored.step(parsing: [])
          #expect(restored.tick == tick + 1)
        } else {
          #expect(throws: SimulationError.self, "\(type.kind) at tick \(tick)") {
            try type.init(snapshot: bytes)
          }
        }
      }
    }
  }
}
