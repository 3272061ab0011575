import JSON

extension Paintbrush {
  /// A painter's input, validated without looking at the canvas.
  enum Input: Equatable, ModelInput {
    /// Points of one stroke, `[x0, y0, x1, y1, ...]` in px rounded to 0.1; the first batch of
    /// a `(author, stroke)` pair starts a stroke, later ones continue it.
    case stroke(author: String, stroke: Int, color: String, radius: Double, points: [Double])
    /// Removes the author's most recent stroke still on the canvas.
    case undo(author: String)
    /// Removes every stroke (the seed's CLEAR).
    case clear
    /// The same as `clear`: every model accepts `reset`.
    case reset

    /// Largest coordinate and canvas side, in px.
    static let maxCoordinate = 4_096
    /// Largest brush radius, in px.
    static let maxRadius = 50.0
    /// Longest author id, in characters.
    static let maxAuthorLength = 32

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "stroke":
        let author = try Self.author(&fields)
        let stroke = try fields.integer("stroke", in: 0...Int(Int32.max))
        let color = try fields.text("color", maxLength: 7).lowercased()
        guard Self.isColor(color) else {
          throw SimulationError(field: "color", message: "must be a colour like \"#ff8800\"")
        }
        let radius = try fields.number("radius", in: 1...Self.maxRadius)
        self = .stroke(
          author: author, stroke: stroke, color: color, radius: (radius * 10).rounded() / 10,
          points: try Self.points(fields.raw("points")))
      case "undo":
        self = .undo(author: try Self.author(&fields))
      case "clear":
        self = .clear
      default:
        return nil
      }
    }

    /// The input as the server stamps it: its `author` becomes `SENDER-DIGEST`, the sender the
    /// server knows (`controller` or the seat's name) and a digest of the painter's own key
    /// (the `author` the page keeps, never shown to anyone), so no one can paint or undo as
    /// another painter, and a guest never as the owner. Read back from the log, it stays.
    func sent(by sender: Sender) -> Self {
      switch self {
      case .stroke(let author, let stroke, let color, let radius, let points):
        .stroke(
          author: Self.stamp(author, sender), stroke: stroke, color: color, radius: radius,
          points: points)
      case .undo(let author): .undo(author: Self.stamp(author, sender))
      case .clear, .reset: self
      }
    }

    /// `SENDER-DIGEST`: at most 15 characters of the sender's name and 16 hex digits of FNV-1a
    /// (64-bit) over `name:key`; at most 32 characters, so it reads back as an author.
    static func stamp(_ key: String, _ sender: Sender) -> String {
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      for byte in (sender.name + ":" + key).utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      }
      let digits = String(hash, radix: 16)
      return String(sender.name.prefix(15)) + "-"
        + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .stroke(let author, let stroke, let color, let radius, let points):
        [
          "type": "stroke", "author": .string(author), "stroke": .number(stroke),
          "color": .string(color), "radius": .number(radius),
          "points": .array(points.map(JSONValue.number)),
        ]
      case .undo(let author): ["type": "undo", "author": .string(author)]
      case .clear: ["type": "clear"]
      case .reset: ["type": "reset"]
      }
    }

    /// `#rrggbb` in lowercase hex.
    static func isColor(_ text: String) -> Bool {
      let bytes = Array(text.utf8)
      return bytes.count == 7 && bytes[0] == UInt8(ascii: "#")
        && bytes.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// 1 to 32 letters, digits, `-` or `_`: an id the painter's page picks at random.
    private static func author(_ fields: inout FieldReader) throws(SimulationError) -> String {
      let author = try fields.text("author", maxLength: maxAuthorLength)
      guard
        author.utf8.allSatisfy({ byte in
          (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
            || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
        })
      else {
        throw SimulationError(
          field: "author", message: "must be 1 to 32 letters, digits, \"-\" or \"_\"")
      }
      return author
    }

    /// A flat array of 1 to `maxPointsPerMessage` points, each coordinate 0 to 4096 px.
    private static func points(_ value: JSONValue?) throws(SimulationError) -> [Double] {
      let problem =
        "must be a flat array [x0, y0, x1, y1, ...] of 1 to \(Paintbrush.maxPointsPerMessage) "
        + "points, each coordinate from 0 to \(maxCoordinate)"
      guard let elements = value?.arrayValue, elements.count >= 2, elements.count % 2 == 0,
        elements.count <= 2 * Paintbrush.maxPointsPerMessage
      else { throw SimulationError(field: "points", message: problem) }
      var points: [Double] = []
      points.reserveCapacity(elements.count)
      for element in elements {
        guard let number = element.doubleValue, (0...Double(maxCoordinate)).contains(number) else {
          throw SimulationError(field: "points", message: problem)
        }
        points.append((number * 10).rounded() / 10)
      }
      return points
    }
  }
}
