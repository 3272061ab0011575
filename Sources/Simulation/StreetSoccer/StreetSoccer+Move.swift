import JSON

extension StreetSoccer {
  /// One action of a turn by a piece of the side to play.
  public struct Move: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What the piece does.
    public enum Kind: String, Sendable, Codable, CaseIterable {
      /// One square in any of the 8 directions (1 point); the ball carrier dribbles.
      case step
      /// The ball along a line: a pass, or a shot into the goal (1 point).
      case kick
      /// The ball from the opponent next to the piece (2 points).
      case tackle
    }

    public var kind: Kind
    /// The piece's shirt number, 1 (the goalkeeper) to 5.
    public var piece: Int
    /// Where it steps, where the ball goes (a goal square for a shot), or the square of the
    /// opponent it tackles.
    public var to: Square

    /// A move.
    public init(_ kind: Kind, piece: Int, to: Square) {
      self.kind = kind
      self.piece = piece
      self.to = to
    }

    /// Points the move costs.
    public var cost: Int { kind == .tackle ? StreetSoccer.tackleCost : 1 }

    /// `step 3 to [4, 2]`.
    public var description: String { "\(kind.rawValue) \(piece) to \(to)" }

    /// `{"move": "step", "piece": 3, "to": [4, 2]}`, as in `turn` inputs.
    public var json: JSONValue {
      [
        "move": .string(kind.rawValue), "piece": .number(piece),
        "to": [.number(to.x), .number(to.y)],
      ]
    }

    /// Writes the move as `json` does.
    public func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("move", kind.rawValue)
      writer.field("piece", piece)
      writer.key("to")
      writer.beginArray()
      writer.number(to.x)
      writer.number(to.y)
      writer.endArray()
      writer.endObject()
    }

    /// The largest coordinates a move may name: the widest pitch's goal squares.
    static let xRange = -1...15
    static let yRange = 0...8

    /// Reads a list of moves, `[{"move", "piece", "to"}, ...]` (0 to 6 of them); errors name
    /// the field, e.g. `moves[1].piece: must be an integer from 1 to 5`.
    public static func list(from value: JSONValue?, field: String = "moves")
      throws(SimulationError) -> [Move]
    {
      let problem = "must be an array of 0 to \(StreetSoccer.maxMovesPerTurn) moves"
      guard let value else {
        throw SimulationError(field: field, message: "is required; \(problem)")
      }
      guard let elements = value.arrayValue, elements.count <= StreetSoccer.maxMovesPerTurn else {
        throw SimulationError(field: field, message: problem)
      }
      var moves: [Move] = []
      moves.reserveCapacity(elements.count)
      for (index, element) in elements.enumerated() {
        let path = "\(field)[\(index)]"
        var fields = try FieldReader(element, context: path, prefix: path + ".")
        let kind = try fields.choice("move", among: Kind.allCases.map(\.rawValue))
        let piece = try fields.integer("piece", in: 1...5)
        let to = try square(fields.raw("to"), field: fields.path("to"))
        try fields.finish()
        moves.append(Move(Kind(rawValue: kind)!, piece: piece, to: to))
      }
      return moves
    }

    private static func square(_ value: JSONValue?, field: String) throws(SimulationError)
      -> Square
    {
      let problem =
        "must be [x, y] with x an integer from \(xRange.lowerBound) to \(xRange.upperBound) "
        + "and y from \(yRange.lowerBound) to \(yRange.upperBound)"
      guard let value else {
        throw SimulationError(field: field, message: "is required; \(problem)")
      }
      guard let pair = value.arrayValue, pair.count == 2, let x = pair[0].intValue,
        let y = pair[1].intValue, xRange.contains(x), yRange.contains(y)
      else { throw SimulationError(field: field, message: problem) }
      return Square(x: x, y: y)
    }
  }
}
