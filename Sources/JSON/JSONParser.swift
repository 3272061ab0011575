/// A recursive-descent RFC 8259 parser over one contiguous buffer holding a whole document.
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  var index = 0

  private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// Parses `bytes` as one JSON document.
  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int
  ) -> Result<JSONValue, JSONParseError> {
    var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
    do {
      return .success(try parser.parseDocument())
    } catch {
      return .failure(error)
    }
  }

  // RFC 8259 §2: JSON-text = ws value ws.
  private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      // NB: §8.1 lets parsers ignore a byte order mark; we are strict and reject it.
      throw JSONParseError(message: "a byte order mark is not allowed", offset: 0)
    }
    skipWhitespace()
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard index == bytes.count else { throw failure("unexpected data after the value") }
    return value
  }

  // RFC 8259 §2: ws = *( %x20 / %x09 / %x0A / %x0D ).
  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  func failure(_ message: String, at offset: Int? = nil) -> JSONParseError {
    JSONParseError(message: message, offset: offset ?? index)
  }

  private func unexpected() -> JSONParseError {
    guard index < bytes.count else { return failure("unexpected end of input") }
    let byte = bytes[index]
    if byte > 0x20 && byte < 0x7F {
      return failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
    }
    let hex = String(byte, radix: 16, uppercase: true)
    return failure("unexpected byte 0x\(byte < 16 ? "0" : "")\(hex)")
  }

  private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw unexpected() }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try parseLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    default:
      throw unexpected()
    }
  }

  // RFC 8259 §3: the literal names are lowercase.
  private mutating func parseLiteral(_ name: StaticString) throws(JSONParseError) {
    let start = index
    let count = name.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw failure("invalid literal", at: start) }
    for offset in 0..<count where bytes[index + offset] != name.utf8Start[offset] {
      throw failure("invalid literal", at: start)
    }
    index += count
  }

  // RFC 8259 §4: object = begin-object [ member *( value-separator member ) ] end-object.
  private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw index < bytes.count ? failure("expected a string key") : unexpected()
      }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw index < bytes.count ? failure("expected ':' after an object key") : unexpected()
      }
      index += 1
      skipWhitespace()
      // NB: RFC 8259 §4 only says names SHOULD be unique; we refuse repeats, since two readers
      // could otherwise disagree about which value counts.
      let value: JSONValue
      do {
        value = try parseValue(depth: depth)
      } catch {
        throw error.inside(key: key)
      }
      guard members.updateValue(value, forKey: key) == nil else {
        throw failure("duplicate key \"\(key)\"", at: keyOffset)
      }
      skipWhitespace()
      guard index < bytes.count else { throw unexpected() }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw failure("expected ',' or '}' in an object")
      }
    }
  }

  // RFC 8259 §5: array = begin-array [ value *( value-separator value ) ] end-array.
  private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      do {
        elements.append(try parseValue(depth: depth))
      } catch {
        throw error.inside(index: elements.count)
      }
      skipWhitespace()
      guard index < bytes.count else { throw unexpected() }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw failure("expected ',' or ']' in an array")
      }
    }
  }
}
