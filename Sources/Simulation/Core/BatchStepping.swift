import JSON

/// A model that agents step many at a time over one connection (`/ws/batch`): its action is
/// one input with fixed numeric fields, and after a step it gives a fixed list of numbers (the
/// observation and what a reward is made of), each rounded as its frame rounds it, so that a
/// batch reply and a frame say exactly the same.
public protocol BatchStepping: Simulation {
  /// The input an action becomes: its type and its numeric fields, in order (tilt x, y).
  static var batchAction: (type: String, fields: [String]) { get }
  /// An action's numbers (as many as `batchAction.fields`) as the input they stand for, checked
  /// as `checkedInput(from:sentBy:)` checks that input from the controller (without building
  /// and reading a message).
  static func batchInput(_ numbers: [Double]) throws(SimulationError) -> CheckedInput
  /// The names of the values `writeBatchValues` gives, in order (they may depend on the config).
  var batchFields: [String] { get }
  /// Appends exactly `batchFields.count` values.
  func writeBatchValues(into values: inout BatchValues)
}

extension BatchStepping {
  /// Its batch values (`writeBatchValues`).
  public func appendBatchValues(into values: inout BatchValues) -> Bool {
    writeBatchValues(into: &values)
    return true
  }

  /// A tilt component in g, checked as a `tilt` message's `x` or `y`.
  static func checkedTilt(_ value: Double, field: String) throws(SimulationError) -> Double {
    guard (-2...2).contains(value) else {
      throw SimulationError(field: field, message: "must be a number from -2 to 2")
    }
    return value
  }

  /// A checked tilt's normalized message as JSON text, written directly: exactly what
  /// `{"type": "tilt", "x": x, "y": y}` as a `JSONValue` serializes to (keys sorted), without
  /// building it (the batch path logs one per step).
  static func tiltText(x: Double, y: Double) -> String {
    var writer = JSONWriter(capacity: 48)
    writer.beginObject()
    writer.key("type")
    writer.string("tilt")
    writer.key("x")
    writer.number(x)
    writer.key("y")
    writer.number(y)
    writer.endObject()
    return writer.string
  }
}
