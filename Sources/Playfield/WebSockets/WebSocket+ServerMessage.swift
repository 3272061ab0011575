import Server
import WebSocket

extension WebSocket {
  /// Sends one message to this connection (compressed for it, if it asked).
  func send(_ message: ServerMessage) {
    send(.text(message.text))
  }

  /// Sends one message, then runs `after` on the connection's event loop with it queued.
  func send(_ message: ServerMessage, then after: @escaping @Sendable () -> Void) {
    send(.text(message.text), then: after)
  }
}

extension ServerMessage {
  /// The message as a WebSocket text.
  fileprivate var text: String { String(decoding: bytes, as: UTF8.self) }
}
