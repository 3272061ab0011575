import JSON

/// Reads and checks the members of one JSON object (a config or an input message), naming the
/// field and its allowed range in every error; `finish()` rejects members nobody asked for.
struct FieldReader {
  private let members: [String: JSONValue]
  private var consumed: Set<String> = []
  private let prefix: String

  /// Starts reading `value`, which must be an object; `context` names it in errors.
  init(_ value: JSONValue, context: String, prefix: String = "") throws(SimulationError) {
    guard let members = value.objectValue else {
      throw SimulationError(field: context, message: "must be an object")
    }
    self.members = members
    self.prefix = prefix
  }

  /// Starts reading a client message: an object whose `type` is a string.
  static func message(_ value: JSONValue) throws(SimulationError) -> (
    type: String, fields: FieldReader
  ) {
    var fields = try FieldReader(value, context: "message")
    guard let type = fields.raw("type")?.stringValue else {
      throw SimulationError(field: "type", message: "must be a string")
    }
    return (type, fields)
  }

  /// Marks `name` as known without reading it (e.g. a message's `type`).
  mutating func skip(_ name: String) {
    consumed.insert(name)
  }

  /// The raw member, or nil when absent; marks it as read.
  mutating func raw(_ name: String) -> JSONValue? {
    consumed.insert(name)
    return members[name]
  }

  /// The full field name used in errors.
  func path(_ name: String) -> String { prefix + name }

  /// A number in `range`; `fallback` is used when the member is absent (required if nil).
  mutating func number(
    _ name: String, in range: ClosedRange<Double>, default fallback: Double? = nil
  ) throws(SimulationError) -> Double {
    let problem =
      "must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
    return try read(name, default: fallback, problem: problem) { member in
      member.doubleValue.flatMap { range.contains($0) ? $0 : nil }
    }
  }

  /// A number in `range`, or nil when the member is absent.
  mutating func optionalNumber(
    _ name: String, in range: ClosedRange<Double>
  ) throws(SimulationError) -> Double? {
    guard members[name] != nil else {
      consumed.insert(name)
      return nil
    }
    return try number(name, in: range)
  }

  /// An integer in `range`; `fallback` is used when the member is absent (required if nil).
  mutating func integer(
    _ name: String, in range: ClosedRange<Int>, default fallback: Int? = nil
  ) throws(SimulationError) -> Int {
    let problem = "must be an integer from \(range.lowerBound) to \(range.upperBound)"
    return try read(name, default: fallback, problem: problem) { member in
      member.intValue.flatMap { range.contains($0) ? $0 : nil }
    }
  }

  /// One of `choices`; `fallback` is used when the member is absent (required if nil).
  mutating func choice(
    _ name: String, among choices: [String], default fallback: String? = nil
  ) throws(SimulationError) -> String {
    let problem = "must be one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
    return try read(name, default: fallback, problem: problem) { member in
      member.stringValue.flatMap { choices.contains($0) ? $0 : nil }
    }
  }

  /// A string of 1 to `maxLength` Unicode scalars without control characters.
  mutating func text(
    _ name: String, maxLength: Int, default fallback: String? = nil
  ) throws(SimulationError) -> String {
    try read(name, default: fallback, problem: Self.textProblem(maxLength)) { member in
      Self.validText(member, maxLength: maxLength)
    }
  }

  /// `value` as a string of 1 to `maxLength` Unicode scalars without control characters.
  static func text(
    _ value: JSONValue, field: String, maxLength: Int
  ) throws(SimulationError) -> String {
    guard let text = validText(value, maxLength: maxLength) else {
      throw SimulationError(field: field, message: textProblem(maxLength))
    }
    return text
  }

  private static func validText(_ value: JSONValue, maxLength: Int) -> String? {
    guard let text = value.stringValue, !text.isEmpty, text.unicodeScalars.count <= maxLength,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    else { return nil }
    return text
  }

  private static func textProblem(_ maxLength: Int) -> String {
    "must be a string of 1 to \(maxLength) characters without control characters"
  }

  /// Reads member `name` through `convert` (nil means invalid, and the error says `problem`);
  /// an absent member gives `fallback`, or an error if there is none.
  private mutating func read<Value>(
    _ name: String, default fallback: Value?, problem: String, _ convert: (JSONValue) -> Value?
  ) throws(SimulationError) -> Value {
    guard let member = raw(name) else {
      guard let fallback else {
        throw SimulationError(field: path(name), message: "is required; \(problem)")
      }
      return fallback
    }
    guard let value = convert(member) else {
      throw SimulationError(field: path(name), message: problem)
    }
    return value
  }

  /// Throws if the object has a member that was never read.
  func finish() throws(SimulationError) {
    let unknown = members.keys.filter { !consumed.contains($0) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    guard let first = unknown.first else { return }
    let known = consumed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      .joined(separator: ", ")
    throw SimulationError(field: path(first), message: "unknown field; known fields: \(known)")
  }

  /// A number as JSON writes it (`0.5`, `10000`).
  static func format(_ number: Double) -> String { JSONValue.number(number).jsonString }
}
