import CZlib

/// A streaming raw-DEFLATE decompressor for permessage-deflate messages (RFC 7692 §7.2.2).
///
/// Feed a message's payload in as many pieces as it arrives in, then `finishMessage` appends
/// the `00 00 FF FF` the sender stripped. Every call takes a hard limit on the total output
/// size and throws `DeflateError.outputLimitExceeded` as soon as it would be passed.
/// Not thread-safe: each connection owns its own.
public final class Inflater {
  private let stream: ZStream
  /// The message's stream ended with a BFINAL block: ignore the rest of the message.
  private var ended = false

  /// Creates a decompressor for a peer whose LZ77 window is at most `2^windowBits` bytes.
  /// - Parameter windowBits: 8...15, the negotiated `client_max_window_bits` (15 if none).
  public init(windowBits: Int = 15) throws {
    precondition((8...15).contains(windowBits), "window bits must be 8...15")
    // NB: a 9-bit window reads every stream an 8-bit one does, and sidesteps old zlib
    // versions that mishandle raw 8-bit windows.
    stream = try ZStream(inflateWindowBits: -Int32(max(windowBits, 9)))
  }

  init(gzip: Void) throws {
    stream = try ZStream(inflateWindowBits: 15 + 16)
  }

  /// Inflates one piece of a message's payload, appending to `output`.
  /// - Parameter limit: the most bytes `output` may hold afterwards (its whole count).
  public func inflate(
    _ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int = .max
  ) throws {
    guard !ended else { return }
    ended = try stream.pump(input, into: &output, limit: limit)
  }

  /// Inflates one piece of a message's payload (see `inflate(_:into:limit:)`).
  public func inflate(_ input: [UInt8], into output: inout [UInt8], limit: Int = .max) throws {
    try input.withUnsafeBytes { try inflate($0, into: &output, limit: limit) }
  }

  /// Ends a message: inflates the `00 00 FF FF` tail that RFC 7692 §7.2.2 says to append.
  ///
  /// NB: RFC 7692 §7.2.3.3 lets a sender end a message with a BFINAL block instead; the
  /// stream is then over, so the tail is not read and the next message starts a new stream.
  public func finishMessage(into output: inout [UInt8], limit: Int = .max) throws {
    try Self.tail.withUnsafeBytes { try inflate($0, into: &output, limit: limit) }
    if ended { reset() }
  }

  /// Forgets earlier messages, for a peer with `no_context_takeover` (RFC 7692 §7.1.1).
  public func reset() {
    stream.reset()
    ended = false
  }

  /// Inflates a whole input that must end the stream (used for gzip).
  func inflateStream(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int)
    throws -> Bool
  {
    try stream.pump(input, into: &output, limit: limit)
  }

  private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
}
