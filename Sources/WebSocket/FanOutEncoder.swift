import Deflate

/// Encodes broadcast messages, reusing one deflate stream per window size across messages
/// (reset before each, so every compressed frame stands alone). Owned by one broadcaster;
/// not thread-safe. The `EncodedMessage` values it makes are `Sendable`.
public final class FanOutEncoder {
  private let level: Int
  private let memoryLevel: Int
  private var deflaters: [Int: Deflater] = [:]

  /// - Parameters:
  ///   - level: zlib compression level, 0 (store) ... 9 (smallest).
  ///   - memoryLevel: zlib memLevel, 1...9.
  public init(level: Int = 6, memoryLevel: Int = 8) {
    self.level = level
    self.memoryLevel = memoryLevel
  }

  /// Encodes `message` plain and, for each window size in `windows` (8...15), compressed.
  public func encode(_ message: WebSocketMessage, windows: some Sequence<Int>) -> EncodedMessage {
    encode(message.opcode, payload: message.bytes, windows: windows)
  }

  /// Encodes a text message from its UTF-8 bytes, which the caller vouches for (RFC 6455 §5.6),
  /// without a trip through `String`.
  public func encode(utf8 payload: [UInt8], windows: some Sequence<Int>) -> EncodedMessage {
    encode(.text, payload: payload, windows: windows)
  }

  private func encode(
    _ opcode: WebSocketOpcode, payload: [UInt8], windows: some Sequence<Int>
  ) -> EncodedMessage {
    payload.withUnsafeBytes { bytes in
      var compressed: [EncodedMessage.CompressedFrame] = []
      for bits in Set(windows) {
        guard let frame = compressedFrame(opcode, bytes, windowBits: bits) else { continue }
        compressed.append(.init(windowBits: bits, frame: frame))
      }
      return EncodedMessage(
        plainFrame: WebSocketFrame.encode(opcode, payload: bytes), compressedFrames: compressed)
    }
  }

  private func compressedFrame(
    _ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, windowBits: Int
  ) -> [UInt8]? {
    guard (8...15).contains(windowBits) else { return nil }
    let deflater: Deflater
    if let existing = deflaters[windowBits] {
      deflater = existing
      deflater.reset()
    } else {
      guard
        let created = try? Deflater(windowBits: windowBits, level: level, memoryLevel: memoryLevel)
      else { return nil }
      deflaters[windowBits] = created
      deflater = created
    }
    var compressed: [UInt8] = []
    compressed.reserveCapacity(payload.count / 2 + 16)
    guard (try? deflater.compressMessage(payload, into: &compressed)) != nil else {
      deflaters[windowBits] = nil
      return nil
    }
    return WebSocketFrame.encode(opcode, payload: compressed, rsv1: true)
  }
}
