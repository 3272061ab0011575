import Deflate
import HTTP
import Testing

@testable import WebSocket

@Suite struct StateMachineTests {
  @Test func textAndBinaryMessagesAreDelivered() {
    let ws = machine()
    #expect(steps(ws.receive(clientFrame(.text, "Hello"), now: t0)) == [.text("Hello")])
    let binary = clientFrame(0x2, [0, 1, 2, 255])
    #expect(steps(ws.receive(binary, now: t0)) == [.message(.binary([0, 1, 2, 255]))])
    #expect(steps(ws.receive(clientFrame(.text, ""), now: t0)) == [.text("")])
    #expect(ws.isOpen)
  }

  @Test func pingGetsPongWithTheSamePayload() {
    let ws = machine()
    #expect(steps(ws.receive(clientFrame(0x9, [1, 2, 3]), now: t0)) == [.pong([1, 2, 3])])
    #expect(steps(ws.receive(clientFrame(0x9, []), now: t0)) == [.pong([])])
    let long = [UInt8](repeating: 0xAB, count: 125)
    #expect(steps(ws.receive(clientFrame(0x9, long), now: t0)) == [.pong(long)])
  }

  @Test func unsolicitedPongsAreIgnored() {
    let ws = machine()
    #expect(ws.receive(clientFrame(0xA, Array("who asked".utf8)), now: t0).isEmpty)
    #expect(ws.receive(clientFrame(0xA, []), now: t0).isEmpty)
    #expect(ws.isOpen)
  }

