/// Byte classes from RFC 9110 §5.6.2 and RFC 3986.
enum Syntax {
  /// tchar: "!#$%&'*+-.^_`|~", digits and letters.
  // NB: a switch, not a table in a `static let`: reading that checked its lazy initialization
  // for every byte of every method and field name (issue 31).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
  }

  /// A field-value byte (RFC 9110 §5.5): visible ASCII, space, tab, or obs-text.
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }

  /// A byte allowed in a request target: visible ASCII or obs-text, no space or control.
  static func isTargetByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte != 0x7F
  }

  /// A valid `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2): a bracketed IP literal,
  /// or a non-empty name of unreserved, sub-delims and `%` bytes without `..`; then digits.
  static func isHost(_ text: Substring) -> Bool {
    var text = text
    return text.withUTF8 { isHost($0) }
  }

  static func isHost(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    if bytes.first == UInt8(ascii: "[") {
      guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
      guard bytes[1..<close].allSatisfy({ hexValue($0) != nil || $0 == 0x3A || $0 == 0x2E })
      else { return false }
      index = close + 1
    } else {
      while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
        guard isRegNameByte(bytes[index]) else { return false }
        if bytes[index] == UInt8(ascii: "."), index > 0, bytes[index - 1] == UInt8(ascii: ".") {
          return false
        }
        index += 1
      }
      guard index > 0 else { return false }
    }
    guard index < bytes.count else { return true }
    guard bytes[index] == UInt8(ascii: ":") else { return false }
    return bytes[(index + 1)...].allSatisfy(isDigit)
  }

  /// reg-name bytes: unreserved, sub-delims and `%` (RFC 3986 §3.2.2).
  static func isRegNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
      UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
      true
    default:
      false
    }
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - 0x30)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - 0x61 + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - 0x41 + 10)
    default: nil
    }
  }
}
