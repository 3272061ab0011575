import JSON
import Simulation

extension FuzzTarget {
  /// The street soccer sessions the first byte picks from: two people with the server's
  /// dice, two people with external dice on the smallest pitch, a person against the
  /// novice computer with external dice.
  private static let soccerConfigs: [JSONValue] = [
    ["away": "human"],
    ["away": "human", "dice": "external", "columns": 9, "rows": 5, "turnsPerSide": 3],
    ["away": "novice", "dice": "external", "computerDelay": 0, "turnsPerSide": 4],
  ]

  /// A street soccer session fed a sequence: the rest of the input is a JSON array of
  /// messages (or one message; at most 24), each applied in a step of its own; a
  /// `{"type": "plan", "side", "moves"}` message is asked as a query (`answer`) and of the plan
  /// API instead, and the legal
  /// moves it lists must plan too. Whatever comes, the model writes its frame and hello, and its snapshot
  /// restores to the same bytes.
  static func soccer(_ bytes: [UInt8]) {
    guard let first = bytes.first,
      let json = try? JSONValue.parse(bytes.dropFirst(), maxDepth: 16),
      var model = try? StreetSoccer(
        config: soccerConfigs[Int(first) % soccerConfigs.count], seed: 42)
    else { return }
    for message in (json.arrayValue ?? [json]).prefix(24) {
      if message["type"] == "plan" {
        // The socket's way in (a seat's or the controller's query), parsing included.
        for sender in [Sender.guest("away"), .controller] {
          if let answer = try? model.answer(message, sentBy: sender) {
            precondition((try? JSONValue.parse(answer)) != nil, "a plan answer is not JSON")
          }
        }
        plan(message, on: model)
      } else if let input = try? StreetSoccer.checkedInput(from: message) {
        _ = model.step(checked: [input])
      } else {
        _ = model.step(parsing: [message])
      }
    }
    var writer = JSONWriter(capacity: 1_024)
    writer.beginObject()
    model.writeHello(into: &writer)
    writer.endObject()
    precondition((try? JSONValue.parse(writer.bytes)) != nil, "a street soccer hello is not JSON")
    let snapshot = model.snapshot()
    guard let restored = try? StreetSoccer(snapshot: snapshot) else {
      preconditionFailure("a street soccer snapshot does not restore")
    }
    precondition(restored.snapshot() == snapshot, "a street soccer snapshot restores differently")
  }

  /// Asks for a plan; the legal moves it lists must plan after the planned ones.
  private static func plan(_ message: JSONValue, on model: StreetSoccer) {
    guard let side = message["side"]?.stringValue.flatMap(StreetSoccer.Side.init(rawValue:)),
      let moves = try? StreetSoccer.Move.list(from: message["moves"]),
      let plan = try? model.plan(for: side, moves)
    else { return }
    var writer = JSONWriter(capacity: 1_024)
    writer.beginObject()
    plan.write(into: &writer)
    writer.endObject()
    guard moves.count < StreetSoccer.maxMovesPerTurn else { return }
    // NB: every fourth one, to keep each run short (StreetSoccerTests checks them all).
    for move in plan.legalMoves.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
      precondition(
        (try? model.plan(for: side, moves + [move])) != nil,
        "a listed legal move does not plan: \(move)")
    }
  }
}
