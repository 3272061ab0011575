import JSON
import Testing

@testable import Simulation

@Suite("Bouncing balls")
struct BouncingBallsTests {
  private func ball(
    x: Double, y: Double, vx: Double, vy: Double, radius: Double = 10, mass: Double = 1
  ) -> BouncingBalls.Ball {
    BouncingBalls.Ball(x: x, y: y, vx: vx, vy: vy, radius: radius, mass: mass, color: 0)
  }

  @Test func normalizesTheConfigWithDefaults() throws {
    let model = try BouncingBalls(config: ["balls": 5], seed: 1)
    #expect(model.config["balls"] == 5)
    #expect(model.config["width"] == 320)
    #expect(model.config["restitution"] == 1)
    #expect(model.config["boundary"] == "walls")
    #expect(model.config.objectValue?.count == 12)
    #expect(model.state.balls.count == 5)
    #expect(try BouncingBalls(config: model.config, seed: 1).config == model.config)
  }

  @Test func rejectsBadConfigsNamingTheField() {
    let cases: [(JSONValue, String)] = [
      (["balls": 0], "balls: must be an integer from 1 to 10000"),
      (["balls": 2.5], "balls: must be an integer from 1 to 10000"),
      (["restitution": 1.5], "restitution: must be a number from 0 to 1"),
      (["boundary": "round"], #"boundary: must be one of "walls", "periodic""#),
      (
        ["colour": "red"],
        "colour: unknown field; known fields: balls, boundary, height, mass, "
          + "maxBalls, maxSpeed, radiusMax, radiusMin, restitution, speedMax, speedMin, width"
      ),
      (["radiusMin": 20, "radiusMax": 10], "radiusMax: must be at least radiusMin"),
      (
        ["balls": 10_000],
        "balls: must be at most 150 for balls of radius up to 15 in a 320x480 world"
      ),
      ([1, 2], "config: must be an object"),
      (
        ["boundary": "periodic", "radiusMax": 60, "radiusMin": 60],
        "radiusMax: must be at most 53.333333333333336 for a 320x480 periodic world"
      ),
    ]
    for (config, message) in cases {
      #expect(throws: SimulationError.self) { try BouncingBalls(config: config, seed: 1) }
      do {
        _ = try BouncingBalls(config: config, seed: 1)
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func startsWithNonOverlappingBallsInsideTheBox() throws {
    let model = try BouncingBalls(
      config: ["balls": 2_000, "width": 1_000, "height": 800, "radiusMin": 3, "radiusMax": 6],
      seed: 9)
    let balls = model.state.balls
    #expect(balls.count == 2_000)
    for ball in balls {
      #expect(ball.x >= ball.radius && ball.x <= 1_000 - ball.radius)
      #expect(ball.y >= ball.radius && ball.y <= 800 - ball.radius)
      #expect((3...6).contains(ball.radius))
    }
    var grid = SpatialGrid()
    grid.rebuild(balls, width: 1_000, height: 800, minimumCell: 12)
    for first in balls.indices {
      for second in balls.indices where second > first {
        let dx = balls[first].x - balls[second].x
        let dy = balls[first].y - balls[second].y
        let reach = balls[first].radius + balls[second].radius
        if abs(dx) < reach && abs(dy) < reach {
          #expect(dx * dx + dy * dy >= reach * reach)
        }
      }
    }
  }

  @Test func obliqueElasticHitBetweenEqualMassesLeavesPerpendicularVelocities() throws {
    var model = try BouncingBalls(config: ["balls": 2, "mass": "equal"], seed: 1)
    // Ball 1 at rest; ball 0 comes in along x, offset by half the reach in y.
    model.state.balls = [
      ball(x: 100, y: 200, vx: 300, vy: 0), ball(x: 140, y: 210, vx: 0, vy: 0),
    ]
    var hit = false
    for _ in 0..<30 where !hit {
      _ = model.step(parsing: [])
      hit = model.state.balls[1].vx != 0
    }
    let a = model.state.balls[0]
    let b = model.state.balls[1]
    #expect(hit)
    // Perpendicular after an oblique elastic hit of equal masses, one at rest.
    #expect(abs(a.vx * b.vx + a.vy * b.vy) < 1e-6 * 300 * 300)
    // The struck ball leaves along the line of centres at the moment of impact.
    #expect(b.vx > 0 && b.vy > 0)
    #expect(abs((a.vx + b.vx) - 300) < 1e-9 && abs(a.vy + b.vy) < 1e-9)
  }

  @Test func headOnHitWithMassesMatchesTheTextbook() throws {
    var model = try BouncingBalls(config: ["balls": 2, "restitution": 0.5], seed: 1)
    model.state.balls = [
      ball(x: 100, y: 200, vx: 120, vy: 0, mass: 3), ball(x: 150, y: 200, vx: -60, vy: 0, mass: 1),
    ]
    for _ in 0..<20 { _ = model.step(parsing: []) }
    // 1D with restitution e: v1' = (m1 v1 + m2 v2 - m2 e (v1 - v2)) / (m1 + m2).
    let e = 0.5
    let expectedA = (3 * 120 + 1 * -60 - 1 * e * 180) / 4
    let expectedB = (3 * 120 + 1 * -60 + 3 * e * 180) / 4
    #expect(abs(model.state.balls[0].vx - expectedA) < 1e-9)
    #expect(abs(model.state.balls[1].vx - expectedB) < 1e-9)
  }

  @Test func elasticBoxKeepsKineticEnergyOver100000Steps() throws {
    var model = try BouncingBalls(
      config: [
        "balls": 10, "width": 130, "height": 100, "radiusMin": 5, "radiusMax": 12,
        "speedMin": 60, "speedMax": 300,
      ], seed: 3)
    let start = model.totals.energy
    var collisions = 0
    for _ in 0..<100_000 {
      _ = model.step(parsing: [])
      collisions += model.state.collisions
    }
    #expect(collisions > 20_000)
    #expect(abs(model.totals.energy - start) / start < 1e-9)
  }

  @Test func periodicWorldKeepsMomentumAndEnergyOver100000Steps() throws {
    var model = try BouncingBalls(
      config: [
        "balls": 10, "width": 130, "height": 100, "radiusMin": 5, "radiusMax": 12,
        "speedMin": 60, "speedMax": 300, "boundary": "periodic",
      ], seed: 4)
    // A common drift makes the total momentum large, so "relative" is meaningful.
    for index in model.state.balls.indices { model.state.balls[index].vx += 150 }
    let start = model.totals
    var collisions = 0
    for _ in 0..<100_000 {
      _ = model.step(parsing: [])
      collisions += model.state.collisions
    }
    let end = model.totals
    #expect(collisions > 20_000)
    let drift = (end.momentum - start.momentum).length
    #expect(drift / start.momentum.length < 1e-9)
    #expect(abs(end.energy - start.energy) / start.energy < 1e-9)
  }

  @Test func restitutionBelowOneNeverGainsEnergy() throws {
    var model = try BouncingBalls(
      config: [
        "balls": 60, "width": 300, "height": 300, "radiusMin": 4, "radiusMax": 12,
        "restitution": 0.8, "speedMax": 600,
      ], seed: 5)
    var energy = model.totals.energy
    for _ in 0..<2_000 {
      _ = model.step(parsing: [])
      let now = model.totals.energy
      #expect(now <= energy * (1 + 1e-12))
      energy = now
    }
    #expect(energy < model.totals.energy + 1 && energy > 0)
  }

  @Test func fastSmallBallsDoNotTunnelThroughEachOther() throws {
    var model = try BouncingBalls(
      config: [
        "balls": 2, "radiusMin": 2, "radiusMax": 2, "maxSpeed": 5_760, "speedMax": 100,
        "width": 1_000, "mass": "equal",
      ], seed: 1)
    // Each moves 96 px a tick, 48 times its radius, straight at the other.
    model.state.balls = [
      ball(x: 100, y: 200, vx: 5_760, vy: 0, radius: 2),
      ball(x: 900, y: 200, vx: -5_760, vy: 0, radius: 2),
    ]
    // They meet after about 4.2 ticks; the walls are 5 ticks further away.
    for _ in 0..<7 {
      _ = model.step(parsing: [])
      #expect(model.state.balls[0].x < model.state.balls[1].x)
    }
    #expect(model.state.balls[0].vx == -5_760 && model.state.balls[1].vx == 5_760)
  }

  @Test func ballsNeverLeaveTheBox() throws {
    var model = try BouncingBalls(
      config: [
        "balls": 300, "width": 400, "height": 300, "radiusMin": 2, "radiusMax": 8,
        "speedMax": 2_000, "restitution": 0.9,
      ], seed: 6)
    for step in 0..<600 {
      let inputs: [JSONValue] =
        step % 50 == 0
        ? [["type": "add-ball", "x": 0, "y": 300, "vx": -2_000, "vy": 2_000, "radius": 8]] : []
      _ = model.step(parsing: inputs)
      let outside = model.state.balls.filter { ball in
        ball.x < ball.radius || ball.x > 400 - ball.radius || ball.y < ball.radius
          || ball.y > 300 - ball.radius
      }
      #expect(outside.isEmpty, "step \(step)")
    }
  }

  @Test func validatesAndNormalizesInputs() throws {
    #expect(try BouncingBalls.normalized(["type": "start"]) == nil)
    #expect(
      try BouncingBalls.normalized(["type": "add-ball", "x": 10, "y": 20])
        == ["type": "add-ball", "x": 10, "y": 20, "vx": 0, "vy": 0])
    #expect(try BouncingBalls.normalized(["type": "reset"]) == ["type": "reset"])
    #expect(throws: SimulationError(field: "vx", message: "must be a number from -20000 to 20000"))
    {
      try BouncingBalls.normalized(["type": "throw", "index": 0, "vx": "fast", "vy": 0])
    }
    #expect(
      throws: SimulationError(
        field: "index", message: "is required; must be an integer from 0 to 9999")
    ) {
      try BouncingBalls.normalized(["type": "throw", "vx": 1, "vy": 0])
    }
    #expect(throws: SimulationError.self) {
      try BouncingBalls.normalized(["type": "add-ball", "x": 1, "y": 1, "z": 1])
    }
    #expect(throws: SimulationError(field: "type", message: "must be a string")) {
      try BouncingBalls.normalized(["x": 1])
    }
  }

