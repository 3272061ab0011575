import Deflate
import HTTP

/// The WebSocket protocol of one server-side connection (RFC 6455 §5-§7 with RFC 7692), as a
/// pure state machine: it is fed bytes, time and commands, and answers with actions for the
/// I/O layer. It never touches a socket or a clock.
///
/// Incoming frames are checked as strictly as the Python `websockets` library does: clients
/// must mask, reserved bits and opcodes fail with 1002, text fails with 1007 at the first
/// invalid byte (even mid-frame), and messages larger than the limit fail with 1009.
///
/// Not thread-safe, and not `Sendable`: it owns zlib streams. Keep it on one thread.
public final class WebSocketStateMachine {
  /// Where the connection is in its life (RFC 6455 §4-§7).
  public enum Phase: Sendable, Equatable {
    /// Data flows both ways.
    case open
    /// We sent a close frame and wait for the peer's until `deadline` (§7.1.2).
    case closeSent(deadline: MonotonicTime)
    /// The close handshake is over or the connection failed; the TCP connection must close.
    case closed
  }

  /// Why the connection is failed (RFC 6455 §7.1.7): the close code and a short reason.
  struct Failure: Error, Equatable {
    var code: WebSocketCloseCode
    var reason: String
  }

  /// Limits and timers.
  public let configuration: WebSocketConfiguration
  /// The agreed permessage-deflate settings, or nil without compression.
  public let deflate: PerMessageDeflateParameters?
  /// Open, closing or closed.
  public internal(set) var phase: Phase = .open
  /// How the connection ended: the peer's close code, ours when we failed it, 1005 for a
  /// close frame without a code, 1006 when TCP ended first; nil while open.
  public internal(set) var closeCode: WebSocketCloseCode?
  /// The reason that came with `closeCode`.
  public internal(set) var closeReason = ""

  // Reading frames.
  /// The start of a header that was split across reads (at most 14 bytes).
  var headerBytes: [UInt8] = []
  /// The frame whose payload is being read.
  var frame: FrameHeader?
  /// Payload bytes of `frame` read so far.
  var frameReceived: UInt64 = 0
  /// The payload of the control frame being read (at most 125 bytes).
  var control: [UInt8] = []
  /// When the frame or fragmented message being received must be complete (see
  /// `WebSocketConfiguration.receiveGrace`); nil between messages.
  var receiveDeadline: MonotonicTime?

  // Reading messages.
  /// The opcode of the data message in progress, nil between messages.
  var messageOpcode: WebSocketOpcode?
  var messageCompressed = false
  /// The message so far, unmasked and inflated.
  var message: [UInt8] = []
  var utf8 = UTF8Validator()
  /// A compressed payload piece (at most `scratchSize` bytes), unmasked before inflating.
  var scratch: [UInt8] = []
  var inflater: Inflater?

  // Writing.
  var deflater: Deflater?
  /// The peer's window holds data that our deflater never saw (a pre-encoded message).
  var deflaterNeedsReset = false

  /// Until when the I/O layer drains input after shutting down writing; nil if it has not.
  var lingerDeadline: MonotonicTime?

  // Keepalive.
  var lastReceived: MonotonicTime
  var pendingPing: (payload: [UInt8], sentAt: MonotonicTime)?
  var pingCount: UInt64 = 0

  /// Starts an open connection, just after the 101 response went out.
  public init(
    configuration: WebSocketConfiguration = WebSocketConfiguration(),
    deflate: PerMessageDeflateParameters? = nil, now: MonotonicTime
  ) {
    self.configuration = configuration
    self.deflate = deflate
    lastReceived = now
  }

  /// Whether data may still be sent: false from the moment a close frame was sent or
  /// received, so that nothing follows a close frame (RFC 6455 §5.5.1).
  public var isOpen: Bool { phase == .open }

  /// The window of the fresh-context compressed frames this connection takes from an
  /// `EncodedMessage` (its `server_max_window_bits`), or nil without compression.
  public var fanOutWindowBits: Int? { deflate?.serverMaxWindowBits }

  /// When `tick` next has something to do, for the I/O layer's timer.
  public var nextDeadline: MonotonicTime? {
    if let lingerDeadline { return lingerDeadline }
    switch phase {
    case .open:
      let keepalive =
        pendingPing.map { $0.sentAt + configuration.pongTimeout }
        ?? lastReceived + configuration.pingInterval
      return receiveDeadline.map { min($0, keepalive) } ?? keepalive
    case .closeSent(let deadline): return deadline
    case .closed: return nil
    }
  }

  /// Sends a message (compressed when permessage-deflate is on and it is long enough);
  /// nothing once the connection is closing.
  public func send(_ message: WebSocketMessage) -> [WebSocketAction] {
    guard isOpen else { return [] }
    switch message {
    case .text(var string):
      return string.withUTF8 { [.write(encodeFrame(.text, payload: UnsafeRawBufferPointer($0)))] }
    case .binary(let bytes):
      return bytes.withUnsafeBytes { [.write(encodeFrame(.binary, payload: $0))] }
    }
  }

