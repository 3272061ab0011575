/// SHA-1 (FIPS 180-4 §6.1), used only for `Sec-WebSocket-Accept` (RFC 6455 §4.2.2).
///
/// NB: SHA-1 is broken for collision resistance; the handshake uses it only to prove that
/// the server read the key, which needs no secrecy.
public struct SHA1: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
  )
  private var block: [UInt8] = []
  private var length: UInt64 = 0

  /// An empty message; feed it with `update`.
  public init() {
    block.reserveCapacity(64)
  }

  /// The 20-byte digest of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var sha = SHA1()
    sha.update(bytes)
    return sha.finalize()
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      block.append(byte)
      length &+= 1
      if block.count == 64 {
        compress()
        block.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest.
  public mutating func finalize() -> [UInt8] {
    let bits = length &* 8
    block.append(0x80)
    if block.count > 56 {
      block += repeatElement(0, count: 64 - block.count)
      compress()
      block.removeAll(keepingCapacity: true)
    }
    block += repeatElement(0, count: 56 - block.count)
    for shift in stride(from: 56, through: 0, by: -8) {
      block.append(UInt8(truncatingIfNeeded: bits >> shift))
    }
    compress()
    block.removeAll(keepingCapacity: true)
    var digest: [UInt8] = []
    for word in [state.0, state.1, state.2, state.3, state.4] {
      for shift in stride(from: 24, through: 0, by: -8) {
        digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return digest
  }

  /// Processes one 64-byte block (FIPS 180-4 §6.1.2).
  private mutating func compress() {
    var w = [UInt32](repeating: 0, count: 80)
    for t in 0..<16 {
      w[t] =
        UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16
        | UInt32(block[t * 4 + 2]) << 8 | UInt32(block[t * 4 + 3])
    }
    for t in 16..<80 {
      w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)
    }
    var (a, b, c, d, e) = state
    for t in 0..<80 {
      let f: UInt32
      let k: UInt32
      switch t {
      case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
      case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
      case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
      default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
      }
      let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[t]
      (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
    }
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
  }

  private func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 {
    x << n | x >> (32 - n)
  }
}
