import Deflate
import HTTP

extension WebSocketStateMachine {
  /// Feeds bytes read from the socket; returns what to do, in order.
  ///
  /// Bytes may be split anywhere: the same stream in any pieces gives the same actions.
  /// After the connection closed, input is ignored (the I/O layer drains it).
  public func receive(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> [WebSocketAction] {
    guard phase != .closed, !bytes.isEmpty else { return [] }
    lastReceived = now
    var actions: [WebSocketAction] = []
    var offset = 0
    do {
      while offset < bytes.count, phase != .closed {
        // Each frame or fragmented message has its own deadline, from its first byte.
        if !isReceiving { receiveDeadline = now + configuration.receiveGrace }
        if let header = frame {
          let available = UInt64(bytes.count - offset)
          let count = Int(min(available, header.payloadLength - frameReceived))
          try readPayload(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), header)
          offset += count
          frameReceived += UInt64(count)
          if frameReceived == header.payloadLength { try endFrame(header, &actions) }
        } else if let header = try readHeader(bytes, &offset) {
          try startFrame(header)
          allowTime(forPayload: header.payloadLength)
          if header.payloadLength == 0 { try endFrame(header, &actions) }
        }
        if !isReceiving { receiveDeadline = nil }
      }
    } catch let failure as Failure {
      fail(failure, &actions)
    } catch {
      fail(Failure(code: .internalError, reason: "unexpected error"), &actions)
    }
    return actions
  }

  /// Whether a frame (its header or payload) or a fragmented message is partly received.
  var isReceiving: Bool { frame != nil || !headerBytes.isEmpty || messageOpcode != nil }

  /// Moves the receive deadline by the time a payload of `length` bytes takes at the
  /// minimum rate (its length is already checked against the frame size limit).
  private func allowTime(forPayload length: UInt64) {
    guard let deadline = receiveDeadline, length > 0 else { return }
    let rate = UInt64(configuration.minimumReceiveRate)
    receiveDeadline = deadline.adding(nanoseconds: length * (1_000_000_000 / rate))
  }

  /// Feeds bytes read from the socket (see the raw-buffer variant).
  public func receive(_ bytes: [UInt8], now: MonotonicTime) -> [WebSocketAction] {
    bytes.withUnsafeBytes { receive($0, now: now) }
  }

  /// Feeds bytes read from the socket (see the raw-buffer variant).
  public func receive(_ bytes: ArraySlice<UInt8>, now: MonotonicTime) -> [WebSocketAction] {
    bytes.withUnsafeBytes { receive($0, now: now) }
  }

  /// Reads a header from `bytes` at `offset`: in place when it is all there, else through
  /// `headerBytes`, which keeps the start of a header split across reads. nil while incomplete.
  private func readHeader(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) throws
    -> FrameHeader?
  {
    let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
    let before = headerBytes.count
    let parsed: FrameHeader.Parse
    if before == 0 {
      parsed = FrameHeader.parse(rest)
    } else {
      headerBytes.append(contentsOf: rest.prefix(14 - before))
      parsed = headerBytes.withUnsafeBytes { FrameHeader.parse($0) }
    }
    switch parsed {
    case .header(let header, let length):
      offset += length - before
      headerBytes.removeAll(keepingCapacity: true)
      return header
    case .needMore:
      if before == 0 { headerBytes.append(contentsOf: rest) }
      offset = bytes.count
      return nil
    case .lengthTooLarge:
      throw protocolError("payload length over 2^63")
    }
  }

  /// Checks a frame header against the rules of RFC 6455 §5 and RFC 7692 §6.
  private func startFrame(_ header: FrameHeader) throws {
    // RFC 6455 §5.2: reserved bits without an extension that defines them fail the connection.
    guard !header.rsv2, !header.rsv3 else { throw protocolError("reserved bits set") }
    guard let opcode = header.opcode else { throw protocolError("reserved opcode") }
    // RFC 7692 §6.1: RSV1 marks the first frame of a compressed data message, nothing else.
    if header.rsv1, deflate == nil || opcode.isControl || opcode == .continuation {
      throw protocolError("RSV1 set without a compressed message")
    }
    // RFC 6455 §5.1: a server MUST close the connection on an unmasked client frame.
    guard header.mask != nil else { throw protocolError("client frames must be masked") }
    if opcode.isControl {
      // RFC 6455 §5.5: control frames are at most 125 bytes and never fragmented.
      guard header.fin else { throw protocolError("fragmented control frame") }
      guard header.payloadLength <= 125 else { throw protocolError("control frame over 125 bytes") }
    } else {
      // RFC 6455 §5.4: continuations follow a first frame; a new message waits for the last.
      if opcode == .continuation {
        guard messageOpcode != nil else { throw protocolError("continuation without a message") }
      } else {
        guard messageOpcode == nil else { throw protocolError("new message before the last ended") }
      }
      guard header.payloadLength <= UInt64(configuration.frameSizeLimit) else {
        throw Failure(code: .messageTooBig, reason: "frame too big")
      }
      if opcode != .continuation {
        messageOpcode = opcode
        messageCompressed = header.rsv1
        utf8 = UTF8Validator()
      }
      if !messageCompressed,
        UInt64(message.count) + header.payloadLength > UInt64(configuration.maxMessageSize)
      {
        throw Failure(code: .messageTooBig, reason: "message too big")
      }
    }
    frame = header
    frameReceived = 0
  }

