import JSON
import Testing

@testable import Simulation

@Suite("Maze ball")
struct MazeBallTests {
  private static let empty = String(repeating: ".", count: 12)

  private func maze(_ rows: [Int: String]) -> JSONValue {
    .array((0..<12).map { .string(rows[$0] ?? Self.empty) })
  }

  @Test func defaultsFollowTheSeed() throws {
    let model = try MazeBall(config: [:], seed: 1)
    #expect(model.config["rows"] == 12 && model.config["columns"] == 12)
    #expect(model.config["restitution"] == 0.5)
    #expect(model.config["cells"]?.arrayValue?.count == 12)
    #expect(model.config["cells"]?[0] == .string(Self.empty))
    #expect(model.settings.radius == 10)
    #expect(model.state.position == Vector2(x: 180, y: 180))
  }

  @Test func rejectsBadConfigs() {
    let cases: [(JSONValue, String)] = [
      (["rows": 1], "rows: must be an integer from 2 to 64"),
      (
        ["cells": ["#x"]],
        "cells: must be an array of 1 to 64 equally long strings of 1 to 64 '#' or '.'"
      ),
      (
        ["cells": ["##", "#"]],
        "cells: must be an array of 1 to 64 equally long strings of 1 to 64 '#' or '.'"
      ),
      (["cells": ["..", ".."]], "cells: must have 12 rows of 12 cells"),
      (
        ["rows": 2, "columns": 2, "cells": ["##", "##"]],
        "cells: must leave at least one cell empty"
      ),
      (
        ["maxSpeed": 20_000],
        "maxSpeed: must be at most 19200 px/s for a ball of radius 10 px (64 substeps a tick)"
      ),
    ]
    for (config, message) in cases {
      do {
        _ = try MazeBall(config: config, seed: 1)
        Issue.record("accepted \(config)")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func startsInTheNearestEmptyCellWhenTheCentreIsBlocked() throws {
    let model = try MazeBall(
      config: ["cells": maze([5: "....##......", 6: "....###....."])], seed: 1)
    #expect(model.overlap(at: model.state.position) == 0)
    #expect(model.state.position == Vector2(x: 195, y: 165))
  }

  @Test func tiltRollsTheBallToTheWallAndItStaysInside() throws {
    var model = try MazeBall(config: [:], seed: 1)
    _ = model.step(parsing: [["type": "tilt", "x": 1, "y": 1]])
    for _ in 0..<240 { _ = model.step(parsing: []) }
    #expect(abs(model.state.position.x - 350) < 1e-9)
    #expect(abs(model.state.position.y - 10) < 1e-9)
    #expect(model.state.velocity.length < 1)
  }

  @Test func slidesAlongAFlatWallOfManyBlocksWithoutSeamBumps() throws {
    var model = try MazeBall(config: ["cells": maze([8: "############"])], seed: 1)
    model.state.position = Vector2(x: 20, y: 230)
    _ = model.step(parsing: [["type": "tilt", "x": 0.5, "y": -1]])
    var lastSpeed = model.state.velocity.x
    for _ in 0..<35 {
      let events = model.step(parsing: [])
      #expect(events.isEmpty)
      #expect(model.state.velocity.x > lastSpeed)
      #expect(abs(model.state.position.y - 230) < 1e-9)
      lastSpeed = model.state.velocity.x
    }
    #expect(model.state.position.x > 140)
  }

  @Test func bouncesOffABlockCornerInsteadOfSticking() throws {
    var model = try MazeBall(
      config: ["cells": maze([6: "......#....."]), "restitution": 1], seed: 1)
    // Aimed diagonally at the top-left corner of the block at (6, 6), whose square starts at
    // (180, 180).
    model.state.position = Vector2(x: 120, y: 120)
    model.state.velocity = Vector2(x: 600, y: 600)
    var bumped = false
    for _ in 0..<20 { bumped = bumped || model.step(parsing: []).contains { $0.name == "bump" } }
    #expect(bumped)
    #expect(model.state.velocity.x < -599 && model.state.velocity.y < -599)
  }

  @Test func fastBallDoesNotPassThroughAThinWall() throws {
    var column = Array(repeating: Self.empty, count: 12)
    for row in 0..<12 { column[row] = ".....#......" }
    var model = try MazeBall(
      config: ["cells": .array(column.map { .string($0) }), "restitution": 1, "maxSpeed": 19_200],
      seed: 1)
    model.state.position = Vector2(x: 100, y: 200)
    model.state.velocity = Vector2(x: 19_200, y: 500)
    for _ in 0..<120 {
      _ = model.step(parsing: [])
      #expect(model.state.position.x <= 150 - 10 + 1e-9)
    }
  }

  @Test func fillingTheCellUnderTheBallMovesTheBallOut() throws {
    var model = try MazeBall(config: [:], seed: 1)
    model.state.position = Vector2(x: 45, y: 45)
    let events = model.step(parsing: [["type": "toggle", "row": 1, "col": 1]])
    #expect(events.map(\.name) == ["maze", "ball-moved"])
    #expect(events[0].fields["revision"] == 1)
    #expect(model.overlap(at: model.state.position) == 0)
  }

  @Test func rejectsInputsThatDoNotFitTheMaze() throws {
    var model = try MazeBall(config: ["rows": 2, "columns": 2, "width": 60, "height": 60], seed: 1)
    var events = model.step(parsing: [
      ["type": "toggle", "row": 5, "col": 0],
      ["type": "load", "cells": ["..."]],
      ["type": "load", "cells": ["##", "#."]],
      ["type": "toggle", "row": 1, "col": 1],
    ])
    #expect(
      events.map(\.name) == [
        "input-rejected", "input-rejected", "maze", "ball-moved", "input-rejected",
      ])
    #expect(model.state.position == Vector2(x: 45, y: 45))
    events = model.step(parsing: [["type": "clear"]])
    #expect(events.first?.fields["cells"] == ["..", ".."])
  }

  @Test func validatesAndNormalizesInputs() throws {
    #expect(
      try MazeBall.normalized(["type": "tilt", "x": 0.5, "y": -2]) == [
        "type": "tilt", "x": 0.5, "y": -2,
      ])
    #expect(throws: SimulationError(field: "x", message: "must be a number from -2 to 2")) {
      try MazeBall.normalized(["type": "tilt", "x": 3, "y": 0])
    }
    #expect(
      try MazeBall.normalized(["type": "toggle", "row": 3, "col": 4]) == [
        "type": "toggle", "row": 3, "col": 4,
      ])
    #expect(
      try MazeBall.normalized(["type": "load", "cells": ["#.", ".#"]]) == [
        "type": "load", "cells": ["#.", ".#"],
      ])
    #expect(throws: SimulationError.self) { try MazeBall.normalized(["type": "load"]) }
    #expect(try MazeBall.normalized(["type": "throw"]) == nil)
  }

  @Test func resetKeepsTheMazeAndPutsTheBallBack() throws {
    var model = try MazeBall(config: [:], seed: 1)
    _ = model.step(parsing: [
      ["type": "tilt", "x": 1, "y": 0], ["type": "toggle", "row": 0, "col": 0],
    ])
    for _ in 0..<30 { _ = model.step(parsing: []) }
    let events = model.step(parsing: [["type": "reset"]])
    #expect(events.map(\.name) == ["reset"])
    #expect(model.state.maze[0, 0])
    #expect(model.state.tilt == .zero)
    #expect(model.state.position == Vector2(x: 180, y: 180))
    #expect(model.tick == 32)
  }

  @Test func ballIsNeverInsideABlockOrOutsideTheBox() throws {
    var random = SeededGenerator(seed: 77)
    var cells: [JSONValue] = []
    for _ in 0..<12 {
      cells.append(.string(String((0..<12).map { _ in random.next(below: 6) == 0 ? "#" : "." })))
    }
    var model = try MazeBall(config: ["cells": .array(cells), "maxSpeed": 5_000], seed: 1)
    var worst = 0.0
    var travelled = 0.0
    var bumps = 0
    for step in 0..<20_000 {
      var inputs: [JSONValue] = []
      if step % 20 == 0 {
        inputs.append([
          "type": "tilt", "x": .number(random.next(in: -2...2)),
          "y": .number(random.next(in: -2...2)),
        ])
      }
      if step % 97 == 0 {
        inputs.append([
          "type": "toggle", "row": .number(random.next(below: 12)),
          "col": .number(random.next(below: 12)),
        ])
      }
      let before = model.state.position
      bumps += model.step(parsing: inputs).count { $0.name == "bump" }
      travelled += (model.state.position - before).length
      worst = max(worst, model.overlap(at: model.state.position))
    }
    #expect(worst <= MazeBall.tolerance)
    #expect(travelled > 30_000 && bumps > 1_000, "\(travelled) \(bumps)")
  }
}
