import Deflate
import HTTP
import TestSupport
import Testing

@testable import WebSocket

/// The state machine with permessage-deflate (RFC 7692).
@Suite struct DeflateStateMachineTests {
  let settings = PerMessageDeflateParameters()
  let text = String(repeating: "{\"type\":\"frame\",\"tick\":42,\"x\":1.5,\"y\":-0.25} ", count: 40)

  func compressed(_ bytes: [UInt8], with deflater: Deflater? = nil) throws -> [UInt8] {
    try (deflater ?? Deflater()).compressMessage(bytes)
  }

  /// Inflates what the server wrote, as a client would.
  func clientRead(_ actions: [WebSocketAction], _ inflater: Inflater) throws -> [UInt8] {
    let frames = steps(actions).compactMap { step -> ServerFrame? in
      if case .frame(let frame) = step { return frame }
      return nil
    }
    let frame = try #require(frames.first)
    #expect(frames.count == 1)
    guard frame.rsv1 else { return frame.payload }
    var output: [UInt8] = []
    try inflater.inflate(frame.payload, into: &output)
    try inflater.finishMessage(into: &output)
    return output
  }

  @Test func compressedMessageIsDelivered() throws {
    let ws = machine(deflate: settings)
    let frame = clientFrame(0x1, try compressed(Array(text.utf8)), rsv1: true)
    #expect(frame.count < text.utf8.count / 4)
    #expect(steps(ws.receive(frame, now: t0)) == [.text(text)])
  }

  /// Compressed frames larger than the unmasking scratch buffer, whole and in odd pieces.
  @Test func largeCompressedFramesInPieces() throws {
    var random = SplitMix64(seed: 5)
    let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let frame = clientFrame(0x2, try compressed(noise), rsv1: true)
    #expect(frame.count > 3 * WebSocketStateMachine.scratchSize)
    #expect(steps(machine(deflate: settings).receive(frame, now: t0)) == [.message(.binary(noise))])
    let ws = machine(deflate: settings)
    var actions: [WebSocketAction] = []
    var offset = 0
    while offset < frame.count {
      let end = min(frame.count, offset + Int.random(in: 1...40_000, using: &random))
      actions += ws.receive(frame[offset..<end], now: t0)
      offset = end
    }
    #expect(steps(actions) == [.message(.binary(noise))])
  }

