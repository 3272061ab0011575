import JSON

/// Visits each field of a model's `Config` once: `ConfigReader` fills fields from JSON,
/// `ConfigWriter` turns them back into normalized JSON, so each field is listed in one place.
protocol ConfigVisitor {
  /// What visiting can throw: `SimulationError` when reading, `Never` when writing.
  associatedtype Failure: Error

  /// A number field in `range`.
  mutating func number(
    _ name: String, _ value: inout Double, in range: ClosedRange<Double>
  ) throws(Failure)

  /// An integer field in `range`.
  mutating func integer(_ name: String, _ value: inout Int, in range: ClosedRange<Int>)
    throws(Failure)

  /// A string field holding one of `choices`.
  mutating func choice(_ name: String, _ value: inout String, among choices: [String])
    throws(Failure)

  /// A field with its own JSON form, read by `decode` and written by `encode`.
  mutating func custom<Value>(
    _ name: String, _ value: inout Value,
    decode: (JSONValue, String) throws(SimulationError) -> Value, encode: (Value) -> JSONValue
  ) throws(Failure)
}

/// A model config: defaults from `init()`, fields listed once in `visitFields`.
protocol SimulationConfig: Codable, Sendable, Equatable {
  /// The defaults.
  init()

  /// Presents every field to `visitor`.
  mutating func visitFields<Visitor: ConfigVisitor>(
    _ visitor: inout Visitor
  ) throws(Visitor.Failure)

  /// Checks rules that involve several fields; the error names one of them.
  func validate() throws(SimulationError)
}

extension SimulationConfig {
  /// Reads a config object: missing fields keep their defaults, unknown fields are an error.
  init(json: JSONValue) throws(SimulationError) {
    var config = Self()
    var reader = ConfigReader(fields: try FieldReader(json, context: "config"))
    try config.visitFields(&reader)
    try reader.fields.finish()
    try config.validate()
    self = config
  }

  /// The normalized JSON form: every field, defaults filled in.
  var json: JSONValue {
    var copy = self
    var writer = ConfigWriter()
    copy.visitFields(&writer)
    return .object(writer.members)
  }
}

/// Fills config fields from a JSON object; absent fields keep the values they have.
struct ConfigReader: ConfigVisitor {
  var fields: FieldReader

  mutating func number(
    _ name: String, _ value: inout Double, in range: ClosedRange<Double>
  ) throws(SimulationError) {
    value = try fields.number(name, in: range, default: value)
  }

  mutating func integer(
    _ name: String, _ value: inout Int, in range: ClosedRange<Int>
  ) throws(SimulationError) {
    value = try fields.integer(name, in: range, default: value)
  }

  mutating func choice(
    _ name: String, _ value: inout String, among choices: [String]
  ) throws(SimulationError) {
    value = try fields.choice(name, among: choices, default: value)
  }

  mutating func custom<Value>(
    _ name: String, _ value: inout Value,
    decode: (JSONValue, String) throws(SimulationError) -> Value, encode: (Value) -> JSONValue
  ) throws(SimulationError) {
    guard let member = fields.raw(name) else { return }
    value = try decode(member, fields.path(name))
  }
}

/// Collects config fields into a JSON object.
struct ConfigWriter: ConfigVisitor {
  var members: [String: JSONValue] = [:]

  mutating func number(_ name: String, _ value: inout Double, in range: ClosedRange<Double>) {
    members[name] = .number(value)
  }

  mutating func integer(_ name: String, _ value: inout Int, in range: ClosedRange<Int>) {
    members[name] = .number(value)
  }

  mutating func choice(_ name: String, _ value: inout String, among choices: [String]) {
    members[name] = .string(value)
  }

  mutating func custom<Value>(
    _ name: String, _ value: inout Value,
    decode: (JSONValue, String) throws(SimulationError) -> Value, encode: (Value) -> JSONValue
  ) {
    members[name] = encode(value)
  }
}
