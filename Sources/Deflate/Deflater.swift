import CZlib

/// A streaming raw-DEFLATE compressor for permessage-deflate messages (RFC 7692 §7.2.1).
///
/// Each call compresses one whole message, ends it with a sync flush and strips the
/// trailing `00 00 FF FF`. Without `reset()` between messages the LZ77 window carries over
/// (context takeover). Not thread-safe: each connection owns its own.
public final class Deflater {
  private let stream: ZStream
  /// The window the peer was promised (8...15); see `init` for 8.
  public let windowBits: Int

  /// Creates a compressor with an LZ77 window of `2^windowBits` bytes.
  /// - Parameters:
  ///   - windowBits: 8...15, the negotiated `server_max_window_bits` (RFC 7692 §7.1.2.1).
  ///   - level: zlib compression level, 0 (store) ... 9 (smallest); 6 is zlib's default.
  ///   - memoryLevel: zlib memLevel, 1...9: internal state size (8 is zlib's default).
  public init(windowBits: Int = 15, level: Int = 6, memoryLevel: Int = 8) throws {
    precondition((8...15).contains(windowBits), "window bits must be 8...15")
    self.windowBits = windowBits
    // NB: zlib refuses a raw window of 8 bits. With 9 bits its matches reach back at most
    // 512 - 262 = 250 bytes (MAX_DIST in deflate.c), so the output still fits the 256-byte
    // window of a peer that asked for server_max_window_bits=8.
    let bits = Int32(max(windowBits, 9))
    stream = try ZStream(deflateLevel: level, windowBits: -bits, memoryLevel: memoryLevel)
  }

  init(gzipLevel level: Int) throws {
    windowBits = 15
    stream = try ZStream(deflateLevel: level, windowBits: 15 + 16, memoryLevel: 8)
  }

  /// Compresses one message and appends the RFC 7692 payload (without `00 00 FF FF`).
  public func compressMessage(
    _ input: UnsafeRawBufferPointer, into output: inout [UInt8]
  ) throws {
    // NB: zlib writes nothing for a sync flush without input right after another sync flush
    // (Z_BUF_ERROR), so an empty message is written by hand: one empty stored-block header,
    // which is what RFC 7692 §7.2.3.6 shows and leaves both windows as they were.
    guard !input.isEmpty else {
      output.append(0x00)
      return
    }
    let start = output.count
    try stream.pump(input, into: &output, flush: Z_SYNC_FLUSH)
    // RFC 7692 §7.2.1: a sync flush ends in an empty stored block, 00 00 FF FF; drop it.
    precondition(output.count - start >= 4 && output.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]))
    output.removeLast(4)
  }

  /// Compresses one message into a new array (see `compressMessage(_:into:)`).
  public func compressMessage(_ input: [UInt8]) throws -> [UInt8] {
    var output: [UInt8] = []
    try input.withUnsafeBytes { try compressMessage($0, into: &output) }
    return output
  }

  /// Compresses `input` to a complete stream (used for gzip).
  func finish(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws {
    try stream.pump(input, into: &output, flush: Z_FINISH)
  }

  /// Forgets earlier messages, for `no_context_takeover` (RFC 7692 §7.1.1).
  public func reset() {
    stream.reset()
  }
}