  /// Unmasks and takes in one piece of the current frame's payload.
  private func readPayload(_ piece: UnsafeRawBufferPointer, _ header: FrameHeader) throws {
    guard !piece.isEmpty, let mask = header.mask else { return }
    let phase = Int(frameReceived & 3)
    let bytes = piece.assumingMemoryBound(to: UInt8.self)
    if header.opcode?.isControl == true {
      Self.appendUnmasked(bytes, to: &control, mask: mask, offset: phase)
      return
    }
    guard messageCompressed else {
      let start = message.count
      Self.appendUnmasked(bytes, to: &message, mask: mask, offset: phase)
      try validateText(from: start)
      return
    }
    // Unmask through a small scratch buffer so that no connection keeps a frame-sized one.
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + Self.scratchSize)
      scratch.removeAll(keepingCapacity: true)
      Self.appendUnmasked(
        UnsafeBufferPointer(rebasing: bytes[offset..<end]), to: &scratch, mask: mask,
        offset: phase + offset)
      let start = message.count
      try inflate { inflater, limit in try inflater.inflate(scratch, into: &message, limit: limit) }
      try validateText(from: start)
      offset = end
    }
  }

  /// The most compressed bytes unmasked at once (16 KiB).
  static let scratchSize = 16 << 10

  /// Acts on a frame whose payload is complete.
  private func endFrame(_ header: FrameHeader, _ actions: inout [WebSocketAction]) throws {
    frame = nil
    switch header.opcode {
    case .ping:
      // RFC 6455 §5.5.2-3: answer with a pong carrying the same payload, in order.
      if isOpen { actions.append(.write(WebSocketFrame.encode(.pong, payload: control))) }
    case .pong:
      // RFC 6455 §5.5.3: unsolicited pongs are ignored.
      if let ping = pendingPing, ping.payload == control { pendingPing = nil }
    case .close:
      try receivedClose(&actions)
    default:
      if header.fin { try endMessage(&actions) }
    }
    control.removeAll(keepingCapacity: true)
  }

  private func endMessage(_ actions: inout [WebSocketAction]) throws {
    if messageCompressed {
      let start = message.count
      try inflate { inflater, limit in try inflater.finishMessage(into: &message, limit: limit) }
      try validateText(from: start)
      if deflate?.clientNoContextTakeover == true { inflater?.reset() }
    }
    // RFC 6455 §8.1: a text message must end on a character boundary.
    if messageOpcode == .text, !utf8.isComplete { throw invalidText() }
    let payload = message
    message = []
    let opcode = messageOpcode
    messageOpcode = nil
    guard isOpen else { return }
    if opcode == .text {
      actions.append(.deliver(.text(String(decoding: payload, as: UTF8.self))))
    } else {
      actions.append(.deliver(.binary(payload)))
    }
  }

  /// The peer's close frame (RFC 6455 §5.5.1, §7.1.5, §7.4).
  private func receivedClose(_ actions: inout [WebSocketAction]) throws {
    guard isOpen else {
      // Our close was answered: the handshake is complete.
      phase = .closed
      actions.append(.closeConnection)
      return
    }
    var reply: [UInt8] = []
    if control.isEmpty {
      closeCode = .noStatusReceived
    } else {
      guard control.count >= 2 else { throw protocolError("close payload of one byte") }
      let code = WebSocketCloseCode(UInt16(control[0]) << 8 | UInt16(control[1]))
      guard code.isValidOnWire else { throw protocolError("invalid close code \(code)") }
      var validator = UTF8Validator()
      guard validator.validate(control[2...]), validator.isComplete else { throw invalidText() }
      closeCode = code
      closeReason = String(decoding: control[2...], as: UTF8.self)
      // RFC 6455 §5.5.1: the reply typically echoes the status code received.
      reply = WebSocketFrame.closePayload(code: code, reason: "")
    }
    actions.append(.write(WebSocketFrame.encode(.close, payload: reply)))
    phase = .closed
    actions.append(.closeConnection)
  }

  /// Runs one inflater call, turning its errors into close codes (1009 for a message over
  /// the limit, 1002 for corrupt data as `websockets` does).
  private func inflate(_ body: (Inflater, Int) throws -> Void) throws {
    do {
      if inflater == nil { inflater = try Inflater(windowBits: deflate?.clientMaxWindowBits ?? 15) }
      try body(inflater!, configuration.maxMessageSize)
    } catch DeflateError.outputLimitExceeded {
      throw Failure(code: .messageTooBig, reason: "message too big")
    } catch {
      throw protocolError("invalid compressed data")
    }
  }

  /// Validates the text added to `message` since `start`, failing fast (Autobahn 6.4).
  private func validateText(from start: Int) throws {
    guard messageOpcode == .text, start < message.count else { return }
    let valid = message.withUnsafeBytes {
      utf8.validate(UnsafeRawBufferPointer(rebasing: $0[start...]))
    }
    guard valid else { throw invalidText() }
  }

  private static func appendUnmasked(
    _ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8], mask: WebSocketMask, offset: Int
  ) {
    let start = buffer.count
    buffer.append(contentsOf: bytes)
    buffer.withUnsafeMutableBytes {
      mask.apply(to: UnsafeMutableRawBufferPointer(rebasing: $0[start...]), offset: offset)
    }
  }

  private func protocolError(_ reason: String) -> Failure {
    Failure(code: .protocolError, reason: reason)
  }

  private func invalidText() -> Failure {
    Failure(code: .invalidPayload, reason: "invalid UTF-8 text")
  }
}
