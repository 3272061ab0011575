extension JSONParser {
  // RFC 8259 §7: string = quotation-mark *char quotation-mark; control characters must be escaped.
  mutating func parseString() throws(JSONParseError) -> String {
    let start = index
    index += 1
    let contentStart = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
        index += 1
        // NB: the bytes were validated as UTF-8 above, so decoding repairs nothing.
        return String(decoding: content, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") { break }
      index = try skipCharacter(at: index)
    }
    guard index < bytes.count else { throw failure("unterminated string", at: start) }
    var buffer = Array(bytes[contentStart..<index])
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: buffer, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") {
        try parseEscape(into: &buffer)
      } else {
        let end = try skipCharacter(at: index)
        buffer.append(contentsOf: bytes[index..<end])
        index = end
      }
    }
    throw failure("unterminated string", at: start)
  }

  /// Returns the index past one unescaped character inside a string, validating it.
  private func skipCharacter(at position: Int) throws(JSONParseError) -> Int {
    let byte = bytes[position]
    if byte < 0x20 {
      throw failure("control character in a string must be escaped", at: position)
    }
    if byte < 0x80 { return position + 1 }
    return try endOfUTF8Sequence(at: position)
  }

  // RFC 8259 §8.1 requires UTF-8; well-formed sequences per Unicode Table 3-7 (RFC 3629 §4).
  private func endOfUTF8Sequence(at position: Int) throws(JSONParseError) -> Int {
    let lead = bytes[position]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: throw failure("invalid UTF-8", at: position)
    }
    guard position + length <= bytes.count, secondRange.contains(bytes[position + 1]) else {
      throw failure("invalid UTF-8", at: position)
    }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[position + offset]) {
      throw failure("invalid UTF-8", at: position)
    }
    return position + length
  }

  // RFC 8259 §7: the two-character escapes and \uXXXX, with surrogate pairs for astral scalars.
  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
    let start = index
    guard index + 1 < bytes.count else { throw failure("unterminated string", at: start) }
    let code = bytes[index + 1]
    index += 2
    switch code {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4()
      if (0xDC00...0xDFFF).contains(scalar) {
        throw failure("lone low surrogate in a \\u escape", at: start)
      }
      if (0xD800...0xDBFF).contains(scalar) {
        // RFC 8259 §7: an astral scalar is a UTF-16 surrogate pair of two \u escapes.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("lone high surrogate in a \\u escape", at: start) }
        index += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw failure("high surrogate not followed by a low surrogate", at: start)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      Self.appendUTF8(scalar, to: &buffer)
    default:
      throw failure("invalid escape sequence", at: start)
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw failure("\\u needs four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("\\u needs four hex digits")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      buffer.append(UInt8(scalar))
    case 0x80..<0x800:
      buffer.append(0xC0 | UInt8(scalar >> 6))
      buffer.append(0x80 | UInt8(scalar & 0x3F))
    case 0x800..<0x10000:
      buffer.append(0xE0 | UInt8(scalar >> 12))
      buffer.append(0x80 | UInt8(scalar >> 6 & 0x3F))
      buffer.append(0x80 | UInt8(scalar & 0x3F))
    default:
      buffer.append(0xF0 | UInt8(scalar >> 18))
      buffer.append(0x80 | UInt8(scalar >> 12 & 0x3F))
      buffer.append(0x80 | UInt8(scalar >> 6 & 0x3F))
      buffer.append(0x80 | UInt8(scalar & 0x3F))
    }
  }
}
