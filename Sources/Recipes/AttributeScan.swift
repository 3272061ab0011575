/// Reads HTML a byte at a time to count the attributes of each start tag as libxml2 reads
/// them: a name outside quotes after the tag's name, up to the tag's `>` (`HTMLDocument`'s
/// `uncrowded`).
struct AttributeScan {
  enum Place {
    case text, opening, name, tag, unquoted
    case quoted(UInt8)
  }
  /// What a byte was: the first byte of an attribute past the bound, a tag's closing `>`, or
  /// anything else.
  enum Read: Equatable { case crowded, closed, other }

  var bound = HTMLDocument.maxAttributesPerTag
  private(set) var place = Place.text
  private var afterEquals = false
  private var count = 0
  private var previous: UInt8 = 0

  mutating func read(_ byte: UInt8) -> Read {
    defer { previous = byte }
    switch place {
    case .text:
      if previous == UInt8(ascii: "<"), Self.isLetter(byte) {
        place = .opening
        count = 0
      }
    case .opening:
      if byte == UInt8(ascii: ">") {
        place = .text
        return .closed
      }
      if Self.isSpace(byte) {
        place = .tag
        afterEquals = false
      }
    case .name, .tag:
      if byte == UInt8(ascii: ">") {
        place = .text
        return .closed
      }
      if Self.isSpace(byte) {
        place = .tag
      } else if byte == UInt8(ascii: "=") {
        place = .tag
        afterEquals = true
      } else if afterEquals {
        place = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") ? .quoted(byte) : .unquoted
        afterEquals = false
      } else if case .tag = place {
        count += 1
        place = .name
        if count > bound { return .crowded }
      }
    case .unquoted:
      if byte == UInt8(ascii: ">") {
        place = .text
        return .closed
      }
      if Self.isSpace(byte) { place = .tag }
    case .quoted(let quote):
      if byte == quote { place = .tag }
    }
    return .other
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
  }
}
