extension EscapeField {
  /// The first four bytes of `countsBody`.
  public static let countsMagic: [UInt8] = Array("PFEC".utf8)

  /// The counts as bytes, for `Z/X/Y.counts`: a 16-byte header, the ASCII magic `PFEC`, then
  /// width, height and the cap as little-endian UInt32; then width·height counts, each a
  /// little-endian UInt32, row by row from the top left. A count equal to the cap means the
  /// pixel never escaped.
  public var countsBody: [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 16 + 4 * counts.count)
    bytes.withUnsafeMutableBytes { raw in
      raw.copyBytes(from: Self.countsMagic)
      for (index, value) in [UInt32(width), UInt32(height), UInt32(maxIterations)].enumerated() {
        raw.storeBytes(of: value.littleEndian, toByteOffset: 4 + 4 * index, as: UInt32.self)
      }
      for (index, count) in counts.enumerated() {
        raw.storeBytes(of: count.littleEndian, toByteOffset: 16 + 4 * index, as: UInt32.self)
      }
    }
    return bytes
  }

  /// The field in a `countsBody`; nil when the bytes are not one.
  public init?(countsBody bytes: [UInt8]) {
    guard bytes.count >= 16, Array(bytes[0..<4]) == Self.countsMagic else { return nil }
    let words = stride(from: 4, to: bytes.count - 3, by: 4).map { offset in
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
    let (width, height, cap) = (Int(words[0]), Int(words[1]), Int(words[2]))
    let counts = Array(words.dropFirst(3))
    guard bytes.count % 4 == 0, width * height == counts.count, cap > 0,
      counts.allSatisfy({ Int($0) <= cap })
    else { return nil }
    self.init(width: width, height: height, maxIterations: cap, counts: counts)
  }
}
