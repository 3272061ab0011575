import JSON
import Testing

@testable import Simulation

@Suite("Holes")
struct HolesTests {
  @Test func defaultsAreTheSeedConstants() throws {
    let model = try Holes(config: [:], seed: 1)
    #expect(model.config["ballRadius"] == 15 && model.config["holeRadius"] == 25)
    #expect(model.config["restitution"] == 0.45 && model.config["balls"] == 3)
    #expect(
      model.config["holes"] == [[0.2, 0.2], [0.8, 0.2], [0.5, 0.5], [0.2, 0.8], [0.8, 0.8]])
    #expect(model.settings.rotationStep == 1 / (1_000 * Double.pi))
    #expect(model.state.position == Vector2(x: 305, y: 465))
    #expect(model.holeCentres[0] == Vector2(x: 64, y: 96))
  }

  @Test func rejectsBadHoles() {
    #expect(
      throws: SimulationError(
        field: "holes", message: "must be an array of 1 to 12 [x, y] pairs of fractions from 0 to 1"
      )
    ) {
      try Holes(config: ["holes": [[0.5, 1.5]]], seed: 1)
    }
    #expect(throws: SimulationError(field: "maxHoleRadius", message: "must be at least holeRadius"))
    {
      try Holes(config: ["holeRadius": 50], seed: 1)
    }
  }

  @Test func pullsOfOverlappingHolesAreSummed() throws {
    // Two holes of radius 25 whose centres are 30 px apart; the ball sits between them,
    // 10 px from the first and 20 px from the second.
    var model = try Holes(
      config: ["holes": [[0.4, 0.5], [0.5, 0.5]], "rotationStep": 0, "holeDamping": 1], seed: 1)
    let centres = model.holeCentres
    #expect(centres == [Vector2(x: 128, y: 240), Vector2(x: 160, y: 240)])
    model.state.position = Vector2(x: 138, y: 240)
    _ = model.step(parsing: [])
    // Toward the first hole: 0.5 / (10/25)² = 3.125 g; toward the second: 0.5 / (22/25)² g.
    let expected = (-3.125 + 0.5 / ((22.0 / 25) * (22.0 / 25))) * 360 / 60
    #expect(abs(model.state.velocity.x - expected) < 1e-12)
    #expect(model.state.velocity.y == 0)
  }

  @Test func theHolePatternTurnsAboutTheCentre() throws {
    var model = try Holes(config: [:], seed: 1)
    let before = model.holeCentres
    for _ in 0..<600 { _ = model.step(parsing: []) }
    #expect(abs(model.state.angle - 600 / (1_000 * Double.pi)) < 1e-12)
    let centre = Vector2(x: 160, y: 240)
    for (old, new) in zip(before, model.holeCentres) {
      #expect(abs((old - centre).length - (new - centre).length) < 1e-9)
    }
    #expect(model.holeCentres[0] != before[0])
  }

  @Test func losingEveryBallEndsTheGameAndRestartBeginsAnew() throws {
    var model = try Holes(config: ["rotationStep": 0], seed: 1)
    var names: [String] = []
    for _ in 0..<3 {
      model.state.position = Vector2(x: 160, y: 241)
      names += model.step(parsing: []).map(\.name)
      for _ in 0..<60 { names += model.step(parsing: []).map(\.name) }
    }
    #expect(names == ["lost", "ball", "lost", "ball", "lost", "game-over"])
    #expect(model.state.phase == .over && model.state.ballsLeft == 0)
    let frozen = model.state
    _ = model.step(parsing: [["type": "tilt", "x": 1, "y": 0]])
    #expect(model.state.position == frozen.position)
    let events = model.step(parsing: [["type": "restart"]])
    #expect(events.map(\.name) == ["reset"])
    #expect(events[0].fields["hello"]?["ballsLeft"] == 3)
    #expect(model.state == Holes.State(config: model.settings))
  }

  @Test func theFlagScoresSpeedsUpAndLevelsUp() throws {
    var model = try Holes(config: ["pauseTicks": 2], seed: 1)
    var names: [String] = []
    for point in 1...3 {
      model.state.position = Vector2(x: 15, y: 16)
      names += model.step(parsing: []).map(\.name)
      #expect(model.state.score == point)
      names += model.step(parsing: []).map(\.name)
      names += model.step(parsing: []).map(\.name)
    }
    #expect(names == ["score", "ball", "score", "ball", "score", "level", "ball"])
    #expect(model.state.level == 2 && model.holeRadius == 28)
    #expect(abs(model.state.rotationSpeed - 4 / (1_000 * Double.pi)) < 1e-15)
    #expect(model.state.position == Holes.start(model.settings))
  }

  @Test func tiltRollsTheBallAndTheEdgesHoldIt() throws {
    var model = try Holes(config: ["holes": [[0.5, 0.05]]], seed: 1)
    _ = model.step(parsing: [["type": "tilt", "x": -1, "y": 0]])
    #expect(model.state.velocity == Vector2(x: -6, y: 0))
    for _ in 0..<600 {
      _ = model.step(parsing: [])
      let p = model.state.position
      #expect(p.x >= 15 && p.x <= 305 && p.y >= 15 && p.y <= 465)
    }
    #expect(model.state.position.x == 15)
  }

  @Test func validatesInputs() throws {
    #expect(try Holes.normalized(["type": "reset"]) == ["type": "reset"])
    #expect(try Holes.normalized(["type": "restart"]) == ["type": "restart"])
    #expect(
      try Holes.normalized(["type": "tilt", "x": 0, "y": 1]) == ["type": "tilt", "x": 0, "y": 1])
    #expect(
      throws: SimulationError(field: "y", message: "is required; must be a number from -2 to 2")
    ) {
      try Holes.normalized(["type": "tilt", "x": 0])
    }
    #expect(try Holes.normalized(["type": "toggle"]) == nil)
  }

  @Test func framesCarryTheReadouts() throws {
    let model = try Holes(config: [:], seed: 1)
    var writer = JSONWriter()
    writer.beginObject()
    model.writeHello(into: &writer)
    writer.endObject()
    let hello = try JSONValue.parse(writer.bytes)
    #expect(hello["ball"] == [305, 465])
    #expect(hello["holes"]?.arrayValue?.count == 10)
    #expect(hello["score"] == 0 && hello["ballsLeft"] == 3 && hello["level"] == 1)
    #expect(hello["gameOver"] == false && hello["phase"] == "playing")
    #expect(hello["flag"] == ["x": 0, "y": 0, "size": 30])
  }
}
