import Server
import WebSocket

extension WebSocket {
  /// Sends one message to this connection (compressed for it, if it asked).
  func send(_ message: ServerMessage) {
    send(.text(String(decoding: message.bytes, as: UTF8.self)))
  }
}
