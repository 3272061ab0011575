import JSON

extension FuzzTarget {
  /// Any bytes parse or fail cleanly; what parses serializes to text that parses back equal.
  static func json(_ bytes: [UInt8]) {
    guard let value = try? JSONValue.parse(bytes, maxDepth: 32) else { return }
    let text = value.serialized()
    guard let again = try? JSONValue.parse(text, maxDepth: 64) else {
      preconditionFailure(
        "serialized JSON does not parse: \(String(decoding: text, as: UTF8.self))")
    }
    precondition(again == value, "a serialize-parse round trip changed the value")
  }
}
