import HTTP
import WebSocket

/// A handler's answer to a request.
public enum Reply: Sendable {
  /// The response, ready now.
  case response(Response)
  /// A response another thread will finish.
  case later(PendingResponse)
  /// Switch the connection to WebSocket: send the handshake's 101, then hand the connection
  /// to the handler.
  case webSocket(WebSocketHandshake.Accepted, any WebSocketHandler)
}
