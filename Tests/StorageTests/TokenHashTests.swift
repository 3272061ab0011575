import Testing

@testable import Storage

@Suite struct TokenHashTests {
  /// Known answers from FIPS 180-2 appendix B and NIST's SHA examples.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func nistVectors(message: String, digest: String) {
    #expect(TokenHash.hash(token: message) == digest)
  }

  @Test func oneMillionAs() {
    let digest = TokenHash.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
    #expect(
      TokenHash.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Lengths around the 56- and 64-byte padding boundaries; digests from Python's hashlib.
  @Test(arguments: [
    (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
    (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
    (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
    (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
  ])
  func paddingBoundaries(length: Int, digest: String) {
    #expect(TokenHash.hash(token: String(repeating: "a", count: length)) == digest)
  }

  @Test func hashesTheUTF8Bytes() {
    #expect(
      TokenHash.hash(token: "héllo, wörld ✓")
        == "b7cbe411256e0b5887b988d8d079bc047e75f6af00bb572d77291d65b2517de1")
  }

  @Test func matchesOnlyTheSameToken() {
    let stored = TokenHash.hash(token: "s3cret-token")
    #expect(TokenHash.matches(token: "s3cret-token", storedHash: stored))
    #expect(!TokenHash.matches(token: "s3cret-tokeN", storedHash: stored))
    #expect(!TokenHash.matches(token: "", storedHash: stored))
    #expect(!TokenHash.matches(token: "s3cret-token", storedHash: String(stored.dropLast())))
  }
}
