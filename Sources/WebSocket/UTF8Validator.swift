/// An incremental UTF-8 validator (RFC 3629 §4) that fails at the first byte that cannot
/// start or continue a valid sequence, even when the sequence is split across calls.
///
/// RFC 6455 §8.1: text must be valid UTF-8; failing fast (Autobahn 6.4.x) means rejecting
/// the first impossible byte rather than waiting for the end of the message.
public struct UTF8Validator: Sendable {
  /// Continuation bytes still expected for the current sequence.
  private var remaining: UInt8 = 0
  /// The allowed range of the next continuation byte; narrower than 80...BF right after
  /// E0, ED, F0 and F4 to refuse overlong forms, surrogates and code points above U+10FFFF.
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF
  private var failed = false

  /// A validator at the start of a text.
  public init() {}

  /// Whether all input so far ends on a character boundary (and nothing was invalid).
  public var isComplete: Bool { remaining == 0 && !failed }

  /// Validates the next bytes; false once anything invalid has been seen.
  public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !failed else { return false }
    var index = 0
    let count = bytes.count
    while index < count {
      if remaining == 0 {
        // Fast path: skip eight ASCII bytes at a time.
        while index + 8 <= count,
          bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080
            == 0
        {
          index += 8
        }
        guard index < count else { break }
        let byte = bytes[index]
        index += 1
        if byte < 0x80 { continue }
        guard start(byte) else {
          failed = true
          return false
        }
      } else {
        let byte = bytes[index]
        index += 1
        guard byte >= lower, byte <= upper else {
          failed = true
          return false
        }
        remaining -= 1
        lower = 0x80
        upper = 0xBF
      }
    }
    return true
  }

  /// Validates the next bytes of an array (see `validate(_:)` for raw buffers).
  public mutating func validate(_ bytes: some Collection<UInt8>) -> Bool {
    if let result = bytes.withContiguousStorageIfAvailable({ validate(UnsafeRawBufferPointer($0)) })
    {
      return result
    }
    return Array(bytes).withUnsafeBytes { validate($0) }
  }

  /// Sets up the expectations after a lead byte; false for bytes that never lead.
  private mutating func start(_ byte: UInt8) -> Bool {
    switch byte {
    case 0xC2...0xDF: remaining = 1
    case 0xE0: (remaining, lower) = (2, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
    case 0xED: (remaining, upper) = (2, 0x9F)
    case 0xF0: (remaining, lower) = (3, 0x90)
    case 0xF1...0xF3: remaining = 3
    case 0xF4: (remaining, upper) = (3, 0x8F)
    default: return false
    }
    return true
  }
}
