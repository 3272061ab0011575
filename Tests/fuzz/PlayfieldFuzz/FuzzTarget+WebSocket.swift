import HTTP
import WebSocket

extension FuzzTarget {
  /// Any bytes, fed to the state machine in pieces, must never crash it, and its actions must
  /// keep their invariants.
  static func websocket(_ bytes: [UInt8]) {
    guard let control = bytes.first else { return }
    // The first byte picks the settings and how the rest is split into reads.
    let input = bytes.dropFirst()
    var configuration = WebSocketConfiguration(maxMessageSize: 1 << 16, maxFrameSize: 1 << 15)
    configuration.compressionThreshold = Int(control & 0x03) * 16
    var deflate: PerMessageDeflateParameters?
    if control & 0x04 != 0 {
      deflate = PerMessageDeflateParameters(
        serverNoContextTakeover: control & 0x08 != 0, clientNoContextTakeover: control & 0x10 != 0,
        serverMaxWindowBits: 8 + Int(control >> 5), clientMaxWindowBits: 15 - Int(control >> 5))
    }
    let machine = WebSocketStateMachine(configuration: configuration, deflate: deflate, now: .zero)
    var actions: [WebSocketAction] = []
    let step = max(1, Int(control >> 3))
    var start = input.startIndex
    while start < input.endIndex {
      let end = min(input.endIndex, start + step)
      actions += machine.receive(input[start..<end], now: MonotonicTime(nanoseconds: UInt64(start)))
      start = end
    }
    for action in actions {
      if case .deliver(let message) = action { actions += machine.send(message) }
    }
    actions += machine.tick(now: MonotonicTime(nanoseconds: 1 << 40))
    actions += machine.peerClosedConnection()
    let closes = actions.indices.filter { actions[$0] == .closeConnection }
    precondition(closes.count <= 1 && (closes.first.map { $0 == actions.count - 1 } ?? true))

    // The header parsers must cope with any text too.
    let text = String(decoding: input, as: UTF8.self)
    _ = WebSocketExtensionOffer.parse([text])
    _ = Base64.decode(text)
    var validator = UTF8Validator()
    _ = validator.validate(input)
  }
}
