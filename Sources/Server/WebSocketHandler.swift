import HTTP
import WebSocket

/// The application side of a WebSocket connection. Each method runs on the connection's
/// event-loop thread, in order, and must not block.
public protocol WebSocketHandler: Sendable {
  /// The connection is open; keep `socket` to send to it from any thread.
  func opened(_ socket: WebSocket)
  /// A complete message arrived.
  func received(_ message: WebSocketMessage, on socket: WebSocket)
  /// The connection is gone; `code` is the close code seen (1006 when TCP ended first).
  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String)
}