  @Test("the inputs before a step's last reset are skipped: same state, one reset event")
  func inputsBeforeTheLastResetAreSkipped() throws {
    let add: JSONValue = ["type": "add-ball", "x": 50, "y": 50, "radius": 10]
    var model = try BouncingBalls(config: ["maxBalls": 5], seed: 8)
    let events = model.step(parsing: [add, ["type": "reset"], add, ["type": "reset"], add])
    #expect(events.map(\.name) == ["reset", "ball-added"])
    #expect(events[0].fields["hello"]?["radii"]?.arrayValue?.count == 2)
    var fresh = try BouncingBalls(config: ["maxBalls": 5], seed: 8)
    _ = fresh.step(parsing: [add])
    #expect(model.state == fresh.state, "a reset then the add, as applying all five gives")
    #expect(model.stateHash == fresh.stateHash)
  }

  @Test func addThrowAndReset() throws {
    var model = try BouncingBalls(config: ["maxBalls": 3], seed: 8)
    let start = model.state
    var events = model.step(parsing: [
      ["type": "add-ball", "x": 5, "y": 5, "vx": 9_999, "vy": 0, "radius": 40],
      ["type": "add-ball", "x": 100, "y": 100],
    ])
    #expect(events.map(\.name) == ["ball-added", "input-rejected"])
    #expect(events[0].fields["radius"] == 15)
    #expect(model.state.balls.count == 3)
    events = model.step(parsing: [["type": "throw", "index": 7, "vx": 1, "vy": 1]])
    #expect(events.map(\.name) == ["input-rejected"])
    events = model.step(parsing: [["type": "throw", "index": 0, "vx": 30, "vy": -40]])
    #expect(events.isEmpty)
    events = model.step(parsing: [["type": "reset"]])
    #expect(events.map(\.name) == ["reset"])
    #expect(events[0].fields["hello"]?["radii"]?.arrayValue?.count == 2)
    #expect(model.tick == 4)
    var fresh = try BouncingBalls(config: model.config, seed: 8)
    fresh.state = start
    _ = fresh.step(parsing: [])
    #expect(model.state == fresh.state)
  }

  @Test func writesCompactFrames() throws {
    var model = try BouncingBalls(config: [:], seed: 2)
    model.state.balls = [ball(x: 10.123, y: 20, vx: 3, vy: 4, mass: 2)]
    var writer = JSONWriter()
    writer.beginObject()
    model.writeFrame(into: &writer)
    writer.endObject()
    #expect(
      writer.string
        == #"{"count":1,"positions":[10.12,20],"energy":25,"momentum":[6,8],"collisions":0}"#)
    writer.reset()
    writer.beginObject()
    model.writeHello(into: &writer)
    writer.endObject()
    let hello = try JSONValue.parse(writer.bytes)
    #expect(hello["world"]?["width"] == 320)
    #expect(hello["radii"] == [10])
    #expect(hello["palette"]?[0] == "#ffd400")
  }
}
