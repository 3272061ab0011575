/// The parser's side of `HTTPHeaders`: fields kept as the bytes of the head.
///
/// The bytes start with a word whose bit `n % 64` says that some name is `n` bytes long, so a
/// lookup of a field the request does not have (most are) usually ends there. Then each field
/// is a little-endian word of three 21-bit numbers (the name's length, where the value starts
/// and where it ends, counted from the name's start), then the bytes of its line from the
/// name's start to the value's end.
extension HTTPHeaders {
  /// Headers for a request about to be parsed: packed, with room for a usual head.
  static func packedForParsing() -> HTTPHeaders {
    var packed: [UInt8] = []
    packed.reserveCapacity(256)
    packed.append(contentsOf: repeatElement(0, count: 8))
    var headers = HTTPHeaders()
    headers.storage = .packed(packed)
    return headers
  }

  /// Appends a parsed field from its name's and value's bytes (both in one line, the value
  /// after the name), without making a `String`.
  mutating func appendPacked(name: ByteSlice, value: ByteSlice) {
    let valueStart = value.startIndex - name.startIndex
    let valueEnd = value.endIndex - name.startIndex
    guard case .packed(var packed) = storage, valueEnd <= Self.maxPackedLength else {
      // NB: a line longer than three lengths can hold is kept as a `Field`.
      append(
        Field(
          name: String(decoding: UnsafeBufferPointer(rebasing: name), as: UTF8.self),
          value: String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)))
      return
    }
    // NB: the storage lets go of its array, so that `packed` is unique and grows in place.
    storage = .listed([])
    packed.withUnsafeMutableBytes { bytes in
      let mask = bytes.loadUnaligned(as: UInt64.self) | Self.lengthBit(name.count)
      bytes.storeBytes(of: mask, as: UInt64.self)
    }
    var lengths =
      (UInt64(name.count) | UInt64(valueStart) << 21 | UInt64(valueEnd) << 42).littleEndian
    withUnsafeBytes(of: &lengths) {
      packed.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self))
    }
    let line = name.base
    packed.append(contentsOf: UnsafeBufferPointer(rebasing: line[name.startIndex..<value.endIndex]))
    storage = .packed(packed)
  }

  /// The longest field line (to the value's end) kept packed.
  static let maxPackedLength = 1 << 21 - 1

  private static let maxPackedWord = UInt64(maxPackedLength)

  /// The bit of the first word that stands for names `length` bytes long.
  @inline(__always)
  static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(length & 63) }

  /// Whether some packed field's name may be `length` bytes long (false: none is).
  @inline(__always)
  static func mayHaveName(_ packed: [UInt8], length: Int) -> Bool {
    packed.withUnsafeBytes { bytes in
      bytes.count >= 8 && bytes.loadUnaligned(as: UInt64.self) & lengthBit(length) != 0
    }
  }

  /// Calls `body` with each packed field's name and value bytes, in order, until it returns
  /// false.
  static func forEachPacked(
    _ packed: [UInt8], _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
  ) {
    packed.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      var index = 8
      while index + 8 <= bytes.count {
        let lengths = UInt64(
          littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let nameStart = index + 8
        let nameLength = Int(truncatingIfNeeded: lengths & maxPackedWord)
        let valueStart = Int(truncatingIfNeeded: lengths >> 21 & maxPackedWord)
        let valueEnd = Int(truncatingIfNeeded: lengths >> 42 & maxPackedWord)
        index = nameStart + valueEnd
        guard
          body(
            UnsafeBufferPointer(start: base + nameStart, count: nameLength),
            UnsafeBufferPointer(start: base + nameStart + valueStart, count: valueEnd - valueStart))
        else { return }
      }
    }
  }
}
