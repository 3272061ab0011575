/// Base64 with padding (RFC 4648 §4), for the handshake keys.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Encodes `bytes` with `=` padding.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var iterator = bytes.makeIterator()
    while let first = iterator.next() {
      let second = iterator.next()
      let third = iterator.next()
      let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 63)])
      output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 63)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes padded base64; nil for any character outside the alphabet or bad padding.
  public static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 4 * 3)
    for start in stride(from: 0, to: input.count, by: 4) {
      let isLast = start + 4 == input.count
      var group: UInt32 = 0
      var padding = 0
      for (index, character) in input[start..<start + 4].enumerated() {
        if character == UInt8(ascii: "=") {
          // Padding may only end the last group, and only in its last two places.
          guard isLast, index >= 2 else { return nil }
          padding += 1
          group <<= 6
          continue
        }
        guard padding == 0, let value = Self.value(of: character) else { return nil }
        group = group << 6 | value
      }
      output.append(UInt8(truncatingIfNeeded: group >> 16))
      if padding < 2 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
      if padding < 1 { output.append(UInt8(truncatingIfNeeded: group)) }
    }
    return output
  }

  private static func value(of character: UInt8) -> UInt32? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a") + 26)
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0") + 52)
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}
