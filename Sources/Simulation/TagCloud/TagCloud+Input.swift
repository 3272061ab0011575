import JSON

extension TagCloud {
  /// A controller's input, validated without looking at the state.
  enum Input: Equatable, ModelInput {
    /// Pointer motion in px since the previous drag message (each -2000 to 2000): x turns the
    /// sphere about the vertical axis, y about the horizontal one, by motion / radius rad.
    case drag(dx: Double, dy: Double)
    /// The pointer let go: the cloud keeps spinning with the drag's speed, then slows down.
    case release
    /// Replaces the labels.
    case tags([Tag])
    /// Back to the configured tags and orientation.
    case reset

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "drag":
        self = .drag(
          dx: try fields.number("dx", in: -2_000...2_000),
          dy: try fields.number("dy", in: -2_000...2_000))
      case "release":
        self = .release
      case "tags":
        guard let list = fields.raw("tags") else {
          throw SimulationError(field: "tags", message: "is required; an array of 1 to 200 tags")
        }
        self = .tags(try Tag.list(json: list, field: "tags"))
      default:
        return nil
      }
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .drag(let dx, let dy): ["type": "drag", "dx": .number(dx), "dy": .number(dy)]
      case .release: ["type": "release"]
      case .tags(let tags): ["type": "tags", "tags": .array(tags.map(\.json))]
      case .reset: ["type": "reset"]
      }
    }
  }
}
