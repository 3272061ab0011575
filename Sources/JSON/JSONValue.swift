/// A JSON value (RFC 8259 §3): the tree form used for messages, configs and tests.
///
/// Numbers are `Double` (RFC 8259 §6 allows implementations to limit range and precision; integers
/// up to 2^53 are exact). Objects keep no key order; `serialized()` sorts keys so output is
/// deterministic.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The member named `key`, or nil unless this is an object holding that key.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The element at `index`, or nil unless this is an array long enough.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// The number, if this is a number.
  public var doubleValue: Double? {
    guard case .number(let number) = self else { return nil }
    return number
  }

  /// The Boolean, if this is `true` or `false`.
  public var boolValue: Bool? {
    guard case .bool(let flag) = self else { return nil }
    return flag
  }

  /// The number as an `Int`, only if it is an exact integer within `Int`'s range.
  public var intValue: Int? {
    guard case .number(let number) = self else { return nil }
    // NB: Int(exactly:) rejects fractions, NaN, infinities and values past Int.max/Int.min.
    return Int(exactly: number)
  }

  /// The members, if this is an object.
  public var objectValue: [String: JSONValue]? {
    guard case .object(let members) = self else { return nil }
    return members
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  /// True if this is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A number value from an integer.
  public static func number(_ integer: Int) -> JSONValue {
    .number(Double(integer))
  }
}
