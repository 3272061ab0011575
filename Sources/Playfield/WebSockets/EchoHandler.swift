import Server
import WebSocket

/// `/ws/echo`: sends every message back with the same opcode (for conformance tests).
struct EchoHandler: WebSocketHandler {
  func opened(_ socket: WebSocket) {}

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    socket.send(message)
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {}
}
