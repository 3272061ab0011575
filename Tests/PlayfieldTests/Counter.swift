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

  static func input(from message: JSONValue) throws(SimulationError) -> JSONValue? {
    switch message["type"]?.stringValue {
    case "reset": return ["type": "reset"]
    case "add":
      guard let amount = message["amount"]?.intValue else {
        throw SimulationError(field: "amount", message: "must be an integer")
      }
      return ["type": "add", "amount": .number(amount)]
    default: return nil
    }
  }

  mutating func step(inputs: [JSONValue]) -> [SimulationEvent] {
    tick += 1
    var events: [SimulationEvent] = []
    for input in inputs {
      if input["type"] == "reset" {
        total = 0
        events.append(SimulationEvent(name: "reset"))
      } else {
        total += input["amount"]?.intValue ?? 0
        events.append(SimulationEvent(name: "added", fields: ["total": .number(total)]))
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