  /// Sends a message encoded once for many connections: the fresh-context compressed frame
  /// that fits this connection's window if there is one, else the plain frame.
  public func send(_ encoded: EncodedMessage) -> [WebSocketAction] {
    guard isOpen else { return [] }
    if let bits = fanOutWindowBits, let frame = encoded.compressedFrame(forWindowBits: bits) {
      // NB: the peer's window now holds this message but our deflater's does not; a match
      // from our deflater into that history would decode wrongly, so it must start afresh.
      deflaterNeedsReset = true
      return [.write(frame)]
    }
    return [.write(encoded.plainFrame)]
  }

  /// Starts the closing handshake (RFC 6455 §7.1.2); `code` must be valid on the wire.
  public func close(
    code: WebSocketCloseCode = .normal, reason: String = "", now: MonotonicTime
  ) -> [WebSocketAction] {
    guard isOpen else { return [] }
    precondition(code.isValidOnWire, "close code \(code) may not be sent")
    phase = .closeSent(deadline: now + configuration.closeTimeout)
    closeCode = code
    closeReason = reason
    let payload = WebSocketFrame.closePayload(code: code, reason: reason)
    return [.write(WebSocketFrame.encode(.close, payload: payload))]
  }

  /// Runs the timers: failure with 1008 when a frame or message in progress is past its
  /// `receiveDeadline`, a ping after `pingInterval` of silence, failure with 1011 when it
  /// goes unanswered for `pongTimeout`, and the TCP close when the close handshake has not
  /// finished within `closeTimeout`.
  public func tick(now: MonotonicTime) -> [WebSocketAction] {
    switch phase {
    case .closed:
      // The lingering is over: close the socket now.
      guard let deadline = lingerDeadline, now >= deadline else { return [] }
      lingerDeadline = nil
      return [.closeConnection]
    case .closeSent(let deadline):
      guard now >= deadline else { return [] }
      phase = .closed
      return [.closeConnection]
    case .open:
      if let receiveDeadline, now >= receiveDeadline {
        var actions: [WebSocketAction] = []
        fail(Failure(code: .policyViolation, reason: "message too slow"), &actions)
        return actions
      }
      if let ping = pendingPing {
        guard now >= ping.sentAt + configuration.pongTimeout else { return [] }
        var actions: [WebSocketAction] = []
        fail(Failure(code: .internalError, reason: "keepalive ping timeout"), &actions)
        return actions
      }
      guard now >= lastReceived + configuration.pingInterval else { return [] }
      pingCount += 1
      let payload = (0..<8).map { UInt8(truncatingIfNeeded: pingCount >> (56 - 8 * $0)) }
      pendingPing = (payload, now)
      return [.write(WebSocketFrame.encode(.ping, payload: payload))]
    }
  }

  /// RFC 6455 §7.1.1: the server closes TCP first. The I/O layer has shut down writing after
  /// `.closeConnection` and now drains what the peer still sends, so that its close frame is
  /// not lost to a reset; when `lingerTimeout` has passed, `tick` asks with another
  /// `.closeConnection` for the socket to close regardless.
  public func writingShutDown(now: MonotonicTime) {
    guard phase == .closed, lingerDeadline == nil else { return }
    lingerDeadline = now + configuration.lingerTimeout
  }

  /// The peer ended the TCP connection (EOF or error).
  public func peerClosedConnection() -> [WebSocketAction] {
    guard phase != .closed else { return [] }
    if closeCode == nil { closeCode = .abnormalClosure }
    phase = .closed
    return [.closeConnection]
  }

  /// Fails the connection (RFC 6455 §7.1.7): a close frame with the code if none was sent
  /// yet, then the TCP close, without waiting for the peer (as `websockets` does).
  func fail(_ failure: Failure, _ actions: inout [WebSocketAction]) {
    if isOpen {
      let payload = WebSocketFrame.closePayload(code: failure.code, reason: failure.reason)
      actions.append(.write(WebSocketFrame.encode(.close, payload: payload)))
      closeCode = failure.code
      closeReason = failure.reason
    }
    phase = .closed
    actions.append(.closeConnection)
  }

  /// One whole data frame, compressed with our own context when that is on and worth it.
  func encodeFrame(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> [UInt8] {
    guard let deflate, payload.count >= configuration.compressionThreshold,
      let compressor = compressor(deflate)
    else { return WebSocketFrame.encode(opcode, payload: payload) }
    if deflate.serverNoContextTakeover || deflaterNeedsReset { compressor.reset() }
    deflaterNeedsReset = false
    var compressed: [UInt8] = []
    compressed.reserveCapacity(payload.count / 2 + 16)
    do {
      try compressor.compressMessage(payload, into: &compressed)
    } catch {
      // NB: zlib only fails here when out of memory; the message still goes out, plain, and
      // the compressor starts afresh because the peer never saw this message's input.
      deflaterNeedsReset = true
      return WebSocketFrame.encode(opcode, payload: payload)
    }
    return WebSocketFrame.encode(opcode, payload: compressed, rsv1: true)
  }

  private func compressor(_ deflate: PerMessageDeflateParameters) -> Deflater? {
    if let deflater { return deflater }
    deflater = try? Deflater(
      windowBits: deflate.serverMaxWindowBits, level: configuration.compressionLevel,
      memoryLevel: configuration.compressionMemoryLevel)
    return deflater
  }
}
