import Testing

@testable import Simulation

@Suite("A restored bouncing-balls snapshot holds only balls a session could have made")
struct BouncingBallsRestoreTests {
  /// A two-ball session, stepped, with `change` applied to its first ball, through a snapshot.
  private func restore(
    _ change: (inout BouncingBalls.Ball, BouncingBalls.Config) -> Void
  ) throws -> BouncingBalls {
    var model = try BouncingBalls(config: ["balls": 2], seed: 7)
    for _ in 0..<3 { _ = model.step(inputs: []) }
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
      for _ in 0..<120 { _ = model.step(inputs: []) }
      #expect(model.state.balls.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    }
  }
}
