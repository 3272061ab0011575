import Testing

@testable import HTTP

@Suite struct SyntaxTests {
  /// Every byte against RFC 9110 §5.6.2's tchar, written out as the RFC lists it.
  @Test func tokenBytesAreTheRFCsTchars() {
    let tchar = Set(
      "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    for byte in UInt8.min...UInt8.max {
      #expect(Syntax.isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
    }
    #expect(Syntax.isToken(Array("X-Custom_Field.1".utf8)))
    #expect(!Syntax.isToken(Array("Bad Name".utf8)))
    #expect(!Syntax.isToken([UInt8]()))
  }
}
