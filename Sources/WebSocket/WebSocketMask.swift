/// A frame masking key (RFC 6455 §5.3): payload byte `i` is XORed with key byte `i % 4`.
public struct WebSocketMask: Sendable, Equatable {
  /// The four key bytes in wire order.
  public var bytes: (UInt8, UInt8, UInt8, UInt8)

  /// A key from its four bytes in wire order.
  public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
    bytes = (b0, b1, b2, b3)
  }

  public static func == (a: WebSocketMask, b: WebSocketMask) -> Bool {
    a.bytes == b.bytes
  }

  /// XORs `buffer` in place, where `buffer[0]` is payload byte number `offset`.
  ///
  /// Works eight bytes at a time with unaligned loads; the mask is its own inverse, so the
  /// same call masks and unmasks.
  public func apply(to buffer: UnsafeMutableRawBufferPointer, offset: Int = 0) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
    let key = [bytes.0, bytes.1, bytes.2, bytes.3]
    let phase = offset & 3
    var rotated: [UInt8] = []
    for index in 0..<8 { rotated.append(key[(phase + index) & 3]) }
    let word = rotated.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    let count = buffer.count
    var index = 0
    while index + 8 <= count {
      let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      base.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      buffer[index] ^= rotated[index & 7]
      index += 1
    }
  }
}
