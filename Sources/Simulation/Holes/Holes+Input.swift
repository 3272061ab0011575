import JSON

extension Holes {
  /// A controller's input, validated without looking at the state.
  enum Input: Equatable, ModelInput {
    /// Tilt in g, each component from -2 to 2: x > 0 rolls right, y > 0 rolls up.
    case tilt(x: Double, y: Double)
    /// A new game (the seed's RESTART).
    case restart
    /// The same as `restart`: every model accepts `reset`.
    case reset

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "tilt":
        self = .tilt(x: try fields.number("x", in: -2...2), y: try fields.number("y", in: -2...2))
      case "restart":
        self = .restart
      default:
        return nil
      }
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .tilt(let x, let y): ["type": "tilt", "x": .number(x), "y": .number(y)]
      case .restart: ["type": "restart"]
      case .reset: ["type": "reset"]
      }
    }
  }
}