  /// Incompressible data grows a little when deflated; a message at the limit still fits.
  @Test func incompressibleMessageAtTheLimitIsAccepted() throws {
    var random = SplitMix64(seed: 9)
    let noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
    let body = try compressed(noise)
    #expect(body.count > noise.count)
    let ws = machine(deflate: settings)
    #expect(
      steps(ws.receive(clientFrame(0x2, body, rsv1: true), now: t0)) == [.message(.binary(noise))])
  }

  @Test func uncompressedMessagesStillWork() {
    let ws = machine(deflate: settings)
    #expect(steps(ws.receive(clientFrame(.text, "plain"), now: t0)) == [.text("plain")])
  }

  @Test func compressedFragmentedMessageWithInterleavedPing() throws {
    let ws = machine(deflate: settings)
    let body = try compressed(Array(text.utf8))
    let third = body.count / 3
    #expect(
      ws.receive(clientFrame(0x1, Array(body[..<third]), fin: false, rsv1: true), now: t0).isEmpty)
    #expect(steps(ws.receive(clientFrame(0x9, [5]), now: t0)) == [.pong([5])])
    #expect(
      ws.receive(clientFrame(0x0, Array(body[third..<2 * third]), fin: false), now: t0).isEmpty)
    #expect(
      steps(ws.receive(clientFrame(0x0, Array(body[(2 * third)...])), now: t0)) == [.text(text)])
  }

  @Test func contextTakeoverAcrossClientMessages() throws {
    let ws = machine(deflate: settings)
    let deflater = try Deflater()
    for index in 0..<5 {
      let message = text + String(index)
      let frame = clientFrame(0x1, try compressed(Array(message.utf8), with: deflater), rsv1: true)
      #expect(steps(ws.receive(frame, now: t0)) == [.text(message)])
    }
  }

  @Test func clientNoContextTakeoverResetsTheInflater() throws {
    var noContext = settings
    noContext.clientNoContextTakeover = true
    let ws = machine(deflate: noContext)
    let deflater = try Deflater()
    for _ in 0..<3 {
      deflater.reset()
      let frame = clientFrame(0x1, try compressed(Array(text.utf8), with: deflater), rsv1: true)
      #expect(steps(ws.receive(frame, now: t0)) == [.text(text)])
    }
  }

  /// RFC 7692 §6.1: RSV1 only on the first frame of a data message.
  @Test func rsv1OnContinuationOrControlFailsWith1002() throws {
    let ws = machine(deflate: settings)
    _ = ws.receive(
      clientFrame(0x1, try compressed(Array("ab".utf8)), fin: false, rsv1: true), now: t0)
    #expect(failureCode(ws.receive(clientFrame(0x0, [], rsv1: true), now: t0)) == 1002)
    #expect(
      failureCode(machine(deflate: settings).receive(clientFrame(0x9, [], rsv1: true), now: t0))
        == 1002)
  }

  @Test func decompressionBombFailsWith1009() throws {
    let bomb = try Deflater(level: 9).compressMessage([UInt8](repeating: 0x61, count: 8 << 20))
    #expect(bomb.count < 20_000)
    let ws = machine(deflate: settings)
    #expect(failureCode(ws.receive(clientFrame(0x1, bomb, rsv1: true), now: t0)) == 1009)
  }

  @Test func inflatedSizeAtTheLimitIsAccepted() throws {
    let config = WebSocketConfiguration(maxMessageSize: 1000)
    let exact = [UInt8](repeating: 0x62, count: 1000)
    let ws = machine(deflate: settings, configuration: config)
    #expect(
      steps(ws.receive(clientFrame(0x2, try compressed(exact), rsv1: true), now: t0)) == [
        .message(.binary(exact))
      ])
    let over = machine(deflate: settings, configuration: config)
    #expect(
      failureCode(over.receive(clientFrame(0x2, try compressed(exact + [1]), rsv1: true), now: t0))
        == 1009)
  }

  @Test func invalidCompressedTextFailsWith1007AndCorruptDataWith1002() throws {
    let bad = Array("κόσμε".utf8) + [0xED, 0xA0, 0x80]
    let ws = machine(deflate: settings)
    #expect(
      failureCode(
        ws.receive(clientFrame(0x1, try compressed(bad), fin: false, rsv1: true), now: t0)) == 1007)
    let corrupt = machine(deflate: settings)
    #expect(
      failureCode(corrupt.receive(clientFrame(0x2, [0xFF, 0xFF, 0xFF], rsv1: true), now: t0))
        == 1002)
  }

  @Test func serverCompressesWithContextTakeover() throws {
    let ws = machine(deflate: settings)
    let inflater = try Inflater()
    let first = ws.send(.text(text))
    let second = ws.send(.text(text))
    #expect(try clientRead(first, inflater) == Array(text.utf8))
    #expect(try clientRead(second, inflater) == Array(text.utf8))
    #expect(steps(second).description.count > 0)
    guard case .write(let a) = first[0], case .write(let b) = second[0] else { return }
    #expect(b.count < a.count)
  }

  @Test func serverNoContextTakeoverCompressesEveryMessageAlike() throws {
    var noContext = settings
    noContext.serverNoContextTakeover = true
    let ws = machine(deflate: noContext)
    let first = ws.send(.text(text))
    #expect(ws.send(.text(text)) == first)
    #expect(try clientRead(first, Inflater()) == Array(text.utf8))
  }

  @Test func shortMessagesStayPlainBelowTheThreshold() {
    let ws = machine(
      deflate: settings, configuration: WebSocketConfiguration(compressionThreshold: 64))
    #expect(
      steps(ws.send(.text("short"))) == [
        .frame(ServerFrame(opcode: 0x1, payload: Array("short".utf8)))
      ])
  }

  /// A fan-out frame lands in the client's window behind our deflater's back; our next own
  /// message must not refer to history the client does not have in the same place.
  @Test func fanOutFramesKeepTheConnectionsOwnCompressionValid() throws {
    let ws = machine(deflate: settings)
    let inflater = try Inflater()
    let own = Array(text.utf8)
    #expect(try clientRead(ws.send(.binary(own)), inflater) == own)
    let broadcast = EncodedMessage(
      .text("{\"tick\":1} " + text.uppercased()), compressionWindows: [9, 15])
    let shared = ws.send(broadcast)
    #expect(shared == [.write(try #require(broadcast.compressedFrame(forWindowBits: 15)))])
    #expect(try clientRead(shared, inflater) == Array(("{\"tick\":1} " + text.uppercased()).utf8))
    #expect(try clientRead(ws.send(.binary(own)), inflater) == own)
  }

  @Test func fanOutPicksTheLargestWindowThatFits() throws {
    let broadcast = EncodedMessage(.text(text), compressionWindows: [8, 10, 15])
    #expect(broadcast.compressedFrames.map(\.windowBits) == [8, 10, 15])
    #expect(broadcast.compressedFrame(forWindowBits: 12) == broadcast.compressedFrames[1].frame)
    #expect(broadcast.compressedFrame(forWindowBits: 9) == broadcast.compressedFrames[0].frame)
    var small = settings
    small.serverMaxWindowBits = 9
    let ws = machine(deflate: small)
    #expect(ws.fanOutWindowBits == 9)
    let actions = ws.send(broadcast)
    #expect(actions == [.write(broadcast.compressedFrames[0].frame)])
    // Every variant stands alone: a fresh inflater reads it.
    for variant in broadcast.compressedFrames {
      #expect(try clientRead([.write(variant.frame)], Inflater()) == Array(text.utf8))
    }
    let reused = FanOutEncoder()
    let one = reused.encode(.text(text), windows: [15])
    let two = reused.encode(.text(text), windows: [15])
    #expect(one.compressedFrames[0].frame == two.compressedFrames[0].frame)
  }
}
