import JSON

extension MazeBall {
  /// A controller's input, validated without looking at the state.
  enum Input: Equatable, ModelInput {
    /// Tilt in g, each component from -2 to 2: x > 0 rolls right, y > 0 rolls up.
    case tilt(x: Double, y: Double)
    /// Flips the cell at (row, col) between solid and empty.
    case toggle(row: Int, column: Int)
    /// Empties every cell.
    case clear
    /// Replaces the whole maze.
    case load(Maze)
    /// Puts the ball back at the start, at rest, with no tilt; the maze stays.
    case reset

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "tilt":
        self = .tilt(x: try fields.number("x", in: -2...2), y: try fields.number("y", in: -2...2))
      case "toggle":
        self = .toggle(
          row: try fields.integer("row", in: 0...63), column: try fields.integer("col", in: 0...63))
      case "clear":
        self = .clear
      case "load":
        guard let cells = fields.raw("cells") else {
          throw SimulationError(
            field: "cells", message: "is required; an array of row strings of '#' or '.'")
        }
        self = .load(try Maze(json: cells, field: "cells"))
      default:
        return nil
      }
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .tilt(let x, let y): ["type": "tilt", "x": .number(x), "y": .number(y)]
      case .toggle(let row, let column):
        ["type": "toggle", "row": .number(row), "col": .number(column)]
      case .clear: ["type": "clear"]
      case .load(let maze): ["type": "load", "cells": maze.json]
      case .reset: ["type": "reset"]
      }
    }
  }
}
