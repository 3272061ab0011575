import JSON

extension BouncingBalls {
  /// A controller's input, validated without looking at the state.
  enum Input: Equatable, ModelInput {
    /// Adds a ball at (x, y) px moving at (vx, vy) px/s; radius and mass are optional.
    case addBall(x: Double, y: Double, vx: Double, vy: Double, radius: Double?, mass: Double?)
    /// Sets the velocity of ball `index` to (vx, vy) px/s: a flick with the pointer.
    case throwBall(index: Int, vx: Double, vy: Double)
    /// Back to the start for the same config and seed.
    case reset

    /// Whether it is `reset`.
    var isReset: Bool {
      if case .reset = self { return true }
      return false
    }

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "add-ball":
        let x = try fields.number("x", in: 0...10_000)
        let y = try fields.number("y", in: 0...10_000)
        let vx = try fields.number("vx", in: -20_000...20_000, default: 0)
        let vy = try fields.number("vy", in: -20_000...20_000, default: 0)
        let radius = try fields.optionalNumber("radius", in: 1...100)
        let mass = try fields.optionalNumber("mass", in: BouncingBalls.massRange)
        self = .addBall(x: x, y: y, vx: vx, vy: vy, radius: radius, mass: mass)
      case "throw":
        let index = try fields.integer("index", in: 0...9_999)
        let vx = try fields.number("vx", in: -20_000...20_000)
        let vy = try fields.number("vy", in: -20_000...20_000)
        self = .throwBall(index: index, vx: vx, vy: vy)
      default:
        return nil
      }
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .addBall(let x, let y, let vx, let vy, let radius, let mass):
        var members: [String: JSONValue] = [
          "type": "add-ball", "x": .number(x), "y": .number(y), "vx": .number(vx),
          "vy": .number(vy),
        ]
        if let radius { members["radius"] = .number(radius) }
        if let mass { members["mass"] = .number(mass) }
        return .object(members)
      case .throwBall(let index, let vx, let vy):
        return ["type": "throw", "index": .number(index), "vx": .number(vx), "vy": .number(vy)]
      case .reset:
        return ["type": "reset"]
      }
    }
  }
}
