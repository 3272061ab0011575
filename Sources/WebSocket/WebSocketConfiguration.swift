/// Limits and timers of one WebSocket connection, with defaults fit for the Playfield server.
public struct WebSocketConfiguration: Sendable, Equatable {
  /// Largest message accepted, in bytes, counted after inflating; larger fails with 1009.
  public var maxMessageSize = 1 << 20
  /// Largest frame payload accepted, in bytes as sent on the wire; larger fails with 1009.
  /// nil: `maxMessageSize` plus 1/16, because a compressed frame of incompressible data is a
  /// little larger than the message it carries (uncompressed frames are held to
  /// `maxMessageSize` anyway).
  public var maxFrameSize: Int?
  /// Idle time without any received byte after which the server sends a ping.
  public var pingInterval: Duration = .seconds(20)
  /// Time a ping may stay unanswered before the peer counts as dead (fails with 1011).
  public var pongTimeout: Duration = .seconds(20)
  /// A frame or fragmented message being received must be complete this long after its first
  /// byte, plus the time its declared payload takes at `minimumReceiveRate`; past that the
  /// connection fails with 1008, so a peer trickling a byte now and then cannot hold it for
  /// ever (the counterpart of HTTP's header and body timeouts).
  public var receiveGrace: Duration = .seconds(10)
  /// The slowest transfer allowed for a frame's payload, in bytes per second (see
  /// `receiveGrace`): a 1 MiB message may take 10 s plus 128 s.
  public var minimumReceiveRate = 8_192
  /// Time to wait for the peer's close frame after sending ours, before closing TCP anyway.
  public var closeTimeout: Duration = .seconds(5)
  /// After the server has closed its side of TCP, how long to drain what the peer still sends
  /// before closing the socket anyway (RFC 6455 §7.1.1).
  public var lingerTimeout: Duration = .seconds(2)
  /// Messages shorter than this many bytes are sent uncompressed even with permessage-deflate.
  public var compressionThreshold = 0
  /// zlib level for outgoing messages, 0 (store) ... 9 (smallest); 6 is zlib's default.
  public var compressionLevel = 6
  /// zlib memLevel for outgoing messages, 1...9: compressor state of about 2^(memLevel+9)
  /// bytes plus twice the window (5, as `websockets` uses, is 16 KiB; zlib's default 8 is
  /// 128 KiB).
  public var compressionMemoryLevel = 5

  /// The frame size limit in force (see `maxFrameSize`).
  public var frameSizeLimit: Int { maxFrameSize ?? maxMessageSize + maxMessageSize / 16 }

  /// A configuration; every argument defaults to the value documented on its property.
  public init(
    maxMessageSize: Int = 1 << 20, maxFrameSize: Int? = nil,
    pingInterval: Duration = .seconds(20), pongTimeout: Duration = .seconds(20),
    closeTimeout: Duration = .seconds(5), receiveGrace: Duration = .seconds(10),
    minimumReceiveRate: Int = 8_192, compressionThreshold: Int = 0,
    compressionLevel: Int = 6, compressionMemoryLevel: Int = 5
  ) {
    self.maxMessageSize = maxMessageSize
    self.maxFrameSize = maxFrameSize
    self.pingInterval = pingInterval
    self.pongTimeout = pongTimeout
    self.closeTimeout = closeTimeout
    self.receiveGrace = receiveGrace
    self.minimumReceiveRate = max(1, minimumReceiveRate)
    self.compressionThreshold = compressionThreshold
    self.compressionLevel = compressionLevel
    self.compressionMemoryLevel = compressionMemoryLevel
  }
}
