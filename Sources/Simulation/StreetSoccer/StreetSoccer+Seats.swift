import JSON

extension StreetSoccer {
  /// One seat per side: whoever holds a side's token plays that side (its turns, its rolls of
  /// an external die, its kit, the rematch) and may ask for its `plan`. The control token
  /// (the session's owner) may act for either side, naming it in `side`: that is how one
  /// person plays a computer from either end, or two people share one screen.
  public static let seats = Side.allCases.map { side in
    Seat(
      name: side.rawValue, role: side.rawValue, label: "\(side.rawValue) side",
      inputs: ["turn", "die", "kit", "rematch", "plan"])
  }

  /// `plan`: the turn being planned (see `Plan`), asked for over the session channel.
  public static let queries: Set<String> = ["plan"]

  /// The side a sender plays: a seat's own side, or the side the controller's message names.
  static func side(of sender: Sender?, claimed: Side) -> Side {
    guard case .guest(let seat) = sender, let side = Side(rawValue: seat) else { return claimed }
    return side
  }

  /// `{"type": "plan", "side": "home", "moves": [...]}`: the plan of the side after the
  /// planned moves (`Plan.write(into:)`). Throws a `badField` error for a malformed query (a
  /// square off the grid of squares, say), a `refused` one when the side may not play now or
  /// naming the first planned move that breaks a rule.
  public func answer(_ query: JSONValue, sentBy sender: Sender?) throws(SimulationError)
    -> [UInt8]
  {
    var (type, fields) = try FieldReader.message(query)
    guard type == "plan" else {
      throw SimulationError(field: "type", message: "\(Self.kind) answers only \"plan\"")
    }
    let claimed = Side(
      rawValue: try fields.choice("side", among: Side.allCases.map(\.rawValue)))!
    let moves = try Move.list(from: fields.raw("moves"))
    try fields.finish()
    let plan: Plan
    do {
      plan = try self.plan(for: Self.side(of: sender, claimed: claimed), moves)
    } catch {
      throw error.refusal
    }
    var writer = JSONWriter(capacity: 512)
    writer.beginObject()
    plan.write(into: &writer)
    writer.endObject()
    return writer.bytes
  }
}

extension StreetSoccer.Input {
  /// A seat's inputs act for its own side, whatever `side` they claim; the controller's keep
  /// the side they name.
  func sent(by sender: Sender) -> Self {
    let side = { (claimed: StreetSoccer.Side) in StreetSoccer.side(of: sender, claimed: claimed) }
    switch self {
    case .turn(let claimed, let moves): return .turn(side: side(claimed), moves: moves)
    case .die(let claimed, let value): return .die(side: side(claimed), value: value)
    case .kit(let claimed, let kit): return .kit(side: side(claimed), kit: kit)
    case .rematch(let claimed): return .rematch(side: side(claimed))
    case .reset: return .reset
    }
  }
}
