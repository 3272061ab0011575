import JSON

/// Something that happened during a step (a collision, a score, a lost ball...), as data.
public struct SimulationEvent: Sendable, Equatable {
  /// The event's name, e.g. `"score"`.
  public var name: String
  /// The event's fields, e.g. `["score": 3]`.
  public var fields: [String: JSONValue]
  /// What the server itself must act on, if anything; the name and fields are for clients.
  public var meaning: Meaning

  /// Makes an event.
  public init(name: String, fields: [String: JSONValue] = [:], meaning: Meaning = .note) {
    self.name = name
    self.fields = fields
    self.meaning = meaning
  }

  /// Writes `"name": ...` followed by the fields (sorted by name) into an object the caller has
  /// begun.
  public func write(into writer: inout JSONWriter) {
    writer.field("name", name)
    for (key, value) in fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
      writer.field(key, value)
    }
  }
}
