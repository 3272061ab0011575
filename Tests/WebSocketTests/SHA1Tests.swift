import Testing

@testable import WebSocket

@Suite struct SHA1Tests {
  func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  /// FIPS 180-2 Appendix A and the NIST example vectors.
  @Test(arguments: [
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "a49b2446a02c645bf419f995b67091253a04a259"
    ),
  ])
  func fipsVectors(input: String, digest: String) {
    #expect(hex(SHA1.hash(Array(input.utf8))) == digest)
  }

  @Test func millionAs() {
    var sha = SHA1()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { sha.update(chunk) }
    #expect(hex(sha.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  /// Lengths around the 55/56/64-byte padding boundaries, piecewise and whole.
  @Test func paddingBoundariesAndPieces() {
    let known: [Int: String] = [
      55: "c1c8bbdc22796e28c0e15163d20899b65621d65a",
      56: "c2db330f6083854c99d4b5bfb6e8f29f201be699",
      64: "0098ba824b5c16427bd7a1122a5a442a25ec644d",
    ]
    for (count, digest) in known {
      let input = [UInt8](repeating: UInt8(ascii: "a"), count: count)
      #expect(hex(SHA1.hash(input)) == digest)
      var sha = SHA1()
      sha.update(input.prefix(count / 3))
      sha.update(input.dropFirst(count / 3))
      #expect(hex(sha.finalize()) == digest)
    }
  }
}
