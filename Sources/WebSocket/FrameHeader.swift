/// The fixed part of a frame (RFC 6455 §5.2), as read from the wire.
public struct FrameHeader: Sendable, Equatable {
  /// The last frame of a message.
  public var fin: Bool
  /// RSV1: the first frame of a compressed message under permessage-deflate (RFC 7692 §6).
  public var rsv1: Bool
  /// RSV2 and RSV3: no extension here defines them.
  public var rsv2: Bool
  public var rsv3: Bool
  /// The raw 4-bit opcode; reserved values are kept so the caller can reject them.
  public var opcodeValue: UInt8
  /// The masking key; client frames must have one, server frames never do (§5.1).
  public var mask: WebSocketMask?
  /// The payload length in bytes.
  public var payloadLength: UInt64

  /// Describes a frame; `encoded` gives its wire bytes.
  public init(
    fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false,
    opcodeValue: UInt8, mask: WebSocketMask? = nil, payloadLength: UInt64
  ) {
    self.fin = fin
    self.rsv1 = rsv1
    self.rsv2 = rsv2
    self.rsv3 = rsv3
    self.opcodeValue = opcodeValue
    self.mask = mask
    self.payloadLength = payloadLength
  }

  /// The opcode, or nil for a reserved value (RFC 6455 §5.2: 3-7 and 0xB-0xF).
  public var opcode: WebSocketOpcode? { WebSocketOpcode(rawValue: opcodeValue) }

  /// The result of reading a header from the start of some bytes.
  public enum Parse: Sendable, Equatable {
    /// At least this many bytes are needed in all.
    case needMore(Int)
    /// A header that took `length` bytes.
    case header(FrameHeader, length: Int)
    /// RFC 6455 §5.2: the most significant bit of a 64-bit length MUST be 0.
    case lengthTooLarge
  }

  /// How many bytes the header takes, known from its first two bytes.
  public static func size(first: UInt8, second: UInt8) -> Int {
    let lengthBytes =
      switch second & 0x7F {
      case 126: 2
      case 127: 8
      default: 0
      }
    return 2 + lengthBytes + (second & 0x80 != 0 ? 4 : 0)
  }

  /// Reads a header from the start of `bytes` without copying.
  ///
  /// NB: a longer length encoding than needed (e.g. 5 in 16 bits) is accepted, as the Python
  /// `websockets` reference does; RFC 6455 §5.2 puts the "minimal" rule on the sender.
  public static func parse(_ bytes: UnsafeRawBufferPointer) -> Parse {
    guard bytes.count >= 2 else { return .needMore(2) }
    let first = bytes[0]
    let second = bytes[1]
    let size = Self.size(first: first, second: second)
    guard bytes.count >= size else { return .needMore(size) }
    var cursor = 2
    var length = UInt64(second & 0x7F)
    if length >= 126 {
      let width = length == 126 ? 2 : 8
      length = 0
      for index in cursor..<cursor + width { length = length << 8 | UInt64(bytes[index]) }
      cursor += width
      guard length >> 63 == 0 else { return .lengthTooLarge }
    }
    var mask: WebSocketMask?
    if second & 0x80 != 0 {
      mask = WebSocketMask(bytes[cursor], bytes[cursor + 1], bytes[cursor + 2], bytes[cursor + 3])
      cursor += 4
    }
    let header = FrameHeader(
      fin: first & 0x80 != 0, rsv1: first & 0x40 != 0, rsv2: first & 0x20 != 0,
      rsv3: first & 0x10 != 0, opcodeValue: first & 0x0F, mask: mask, payloadLength: length)
    return .header(header, length: cursor)
  }

  /// The header's wire bytes, with the shortest length encoding.
  public var encoded: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(14)
    write(into: &bytes)
    return bytes
  }

  /// Appends the header's wire bytes.
  public func write(into bytes: inout [UInt8]) {
    var first = opcodeValue & 0x0F
    if fin { first |= 0x80 }
    if rsv1 { first |= 0x40 }
    if rsv2 { first |= 0x20 }
    if rsv3 { first |= 0x10 }
    bytes.append(first)
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    switch payloadLength {
    case 0..<126:
      bytes.append(maskBit | UInt8(payloadLength))
    case 126...0xFFFF:
      bytes.append(maskBit | 126)
      bytes.append(UInt8(payloadLength >> 8))
      bytes.append(UInt8(payloadLength & 0xFF))
    default:
      bytes.append(maskBit | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: payloadLength >> UInt64(shift)))
      }
    }
    if let mask {
      bytes += [mask.bytes.0, mask.bytes.1, mask.bytes.2, mask.bytes.3]
    }
  }
}
