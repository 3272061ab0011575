/// What the I/O layer must do for the state machine, in order.
public enum WebSocketAction: Sendable, Equatable {
  /// Queue these bytes for the socket, after everything queued before.
  case write([UInt8])
  /// Hand a complete message to the application.
  case deliver(WebSocketMessage)
  /// Flush queued writes, then end the TCP connection (RFC 6455 §7.1.1: the server closes
  /// first). Shut down the write side and drain reads until EOF or a short bound before
  /// closing, so that unread input does not turn into an RST that discards the close frame.
  case closeConnection
}