  /// Autobahn 5.6-5.8: control frames between fragments are answered at once, in order.
  @Test func fragmentFragmentPingFragment() {
    let ws = machine()
    #expect(ws.receive(clientFrame(.text, "frag1 ", fin: false), now: t0).isEmpty)
    #expect(ws.receive(clientFrame(.continuation, "frag2 ", fin: false), now: t0).isEmpty)
    #expect(steps(ws.receive(clientFrame(0x9, [7]), now: t0)) == [.pong([7])])
    #expect(
      steps(ws.receive(clientFrame(.continuation, "frag3"), now: t0)) == [
        .text("frag1 frag2 frag3")
      ])
  }

  @Test func oneReadWithManyFramesKeepsTheirOrder() {
    let ws = machine()
    let bytes =
      clientFrame(.text, "a", fin: false) + clientFrame(0x9, [1]) + clientFrame(.continuation, "b")
      + clientFrame(0x9, [2]) + clientFrame(.text, "c")
    #expect(steps(ws.receive(bytes, now: t0)) == [.pong([1]), .text("ab"), .pong([2]), .text("c")])
  }

  @Test func fragmentedBinaryWithEmptyFragments() {
    let ws = machine()
    _ = ws.receive(clientFrame(0x2, [], fin: false), now: t0)
    _ = ws.receive(clientFrame(0x0, [1, 2], fin: false), now: t0)
    _ = ws.receive(clientFrame(0x0, [], fin: false), now: t0)
    #expect(steps(ws.receive(clientFrame(0x0, [3]), now: t0)) == [.message(.binary([1, 2, 3]))])
  }

  // MARK: Close handshake

  @Test func peerCloseIsEchoedAndTheServerClosesTCP() {
    let ws = machine()
    let close = clientFrame(0x8, WebSocketFrame.closePayload(code: .normal, reason: "bye"))
    #expect(steps(ws.receive(close, now: t0)) == [.closeFrame(1000), .close])
    #expect(ws.closeCode == .normal)
    #expect(ws.closeReason == "bye")
    #expect(!ws.isOpen)
    #expect(ws.phase == .closed)
  }

  /// Autobahn 7.3.1: an empty close is answered with an empty close.
  @Test func emptyCloseGetsAnEmptyClose() {
    let ws = machine()
    #expect(
      steps(ws.receive(clientFrame(0x8, []), now: t0))
        == [.frame(ServerFrame(opcode: 0x8, payload: [])), .close])
    #expect(ws.closeCode == .noStatusReceived)
  }

  /// Autobahn 7.7: every valid code is echoed.
  @Test(
    arguments: [
      1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
      4999,
    ] as [UInt16])
  func validCloseCodesAreEchoed(code: UInt16) {
    let ws = machine()
    let payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("reason".utf8)
    #expect(steps(ws.receive(clientFrame(0x8, payload), now: t0)) == [.closeFrame(code), .close])
  }

  /// Autobahn 7.9 and 7.13: invalid codes fail with 1002.
  @Test(
    arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
  func invalidCloseCodesFailWith1002(code: UInt16) {
    let ws = machine()
    let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
    #expect(failureCode(ws.receive(clientFrame(0x8, payload), now: t0)) == 1002)
  }

  @Test func malformedClosePayloads() {
    #expect(failureCode(machine().receive(clientFrame(0x8, [0x03]), now: t0)) == 1002)
    let badReason: [UInt8] = [0x03, 0xE8, 0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xED, 0xA0, 0x80]
    #expect(failureCode(machine().receive(clientFrame(0x8, badReason), now: t0)) == 1007)
    let tooLong: [UInt8] = [0x03, 0xE8] + [UInt8](repeating: 0x2A, count: 124)
    #expect(failureCode(machine().receive(clientFrame(0x8, tooLong), now: t0)) == 1002)
    let longest: [UInt8] = [0x03, 0xE8] + [UInt8](repeating: 0x2A, count: 123)
    #expect(failureCode(machine().receive(clientFrame(0x8, longest), now: t0)) == 1000)
  }

  /// Autobahn 7.1.2-7.1.5: after the close frame nothing is answered or delivered.
  @Test func inputAfterThePeersCloseIsIgnored() {
    let ws = machine()
    let bytes =
      clientFrame(.text, "part", fin: false) + clientFrame(0x8, [0x03, 0xE8])
      + clientFrame(0x9, [1]) + clientFrame(.continuation, "rest") + clientFrame(0x8, [0x03, 0xE8])
    #expect(steps(ws.receive(bytes, now: t0)) == [.closeFrame(1000), .close])
    #expect(ws.receive(clientFrame(.text, "late"), now: t0).isEmpty)
    #expect(ws.send(.text("late")).isEmpty)
    #expect(ws.peerClosedConnection().isEmpty)
  }

  @Test func serverInitiatedCloseWaitsForThePeer() {
    let ws = machine()
    let start = MonotonicTime(nanoseconds: 1_000)
    #expect(steps(ws.close(code: .goingAway, reason: "shutdown", now: start)).count == 1)
    #expect(!ws.isOpen)
    #expect(ws.send(.text("no")).isEmpty)
    #expect(ws.close(now: start).isEmpty)
    // Data and pings after our close are not delivered or answered.
    #expect(ws.receive(clientFrame(.text, "x") + clientFrame(0x9, [1]), now: start).isEmpty)
    #expect(steps(ws.receive(clientFrame(0x8, [0x03, 0xE9]), now: start)) == [.close])
    #expect(ws.phase == .closed)
    #expect(ws.closeCode == .goingAway)
  }

  @Test func closeHandshakeTimesOut() {
    let ws = machine()
    _ = ws.close(now: t0)
    let deadline = t0 + ws.configuration.closeTimeout
    #expect(ws.nextDeadline == deadline)
    #expect(ws.tick(now: t0 + .seconds(1)).isEmpty)
    #expect(steps(ws.tick(now: deadline)) == [.close])
    #expect(ws.tick(now: deadline + .seconds(1)).isEmpty)
    #expect(ws.nextDeadline == nil)
  }

  @Test func lingeringAfterTheCloseEndsAtItsDeadline() {
    let ws = machine()
    _ = ws.close(now: t0)
    #expect(steps(ws.receive(clientFrame(0x8, [0x03, 0xE8]), now: t0)) == [.close])
    #expect(ws.nextDeadline == nil)
    ws.writingShutDown(now: t0)
    let deadline = t0 + ws.configuration.lingerTimeout
    #expect(ws.nextDeadline == deadline)
    #expect(ws.tick(now: t0 + .milliseconds(1_999)).isEmpty)
    #expect(steps(ws.tick(now: deadline)) == [.close])
    #expect(ws.nextDeadline == nil && ws.tick(now: deadline + .seconds(9)).isEmpty)
  }

  @Test func noLingeringWhileOpen() {
    let ws = machine()
    ws.writingShutDown(now: t0)
    #expect(ws.nextDeadline == t0 + ws.configuration.pingInterval)
  }

  @Test func peerDroppingTCPEndsTheConnection() {
    let ws = machine()
    #expect(steps(ws.peerClosedConnection()) == [.close])
    #expect(ws.closeCode == .abnormalClosure)
    #expect(ws.peerClosedConnection().isEmpty)
  }

  @Test func closeReasonIsSentAndCut() throws {
    let ws = machine()
    let actions = ws.close(
      code: WebSocketCloseCode(4000), reason: String(repeating: "x", count: 300), now: t0)
    guard case .frame(let frame) = try #require(steps(actions).first) else {
      Issue.record("no frame")
      return
    }
    #expect(frame.opcode == 0x8 && frame.payload.count == 125 && frame.closeCode == 4000)
  }

  // MARK: Failures

  @Test func unmaskedFramesFailWith1002() {
    #expect(
      failureCode(machine().receive(clientFrame(0x1, Array("hi".utf8), mask: nil), now: t0)) == 1002
    )
    #expect(failureCode(machine().receive(clientFrame(0x9, [], mask: nil), now: t0)) == 1002)
  }

  /// Autobahn 3.x: reserved bits without an extension.
  @Test func reservedBitsFailWith1002() {
    let frames = [
      clientFrame(0x1, Array("a".utf8), rsv1: true), clientFrame(0x1, [], rsv2: true),
      clientFrame(0x2, [1], rsv1: true, rsv3: true), clientFrame(0x9, [], rsv2: true, rsv3: true),
      clientFrame(0x8, [0x03, 0xE8], rsv1: true, rsv2: true, rsv3: true),
    ]
    for frame in frames { #expect(failureCode(machine().receive(frame, now: t0)) == 1002) }
  }

  /// Autobahn 3.2: the echo of a good frame goes out before the failure.
  @Test func goodFrameBeforeABadOneIsStillDelivered() {
    let ws = machine()
    let actions = ws.receive(clientFrame(.text, "ok") + clientFrame(0x1, [], rsv2: true), now: t0)
    #expect(steps(actions).first == .text("ok"))
    #expect(failureCode(actions) == 1002)
  }

  /// Autobahn 4.x.
  @Test(arguments: [3, 4, 5, 6, 7, 11, 12, 13, 14, 15] as [UInt8])
  func reservedOpcodesFailWith1002(opcode: UInt8) {
    #expect(failureCode(machine().receive(clientFrame(opcode, [1, 2]), now: t0)) == 1002)
  }

  @Test func controlFrameRules() {
    // Fragmented ping and pong (Autobahn 5.1, 5.2), and a ping over 125 bytes (2.5).
    #expect(failureCode(machine().receive(clientFrame(0x9, [1], fin: false), now: t0)) == 1002)
    #expect(failureCode(machine().receive(clientFrame(0xA, [1], fin: false), now: t0)) == 1002)
    let long = [UInt8](repeating: 0, count: 126)
    #expect(failureCode(machine().receive(clientFrame(0x9, long), now: t0)) == 1002)
  }

  /// Autobahn 5.9-5.18.
  @Test func fragmentationRules() {
    #expect(failureCode(machine().receive(clientFrame(.continuation, "x"), now: t0)) == 1002)
    #expect(
      failureCode(machine().receive(clientFrame(.continuation, "x", fin: false), now: t0)) == 1002)
    let twoStarts = clientFrame(.text, "a", fin: false) + clientFrame(.text, "b")
    #expect(failureCode(machine().receive(twoStarts, now: t0)) == 1002)
    let binaryInText = clientFrame(.text, "a", fin: false) + clientFrame(0x2, [1])
    #expect(failureCode(machine().receive(binaryInText, now: t0)) == 1002)
  }

  @Test func lengthWithTheTopBitSetFailsWith1002() {
    let bytes: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]
    #expect(failureCode(machine().receive(bytes, now: t0)) == 1002)
  }

  /// Autobahn 6.3: invalid UTF-8 in a whole message.
  @Test func invalidTextFailsWith1007() {
    let bytes: [UInt8] = [
      0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65,
      0x64, 0x69, 0x74, 0x65, 0x64,
    ]
    #expect(failureCode(machine().receive(clientFrame(0x1, bytes), now: t0)) == 1007)
    #expect(failureCode(machine().receive(clientFrame(0x1, [0xC2]), now: t0)) == 1007)
  }

  /// Autobahn 6.4.1-6.4.2: the fragment with the bad byte fails at once, before the message ends.
  @Test func invalidTextFailsFastAcrossFragments() {
    let ws = machine()
    #expect(ws.receive(clientFrame(0x1, Array("κόσμε".utf8), fin: false), now: t0).isEmpty)
    #expect(
      failureCode(ws.receive(clientFrame(0x0, [0xF4, 0x90, 0x80, 0x80], fin: false), now: t0))
        == 1007)
    let split = machine()
    #expect(split.receive(clientFrame(0x1, [0xCE, 0xBA, 0xF4], fin: false), now: t0).isEmpty)
    #expect(failureCode(split.receive(clientFrame(0x0, [0x90], fin: false), now: t0)) == 1007)
  }

  /// Autobahn 6.4.3-6.4.4: the bad byte fails at once even in the middle of one frame.
  @Test func invalidTextFailsFastInsideAFrame() {
    let payload = Array("κόσμε".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("edited".utf8)
    let frame = clientFrame(0x1, payload)
    let ws = machine()
    let firstChop = 2 + 4 + Array("κόσμε".utf8).count
    #expect(ws.receive(frame[..<firstChop], now: t0).isEmpty)
    #expect(ws.receive(frame[firstChop..<firstChop + 1], now: t0).isEmpty)
    #expect(failureCode(ws.receive(frame[(firstChop + 1)..<(firstChop + 2)], now: t0)) == 1007)
    #expect(ws.receive(frame[(firstChop + 2)...], now: t0).isEmpty)
  }

  @Test func messageAndFrameLimitsFailWith1009() {
    let config = WebSocketConfiguration(maxMessageSize: 100, maxFrameSize: 60)
    let atLimit = machine(configuration: config)
    let fifty = [UInt8](repeating: 0x61, count: 50)
    _ = atLimit.receive(clientFrame(0x1, fifty, fin: false), now: t0)
    #expect(
      steps(atLimit.receive(clientFrame(0x0, fifty), now: t0)) == [
        .text(String(repeating: "a", count: 100))
      ])
    let overMessage = machine(configuration: config)
    _ = overMessage.receive(clientFrame(0x1, fifty, fin: false), now: t0)
    #expect(failureCode(overMessage.receive(clientFrame(0x0, fifty + [0x61]), now: t0)) == 1009)
    let overFrame = [UInt8](repeating: 0, count: 61)
    #expect(
      failureCode(machine(configuration: config).receive(clientFrame(0x2, overFrame), now: t0))
        == 1009)
  }

  /// The limit fails at the header, before the payload has arrived.
  @Test func oversizedFrameFailsAtItsHeader() {
    let header = FrameHeader(opcodeValue: 0x2, mask: testMask, payloadLength: 2 << 20).encoded
    #expect(failureCode(machine().receive(header, now: t0)) == 1009)
  }

  // MARK: Keepalive

  @Test func idleConnectionIsPingedAndDroppedWithoutAPong() throws {
    let config = WebSocketConfiguration(pingInterval: .seconds(10), pongTimeout: .seconds(5))
    let ws = machine(configuration: config)
    #expect(ws.nextDeadline == t0 + .seconds(10))
    #expect(ws.tick(now: t0 + .seconds(9)).isEmpty)
    let pingSteps = steps(ws.tick(now: t0 + .seconds(10)))
    guard case .frame(let ping) = try #require(pingSteps.first), pingSteps.count == 1 else {
      Issue.record("expected one ping")
      return
    }
    #expect(ping.opcode == 0x9 && !ping.payload.isEmpty)
    #expect(ws.tick(now: t0 + .seconds(12)).isEmpty)
    #expect(ws.nextDeadline == t0 + .seconds(15))
    #expect(failureCode(ws.tick(now: t0 + .seconds(15))) == 1011)
    #expect(!ws.isOpen)
  }

  @Test func pongClearsThePingAndTrafficPostponesTheNext() throws {
    let config = WebSocketConfiguration(pingInterval: .seconds(10), pongTimeout: .seconds(5))
    let ws = machine(configuration: config)
    let firstPing = steps(ws.tick(now: t0 + .seconds(10)))
    guard case .frame(let ping) = try #require(firstPing.first) else { return }
    // A pong with another payload does not count.
    _ = ws.receive(clientFrame(0xA, [9, 9]), now: t0 + .seconds(11))
    #expect(ws.nextDeadline == t0 + .seconds(15))
    _ = ws.receive(clientFrame(0xA, ping.payload), now: t0 + .seconds(12))
    #expect(ws.nextDeadline == t0 + .seconds(22))
    #expect(ws.tick(now: t0 + .seconds(16)).isEmpty)
    _ = ws.receive(clientFrame(.text, "still here"), now: t0 + .seconds(20))
    #expect(ws.tick(now: t0 + .seconds(29)).isEmpty)
    #expect(steps(ws.tick(now: t0 + .seconds(30))).count == 1)
    #expect(ws.isOpen)
  }

  // MARK: Slow senders

  /// A frame trickled a byte at a time fails with 1008 once its grace has passed, however
  /// often a byte comes (each byte used to count as traffic and keep it open for ever).
  @Test func aTrickledFrameFailsAtItsDeadline() {
    let config = WebSocketConfiguration(pingInterval: .seconds(60), receiveGrace: .seconds(10))
    let ws = machine(configuration: config)
    let frame = clientFrame(.text, "hello")
    for (index, byte) in frame.prefix(3).enumerated() {
      let now = t0 + .seconds(2 * index)
      #expect(ws.receive([byte], now: now).isEmpty)
      #expect(ws.tick(now: now).isEmpty)
    }
    #expect(ws.nextDeadline == t0 + .seconds(10))
    #expect(ws.tick(now: t0 + .milliseconds(9_999)).isEmpty)
    #expect(failureCode(ws.tick(now: t0 + .seconds(10))) == 1008)
    #expect(ws.closeReason == "message too slow")
  }

  /// A message sent as many tiny fragments, each whole, is one message with one deadline.
  @Test func aMessageTrickledAsTinyFragmentsFails() {
    let config = WebSocketConfiguration(pingInterval: .seconds(60), receiveGrace: .seconds(10))
    let ws = machine(configuration: config)
    _ = ws.receive(clientFrame(.text, "a", fin: false), now: t0)
    for second in stride(from: 2, through: 8, by: 2) {
      _ = ws.receive(clientFrame(.continuation, "b", fin: false), now: t0 + .seconds(second))
    }
    #expect(ws.isOpen)
    #expect(failureCode(ws.tick(now: t0 + .seconds(11))) == 1008)
  }

  /// Whole messages, however far apart, and a big payload at the minimum rate are fine: the
  /// deadline grows by the declared payload's time and is gone between messages.
  @Test func timelyMessagesKeepTheConnection() {
    let config = WebSocketConfiguration(
      pingInterval: .seconds(600), receiveGrace: .seconds(10), minimumReceiveRate: 1_000)
    let ws = machine(configuration: config)
    for second in stride(from: 0, through: 60, by: 15) {
      let message = steps(ws.receive(clientFrame(.text, "tick"), now: t0 + .seconds(second)))
      #expect(message == [.message(.text("tick"))])
      #expect(ws.nextDeadline == t0 + .seconds(second + 600))
    }
    let big = clientFrame(0x2, [UInt8](repeating: 1, count: 20_000))
    let start = t0 + .seconds(100)
    _ = ws.receive(big.prefix(10_000), now: start)
    #expect(ws.nextDeadline == start + .seconds(30))  // 10 s grace + 20,000 bytes at 1,000/s
    #expect(ws.tick(now: start + .seconds(29)).isEmpty)
    let rest = steps(ws.receive(big.dropFirst(10_000), now: start + .seconds(29)))
    #expect(rest == [.message(.binary([UInt8](repeating: 1, count: 20_000)))])
    #expect(ws.tick(now: start + .seconds(31)).isEmpty && ws.isOpen)
  }

  // MARK: Sending

  @Test func sendWritesUnmaskedFrames() {
    let ws = machine()
    #expect(
      steps(ws.send(.text("hi"))) == [.frame(ServerFrame(opcode: 0x1, payload: Array("hi".utf8)))])
    let big = [UInt8](repeating: 7, count: 70_000)
    #expect(steps(ws.send(.binary(big))) == [.frame(ServerFrame(opcode: 0x2, payload: big))])
  }

  @Test func preEncodedMessageWithoutDeflateIsThePlainFrame() {
    let encoded = EncodedMessage(.text("tick"), compressionWindows: [15])
    let ws = machine()
    #expect(ws.send(encoded) == [.write(encoded.plainFrame)])
    _ = ws.close(now: t0)
    #expect(ws.send(encoded).isEmpty)
  }
}
