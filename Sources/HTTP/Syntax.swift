/// Byte classes from RFC 9110 §5.6.2 and RFC 3986, as lookup tables.
enum Syntax {
  /// tchar: "!#$%&'*+-.^_`|~", digits and letters.
  static let token: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
    for byte in "!#$%&'*+-.^_`|~".utf8 { table[Int(byte)] = true }
    return table
  }()

  static func isTokenByte(_ byte: UInt8) -> Bool { token[Int(byte)] }

  static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { token[Int($0)] }
  }

  /// A field-value byte (RFC 9110 §5.5): visible ASCII, space, tab, or obs-text.
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }

  /// A byte allowed in a request target: visible ASCII or obs-text, no space or control.
  static func isTargetByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte != 0x7F
  }

  /// A byte allowed in a Host value (RFC 3986 reg-name, IP-literal and port).
  static func isHostByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "%"),
      UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
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
