/// Builds whole frames (RFC 6455 §5.2) in one allocation.
public enum WebSocketFrame {
  /// A frame's wire bytes. Servers never mask (RFC 6455 §5.1); `mask` exists for clients.
  public static func encode(
    _ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
    rsv1: Bool = false, mask: WebSocketMask? = nil
  ) -> [UInt8] {
    let header = FrameHeader(
      fin: fin, rsv1: rsv1, opcodeValue: opcode.rawValue, mask: mask,
      payloadLength: UInt64(payload.count))
    var bytes: [UInt8] = []
    bytes.reserveCapacity(14 + payload.count)
    header.write(into: &bytes)
    let start = bytes.count
    bytes.append(contentsOf: payload)
    if let mask {
      bytes.withUnsafeMutableBytes {
        mask.apply(to: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
      }
    }
    return bytes
  }

  /// A frame's wire bytes for an array payload (see the raw-buffer variant).
  public static func encode(
    _ opcode: WebSocketOpcode, payload: [UInt8], fin: Bool = true, rsv1: Bool = false,
    mask: WebSocketMask? = nil
  ) -> [UInt8] {
    payload.withUnsafeBytes { encode(opcode, payload: $0, fin: fin, rsv1: rsv1, mask: mask) }
  }

  /// A close frame's payload (RFC 6455 §5.5.1): the code, then a UTF-8 reason cut on a
  /// character boundary so the payload stays within 125 bytes.
  public static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
    var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
    var room = 123
    for character in reason {
      let utf8 = character.utf8
      guard utf8.count <= room else { break }
      payload += utf8
      room -= utf8.count
    }
    return payload
  }
}
