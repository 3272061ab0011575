import CZlib
import TestSupport
import Testing

@testable import Deflate

/// Text that compresses well but has matches at every distance up to a few kilobytes.
func sampleText(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
  var random = SplitMix64(seed: seed)
  let words = ["tick", "frame", "ball", "maze", "\"x\":", "\"y\":", "1.25", "{", "}", ", ", "-0.5"]
  var bytes: [UInt8] = []
  while bytes.count < count {
    bytes += Array(words.randomElement(using: &random)!.utf8)
    if Int.random(in: 0..<8, using: &random) == 0 {
      bytes.append(UInt8.random(in: 0x20...0x7E, using: &random))
    }
  }
  return Array(bytes.prefix(count))
}

@Suite struct DeflateTests {
  @Test(arguments: [8, 9, 12, 15])
  func messagesRoundTripWithContextTakeover(windowBits: Int) throws {
    let deflater = try Deflater(windowBits: windowBits)
    let inflater = try Inflater(windowBits: windowBits)
    for index in 0..<20 {
      let message = sampleText(100 + index * 331, seed: UInt64(index))
      let compressed = try deflater.compressMessage(message)
      #expect(!compressed.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]))
      var output: [UInt8] = []
      try inflater.inflate(compressed, into: &output)
      try inflater.finishMessage(into: &output)
      #expect(output == message)
    }
  }

  @Test func contextTakeoverShrinksARepeatedMessage() throws {
    let deflater = try Deflater()
    let message = sampleText(2000)
    let first = try deflater.compressMessage(message)
    let second = try deflater.compressMessage(message)
    #expect(second.count < first.count / 4)
    deflater.reset()
    #expect(try deflater.compressMessage(message) == first)
  }

  @Test func resetInflaterReadsMessagesCompressedWithoutContext() throws {
    let deflater = try Deflater()
    let inflater = try Inflater()
    for seed in 0..<5 {
      let message = sampleText(3000, seed: UInt64(seed % 2))
      deflater.reset()
      inflater.reset()
      var output: [UInt8] = []
      try inflater.inflate(try deflater.compressMessage(message), into: &output)
      try inflater.finishMessage(into: &output)
      #expect(output == message)
    }
  }

  /// zlib cannot deflate with an 8-bit window; ours must still fit a 256-byte window.
  @Test func windowEightOutputInflatesWithA256ByteWindow() throws {
    let deflater = try Deflater(windowBits: 8)
    let strict = try ZStream(inflateWindowBits: -8)
    for seed in 0..<10 {
      let message = sampleText(20_000, seed: UInt64(seed))
      var output: [UInt8] = []
      var compressed = try deflater.compressMessage(message)
      compressed += [0, 0, 0xFF, 0xFF]
      try compressed.withUnsafeBytes { _ = try strict.pump($0, into: &output) }
      #expect(output == message)
    }
  }

  /// Also between other messages, where zlib itself would write nothing at all.
  @Test func emptyMessageIsOneZeroByte() throws {
    let deflater = try Deflater()
    let inflater = try Inflater()
    for message in [[], sampleText(500), [], [], sampleText(300, seed: 2), []] {
      let compressed = try deflater.compressMessage(message)
      if message.isEmpty { #expect(compressed == [0x00]) }
      var output: [UInt8] = []
      try inflater.inflate(compressed, into: &output)
      try inflater.finishMessage(into: &output)
      #expect(output == message)
    }
  }

  @Test func piecesGiveTheSameOutputAsTheWhole() throws {
    let message = sampleText(50_000)
    let compressed = try Deflater().compressMessage(message)
    var random = SplitMix64(seed: 7)
    for _ in 0..<20 {
      let inflater = try Inflater()
      var output: [UInt8] = []
      var offset = 0
      while offset < compressed.count {
        let end = min(compressed.count, offset + Int.random(in: 0...700, using: &random))
        try inflater.inflate(Array(compressed[offset..<end]), into: &output)
        offset = end
      }
      try inflater.finishMessage(into: &output)
      #expect(output == message)
    }
  }

  @Test func bombStopsAtTheLimit() throws {
    let bomb = try Deflater(level: 9).compressMessage([UInt8](repeating: 0, count: 20 << 20))
    #expect(bomb.count < 40_000)
    let inflater = try Inflater()
    var output: [UInt8] = []
    let limit = 1 << 20
    #expect(throws: DeflateError.outputLimitExceeded(limit: limit)) {
      try inflater.inflate(bomb, into: &output, limit: limit)
    }
    #expect(output.count <= limit + 1)
  }

  @Test func limitCountsWhatIsAlreadyInTheOutput() throws {
    let message = sampleText(1000)
    let compressed = try Deflater().compressMessage(message)
    var output = [UInt8](repeating: 1, count: 500)
    #expect(throws: DeflateError.outputLimitExceeded(limit: 1499)) {
      let inflater = try Inflater()
      try inflater.inflate(compressed, into: &output, limit: 1499)
      try inflater.finishMessage(into: &output, limit: 1499)
    }
    var exact = [UInt8](repeating: 1, count: 500)
    let inflater = try Inflater()
    try inflater.inflate(compressed, into: &exact, limit: 1500)
    try inflater.finishMessage(into: &exact, limit: 1500)
    #expect(Array(exact.dropFirst(500)) == message)
  }

  @Test func corruptInputThrowsAZlibError() throws {
    var output: [UInt8] = []
    #expect {
      try Inflater().inflate([0xFF, 0xFF, 0xFF, 0xFF, 0xFF], into: &output)
    } throws: { error in
      guard case .zlib(let code, _) = error as? DeflateError else { return false }
      return code == Z_DATA_ERROR
    }
  }

  /// RFC 7692 §7.2.3.3: a sender may end a message with a BFINAL block; later messages start
  /// a new stream.
  @Test func finalBlockRestartsTheStream() throws {
    let inflater = try Inflater()
    for seed in 0..<3 {
      let message = sampleText(4000, seed: UInt64(seed))
      let whole = try ZStream(deflateLevel: 6, windowBits: -15, memoryLevel: 8)
      var compressed: [UInt8] = []
      try message.withUnsafeBytes {
        _ = try whole.pump($0, into: &compressed, flush: Z_FINISH)
      }
      var output: [UInt8] = []
      try inflater.inflate(compressed, into: &output)
      try inflater.finishMessage(into: &output)
      #expect(output == message)
    }
  }

  @Test(arguments: [0, 1, 6, 9])
  func gzipRoundTrip(level: Int) throws {
    let data = sampleText(100_000)
    let zipped = try Gzip.compress(data, level: level)
    #expect(zipped.prefix(3).elementsEqual([0x1F, 0x8B, 0x08]))
    #expect(try Gzip.decompress(zipped) == data)
  }

  @Test func gzipRefusesTruncatedAndOversizedInput() throws {
    let data = sampleText(100_000)
    let zipped = try Gzip.compress(data)
    #expect(throws: DeflateError.self) { try Gzip.decompress(Array(zipped.dropLast(10))) }
    #expect(throws: DeflateError.outputLimitExceeded(limit: 1000)) {
      try Gzip.decompress(zipped, limit: 1000)
    }
  }
}
