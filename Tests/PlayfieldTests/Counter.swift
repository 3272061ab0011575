import JSON
import Simulation

/// A tiny model for session tests: counts steps, adds each `add` input's amount, and ends the
/// game when the total reaches `goal`.
struct Counter: Simulation {
  static let kind = "counter"
  static let title = "Counter"
  static let summary = "Counts."

  var tick: UInt64 = 0
  var total = 0
  let goal: Int

  init(config: JSONValue, seed: UInt64) throws(SimulationError) {
    guard let goal = (config["goal"] ?? 1_000).intValue, goal > 0 else {
      throw SimulationError(field: "goal", message: "must be a positive integer")
    }
    self.goal = goal
  }

  var config: JSONValue { ["goal": .number(goal)] }

  /// A guest seat that may only add.
  static let seats = [Seat(name: "helper", role: "helper", label: "helper", inputs: ["add"])]

  /// One input: `reset`, or `add` with its amount and who sent it (as the server stamped it).
  enum Input: Sendable, Equatable {
    case reset
    case add(amount: Int, by: String)
  }

  static func checkedInput(from message: JSONValue, sentBy sender: Sender?)
    throws(SimulationError) -> CheckedInput?
  {
    switch message["type"]?.stringValue {
    case "reset": return CheckedInput(json: ["type": "reset"], value: Input.reset)
    case "add":
      guard let amount = message["amount"]?.intValue else {
        throw SimulationError(field: "amount", message: "must be an integer")
      }
      let by = sender?.name ?? message["by"]?.stringValue ?? "controller"
      return CheckedInput(
        json: ["type": "add", "amount": .number(amount), "by": .string(by)],
        value: Input.add(amount: amount, by: by))
    default: return nil
    }
  }

  /// `total`: asks the running total, with a `more` to add in the answer only (a query
  /// changes nothing); a `more` that is not an integer is a bad field, and one that would take
  /// the total below zero is refused by the state.
  static let queries: Set<String> = ["total"]

  func answer(_ query: JSONValue, sentBy sender: Sender?) throws(SimulationError) -> [UInt8] {
    guard let more = query["more"].map({ $0.intValue }) ?? 0 else {
      throw SimulationError(field: "more", message: "must be an integer")
    }
    guard total + more >= 0 else {
      throw SimulationError(field: "more", message: "would take the total below 0", kind: .refused)
    }
    var writer = JSONWriter()
    writer.number(total + more)
    return writer.bytes
  }

  /// Who sent each `add`, in order (not part of the state).
  var senders: [String] = []

  mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent] {
    tick += 1
    var events: [SimulationEvent] = []
    for case let input as Input in inputs.map(\.value) {
      switch input {
      case .reset:
        total = 0
        events.append(SimulationEvent(name: "reset"))
      case .add(let amount, let by):
        total += amount
        senders.append(by)
        events.append(
          SimulationEvent(name: "added", fields: ["total": .number(total), "by": .string(by)]))
      }
    }
    if total >= goal {
      events.append(.gameOver(score: total, level: 1))
      total = 0
    }
    return events
  }

  func writeHello(into writer: inout JSONWriter) { writer.field("goal", goal) }
  func writeFrame(into writer: inout JSONWriter) { writer.field("total", total) }

  func snapshot() -> [UInt8] {
    withUnsafeBytes(of: tick.littleEndian) { Array($0) }
      + withUnsafeBytes(of: Int64(total).littleEndian) { Array($0) }
      + withUnsafeBytes(of: Int64(goal).littleEndian) { Array($0) }
  }

  init(snapshot: [UInt8]) throws(SimulationError) {
    guard snapshot.count == 24 else {
      throw SimulationError(field: "snapshot", message: "must be 24 bytes")
    }
    func word(_ at: Int) -> UInt64 {
      snapshot[at..<at + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
    tick = word(0)
    total = Int(Int64(bitPattern: word(8)))
    goal = Int(Int64(bitPattern: word(16)))
  }

  var stateHash: UInt64 {
    snapshot().reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
  }
}
