import TestSupport
import Testing

@testable import WebSocket

@Suite struct Base64Tests {
  /// RFC 4648 §10.
  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
  ])
  func rfcVectors(plain: String, encoded: String) {
    #expect(Base64.encode(Array(plain.utf8)) == encoded)
    #expect(Base64.decode(encoded) == Array(plain.utf8))
  }

  @Test func allByteValuesRoundTrip() {
    let bytes = (0...255).map { UInt8($0) }
    #expect(Base64.decode(Base64.encode(bytes)) == bytes)
  }

  @Test(arguments: ["Zg=", "Zg", "Z===", "Zg==Zg==", "Zm9v!", "Zm 9v", "=Zm9", "Zm=v"])
  func rejectsMalformedInput(text: String) {
    #expect(Base64.decode(text) == nil)
  }
}

@Suite struct UTF8ValidatorTests {
  func valid(_ bytes: [UInt8]) -> Bool {
    var validator = UTF8Validator()
    return validator.validate(bytes) && validator.isComplete
  }

  @Test func acceptsValidText() {
    for text in ["", "hello", "κόσμε", "\u{10FFFF}", "\u{FFFF}", "\u{D7FF}\u{E000}", "a€𝄞b"] {
      #expect(valid(Array(text.utf8)), "\(text)")
    }
  }

  /// Autobahn 6.3 and 6.6-6.21 style cases.
  @Test(
    arguments: [
      [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0x80], [0xBF],
      [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65],
      [0xC2, 0x41], [0xE1, 0x80, 0x41],
    ] as [[UInt8]])
  func rejectsInvalidSequences(bytes: [UInt8]) {
    #expect(!valid(bytes))
  }

  @Test func truncatedSequencesAreIncomplete() {
    for bytes: [UInt8] in [[0xC2], [0xE2, 0x82], [0xF0, 0x9D, 0x84]] {
      var validator = UTF8Validator()
      let accepted = validator.validate(bytes)
      #expect(accepted && !validator.isComplete)
    }
  }

  /// Fails at the first impossible byte even when it arrives alone.
  @Test func failsFastAcrossPieces() {
    var validator = UTF8Validator()
    let verdicts = [Array("κόσμε".utf8), [0xF4], [0x90], [0x41]].map { validator.validate($0) }
    #expect(verdicts == [true, true, false, false])
  }

  @Test func splittingAnywhereGivesTheSameVerdict() {
    var random = SplitMix64(seed: 3)
    let samples: [[UInt8]] = [
      Array("ascii only text that is long enough for the eight-byte path".utf8),
      Array("mixed ü € 𝄞 and more ascii after the four-byte one".utf8),
      Array("bad \u{10FFFF}".utf8) + [0xED, 0xA0, 0x80] + Array("tail".utf8),
    ]
    for sample in samples {
      let whole = valid(sample)
      for _ in 0..<200 {
        var validator = UTF8Validator()
        var ok = true
        var rest = sample[...]
        while !rest.isEmpty {
          let take = Int.random(in: 1...max(1, rest.count), using: &random)
          ok = validator.validate(rest.prefix(take)) && ok
          rest = rest.dropFirst(take)
        }
        #expect((ok && validator.isComplete) == whole)
      }
    }
  }
}

@Suite struct FrameCodecTests {
  @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 100_000])
  func lengthsRoundTripWithTheShortestEncoding(length: Int) throws {
    let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let bytes = WebSocketFrame.encode(.binary, payload: payload)
    let headerLength = length < 126 ? 2 : length <= 0xFFFF ? 4 : 10
    #expect(bytes.count == headerLength + length)
    let parsed = bytes.withUnsafeBytes { FrameHeader.parse($0) }
    guard case .header(let header, let size) = parsed else {
      Issue.record("no header")
      return
    }
    #expect(size == headerLength)
    #expect(header.payloadLength == UInt64(length))
    #expect(header.opcode == .binary && header.fin && header.mask == nil)
    #expect(Array(bytes[size...]) == payload)
  }

  @Test func maskedFramesRoundTrip() throws {
    let payload = Array("Hello, masked world! 0123456789".utf8)
    let bytes = WebSocketFrame.encode(.text, payload: payload, fin: false, mask: testMask)
    guard case .header(let header, let size) = bytes.withUnsafeBytes({ FrameHeader.parse($0) })
    else {
      Issue.record("no header")
      return
    }
    #expect(header.mask == testMask && !header.fin)
    var body = Array(bytes[size...])
    #expect(body != payload)
    body.withUnsafeMutableBytes { testMask.apply(to: $0) }
    #expect(body == payload)
  }

  /// RFC 6455 §5.7 examples.
  @Test func rfcExamples() {
    #expect(
      WebSocketFrame.encode(.text, payload: Array("Hello".utf8))
        == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    let masked: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    #expect(WebSocketFrame.encode(.text, payload: Array("Hello".utf8), mask: testMask) == masked)
  }

  /// Unmasking in pieces at any offset equals unmasking whole.
  @Test func maskPhaseIsKeptAcrossPieces() {
    var random = SplitMix64(seed: 11)
    let plain = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &random) }
    var whole = plain
    whole.withUnsafeMutableBytes { testMask.apply(to: $0) }
    for _ in 0..<50 {
      var pieces = plain
      var offset = 0
      while offset < pieces.count {
        let end = min(pieces.count, offset + Int.random(in: 1...40, using: &random))
        pieces.withUnsafeMutableBytes {
          testMask.apply(
            to: UnsafeMutableRawBufferPointer(rebasing: $0[offset..<end]), offset: offset)
        }
        offset = end
      }
      #expect(pieces == whole)
    }
  }

  @Test func incompleteAndOversizedHeaders() {
    func parse(_ bytes: [UInt8]) -> FrameHeader.Parse {
      bytes.withUnsafeBytes { FrameHeader.parse($0) }
    }
    #expect(parse([0x81]) == .needMore(2))
    #expect(parse([0x81, 0xFE, 0x01]) == .needMore(8))
    #expect(parse([0x82, 0x7F, 0, 0, 0]) == .needMore(10))
    #expect(parse([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]) == .lengthTooLarge)
  }

  @Test func closePayloadKeepsTheReasonWithin125BytesOnACharacterBoundary() {
    let payload = WebSocketFrame.closePayload(
      code: .goingAway, reason: String(repeating: "€", count: 50))
    #expect(payload.count == 2 + 123)
    #expect(payload.prefix(2) == [0x03, 0xE9])
    var validator = UTF8Validator()
    let valid = validator.validate(payload.dropFirst(2)) && validator.isComplete
    #expect(valid)
  }

  @Test func closeCodeValidity() {
    let valid: [UInt16] = [
      1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
      4999,
    ]
    let invalid: [UInt16] = [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]
    #expect(valid.allSatisfy { WebSocketCloseCode($0).isValidOnWire })
    #expect(invalid.allSatisfy { !WebSocketCloseCode($0).isValidOnWire })
  }
}
