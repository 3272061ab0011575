/// A frame opcode (RFC 6455 §5.2); the values 3-7 and 11-15 are reserved and have no case.
public enum WebSocketOpcode: UInt8, Sendable {
  case continuation = 0x0
  case text = 0x1
  case binary = 0x2
  case close = 0x8
  case ping = 0x9
  case pong = 0xA

  /// Control frames have the high bit of the opcode set (RFC 6455 §5.5).
  public var isControl: Bool { rawValue & 0x8 != 0 }
}
