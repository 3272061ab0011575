/// A complete data message (RFC 6455 §5.6): text is valid UTF-8, binary is any bytes.
public enum WebSocketMessage: Sendable, Equatable {
  case text(String)
  case binary([UInt8])

  /// The data frame opcode that starts this message.
  public var opcode: WebSocketOpcode {
    switch self {
    case .text: .text
    case .binary: .binary
    }
  }

  /// The payload bytes (UTF-8 for text).
  public var bytes: [UInt8] {
    switch self {
    case .text(let string): Array(string.utf8)
    case .binary(let bytes): bytes
    }
  }
}
