/// A server message encoded once into wire frames for any number of connections (fan-out).
///
/// The compressed frames come from a FRESH deflate context, so they are valid for every
/// receiver whatever its context takeover; one is kept for each window size asked for, and
/// a connection takes the largest that fits its `server_max_window_bits`.
public struct EncodedMessage: Sendable {
  /// A compressed frame and the window (bits) it was made with.
  public struct CompressedFrame: Sendable {
    /// The deflate window (8...15 bits) the frame fits.
    public var windowBits: Int
    /// The whole frame, RSV1 set.
    public var frame: [UInt8]
  }

  /// The uncompressed frame, for connections without permessage-deflate.
  public let plainFrame: [UInt8]
  /// Compressed frames, by window bits ascending.
  public let compressedFrames: [CompressedFrame]

  init(plainFrame: [UInt8], compressedFrames: [CompressedFrame]) {
    self.plainFrame = plainFrame
    self.compressedFrames = compressedFrames.sorted { $0.windowBits < $1.windowBits }
  }

  /// Encodes `message` as a plain frame plus one compressed frame per window in `windows`.
  public init(
    _ message: WebSocketMessage, compressionWindows windows: some Sequence<Int> = [Int](),
    level: Int = 6, memoryLevel: Int = 8
  ) {
    self = FanOutEncoder(level: level, memoryLevel: memoryLevel).encode(message, windows: windows)
  }

  /// The compressed frame made with the largest window not above `bits`, if any.
  public func compressedFrame(forWindowBits bits: Int) -> [UInt8]? {
    compressedFrames.last { $0.windowBits <= bits }?.frame
  }
}
