import Deflate
import HTTP
import TestSupport
import Testing

@testable import WebSocket

/// Properties that must hold for any input: splitting does not matter, nothing crashes, and
/// nothing follows the end of the connection.
@Suite struct PropertyTests {
  /// A random but valid client stream: messages of every kind, fragmented or not, compressed
  /// or not, with pings between fragments, and sometimes a close at the end.
  func randomStream(_ random: inout SplitMix64, deflater: Deflater?) throws -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 1...12, using: &random) {
      let isText = Bool.random(using: &random)
      var payload: [UInt8] =
        isText
        ? Array(
          String(repeating: "κόσμε-€-𝄞-ascii ", count: Int.random(in: 0...40, using: &random)).utf8)
        : (0..<Int.random(in: 0...3000, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      let compress = deflater != nil && Bool.random(using: &random)
      if compress, let deflater { payload = try deflater.compressMessage(payload) }
      let pieces = Int.random(in: 1...4, using: &random)
      var offset = 0
      for index in 0..<pieces {
        let end =
          index == pieces - 1
          ? payload.count : Int.random(in: offset...payload.count, using: &random)
        let opcode: UInt8 = index == 0 ? (isText ? 1 : 2) : 0
        let mask = WebSocketMask(
          .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
          .random(in: 0...255, using: &random), .random(in: 0...255, using: &random))
        bytes += clientFrame(
          opcode, Array(payload[offset..<end]), fin: index == pieces - 1,
          rsv1: compress && index == 0,
          mask: mask)
        offset = end
        if Int.random(in: 0..<3, using: &random) == 0 {
          bytes += clientFrame(0x9, (0..<Int.random(in: 0...125, using: &random)).map { UInt8($0) })
        }
      }
    }
    if Bool.random(using: &random) { bytes += clientFrame(0x8, [0x03, 0xE8] + Array("done".utf8)) }
    return bytes
  }

  func feed(_ bytes: [UInt8], splitAt cuts: [Int], deflate: PerMessageDeflateParameters?)
    -> [WebSocketAction]
  {
    let ws = machine(deflate: deflate)
    var actions: [WebSocketAction] = []
    var start = 0
    for cut in cuts + [bytes.count] {
      actions += ws.receive(bytes[start..<cut], now: t0)
      start = cut
    }
    return actions
  }

  @Test(arguments: [false, true])
  func anySplitGivesTheSameActions(compressed: Bool) throws {
    var random = SplitMix64(seed: compressed ? 0xC0FFEE : 0xBEEF)
    let settings = compressed ? PerMessageDeflateParameters() : nil
    for _ in 0..<60 {
      let bytes = try randomStream(&random, deflater: compressed ? Deflater() : nil)
      let whole = feed(bytes, splitAt: [], deflate: settings)
      #expect(whole.contains { if case .deliver = $0 { true } else { false } })
      for _ in 0..<5 {
        let cuts = (0..<Int.random(in: 1...40, using: &random)).map { _ in
          Int.random(in: 0...bytes.count, using: &random)
        }.sorted()
        #expect(feed(bytes, splitAt: cuts, deflate: settings) == whole)
      }
      // Byte by byte is the most extreme split.
      if bytes.count < 4000 {
        #expect(feed(bytes, splitAt: Array(0..<bytes.count), deflate: settings) == whole)
      }
    }
  }

  /// Checks what must hold for any action list: the TCP close comes last and only once, and
  /// every write parses as whole unmasked frames.
  func checkInvariants(_ actions: [WebSocketAction]) {
    let closes = actions.indices.filter { actions[$0] == .closeConnection }
    #expect(closes.count <= 1)
    if let close = closes.first { #expect(close == actions.count - 1) }
    for case .write(let bytes) in actions { _ = serverFrames(bytes) }
  }

  @Test(arguments: [false, true])
  func randomBytesNeverCrash(compressed: Bool) {
    var random = SplitMix64(seed: compressed ? 99 : 42)
    let settings = compressed ? PerMessageDeflateParameters() : nil
    let prefixes: [[UInt8]] = [
      [], [0x81], [0x82, 0xFE], [0xC1, 0x85], [0x01, 0x83], [0x88, 0x82],
    ]
    for _ in 0..<3000 {
      let ws = machine(
        deflate: settings, configuration: WebSocketConfiguration(maxMessageSize: 1 << 16))
      var actions: [WebSocketAction] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        var bytes = prefixes.randomElement(using: &random)!
        bytes += (0..<Int.random(in: 0...300, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        actions += ws.receive(bytes, now: t0)
      }
      actions += ws.tick(now: t0 + .seconds(3600))
      actions += ws.peerClosedConnection()
      checkInvariants(actions)
    }
  }

  /// Valid streams with a few bytes changed: whatever happens, it happens cleanly.
  @Test func mutatedStreamsNeverCrash() throws {
    var random = SplitMix64(seed: 7)
    for _ in 0..<1500 {
      let compressed = Bool.random(using: &random)
      var bytes = try randomStream(&random, deflater: compressed ? Deflater() : nil)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = .random(
          in: 0...255, using: &random)
      }
      let actions = feed(
        bytes, splitAt: [bytes.count / 2], deflate: compressed ? PerMessageDeflateParameters() : nil
      )
      checkInvariants(actions)
    }
  }
}
