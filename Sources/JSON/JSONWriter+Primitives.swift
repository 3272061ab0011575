extension JSONWriter {
  /// Writes a member whose value is an integer.
  public mutating func field(_ name: String, _ value: Int) {
    key(name)
    number(value)
  }

  /// Writes a member whose value is a number.
  public mutating func field(_ name: String, _ value: Double) {
    key(name)
    number(value)
  }

  /// Writes a member whose value is a number rounded to `decimals` places.
  public mutating func field(_ name: String, _ value: Double, decimals: Int) {
    key(name)
    number(value, decimals: decimals)
  }

  /// Writes a member whose value is a string.
  public mutating func field(_ name: String, _ value: String) {
    key(name)
    string(value)
  }

  /// Writes a member whose value is a Boolean.
  public mutating func field(_ name: String, _ value: Bool) {
    key(name)
    bool(value)
  }

  /// Writes a member whose value is any JSON value.
  public mutating func field(_ name: String, _ value: JSONValue) {
    key(name)
    self.value(value)
  }

  mutating func appendASCII(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func appendInteger(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(UInt64(value.magnitude))
  }

  /// Appends the decimal digits of `value`, left-padded with zeros to `width` (at most 20).
  mutating func appendDigits(_ value: UInt64, width: Int = 1) {
    // Digits go right to left into a 20-byte scratch buffer, then out in one append.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
      var position = 20
      var rest = value
      repeat {
        position -= 1
        scratch[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      while 20 - position < min(width, 20) {
        position -= 1
        scratch[position] = UInt8(ascii: "0")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[position..<20]))
    }
  }

  mutating func appendDouble(_ value: Double) {
    guard value.isFinite else {
      appendASCII("null")
      return
    }
    if value.rounded(.towardZero) == value && abs(value) < 9_007_199_254_740_992 {
      if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
      appendDigits(UInt64(abs(value)))
      return
    }
    // NB: Swift's description is the shortest round-trip form and valid JSON ("0.1", "1e-07",
    // "1.5e+300"); large integral values come as "9007199254740992.0", so drop the ".0".
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
  }

  static func powerOfTen(_ exponent: Int) -> UInt64 {
    var power: UInt64 = 1
    for _ in 0..<exponent { power *= 10 }
    return power
  }

  // RFC 8259 §7 escapes plus `<`, `>`, `&`, U+2028 and U+2029 so output is safe in HTML
  // `<script>` and in JavaScript string literals.
  mutating func appendQuoted(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      var position = 0
      while position < utf8.count {
        let byte = utf8[position]
        guard Self.needsEscape(byte) else {
          position += 1
          continue
        }
        if byte == 0xE2 {
          guard position + 2 < utf8.count, utf8[position + 1] == 0x80,
            utf8[position + 2] == 0xA8 || utf8[position + 2] == 0xA9
          else {
            position += 1
            continue
          }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
        if byte == 0xE2 {
          appendASCII(utf8[position + 2] == 0xA8 ? "\\u2028" : "\\u2029")
          position += 3
        } else {
          appendEscape(byte)
          position += 1
        }
        runStart = position
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    switch byte {
    case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"),
      UInt8(ascii: "&"), 0xE2:
      return true
    default:
      return false
    }
  }

  private mutating func appendEscape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): appendASCII("\\\"")
    case UInt8(ascii: "\\"): appendASCII("\\\\")
    case 0x0A: appendASCII("\\n")
    case 0x0D: appendASCII("\\r")
    case 0x09: appendASCII("\\t")
    case 0x08: appendASCII("\\b")
    case 0x0C: appendASCII("\\f")
    default:
      appendASCII("\\u00")
      bytes.append(Self.hexDigit(byte >> 4))
      bytes.append(Self.hexDigit(byte & 0xF))
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
