import JSON

extension StreetSoccer {
  /// A player's input, checked without looking at the match. Inputs that act for a side carry
  /// `side`, which the server fills in from the connection's seat.
  enum Input: Equatable, ModelInput {
    /// A confirmed turn: its moves, checked and applied all together or not at all.
    case turn(side: Side, moves: [Move])
    /// A roll of a physical or virtual die, 1 to 6, in a session whose dice are external.
    case die(side: Side, value: Int)
    /// The side's kit (kept in the player's browser, sent when they join).
    case kit(side: Side, kit: Kit)
    /// After the match: the same two players again, ends changed, the other side kicking off.
    case rematch(side: Side)
    /// Back to the first match, as at the start (the kits stay).
    case reset

    init?(type: String, fields: inout FieldReader) throws(SimulationError) {
      switch type {
      case "turn":
        let side = try Self.side(&fields)
        self = .turn(side: side, moves: try Move.list(from: fields.raw("moves")))
      case "die":
        let side = try Self.side(&fields)
        self = .die(side: side, value: try fields.integer("value", in: 1...6))
      case "kit":
        let side = try Self.side(&fields)
        self = .kit(side: side, kit: try Kit(fields: &fields))
      case "rematch":
        self = .rematch(side: try Self.side(&fields))
      default:
        return nil
      }
    }

    /// The normalized message, as logged and replayed.
    var json: JSONValue {
      switch self {
      case .turn(let side, let moves):
        return ["type": "turn", "side": .string(side.rawValue), "moves": .array(moves.map(\.json))]
      case .die(let side, let value):
        return ["type": "die", "side": .string(side.rawValue), "value": .number(value)]
      case .kit(let side, let kit):
        var members = kit.json.objectValue ?? [:]
        members["type"] = "kit"
        members["side"] = .string(side.rawValue)
        return .object(members)
      case .rematch(let side): return ["type": "rematch", "side": .string(side.rawValue)]
      case .reset: return ["type": "reset"]
      }
    }

    private static func side(_ fields: inout FieldReader) throws(SimulationError) -> Side {
      Side(rawValue: try fields.choice("side", among: Side.allCases.map(\.rawValue)))!
    }
  }
}
