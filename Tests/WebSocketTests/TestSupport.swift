import HTTP
import TestSupport
import Testing

@testable import WebSocket

let testMask = WebSocketMask(0x37, 0xFA, 0x21, 0x3D)

/// A frame as a client sends it: masked unless `mask` is nil; any opcode value and RSV bits.
func clientFrame(
  _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false,
  rsv3: Bool = false, mask: WebSocketMask? = testMask
) -> [UInt8] {
  var bytes = FrameHeader(
    fin: fin, rsv1: rsv1, rsv2: rsv2, rsv3: rsv3, opcodeValue: opcode, mask: mask,
    payloadLength: UInt64(payload.count)
  ).encoded
  var body = payload
  if let mask { body.withUnsafeMutableBytes { mask.apply(to: $0) } }
  bytes += body
  return bytes
}

func clientFrame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
  clientFrame(opcode.rawValue, Array(text.utf8), fin: fin)
}

/// A frame the server wrote, decoded.
struct ServerFrame: Equatable, CustomStringConvertible {
  var opcode: UInt8
  var payload: [UInt8]
  var fin = true
  var rsv1 = false

  var description: String { "frame(\(opcode), \(payload.count) bytes, rsv1: \(rsv1))" }

  /// The close code in a close frame's payload.
  var closeCode: UInt16? {
    payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
  }
}

/// Splits written bytes into frames; server frames must never be masked.
func serverFrames(_ bytes: [UInt8]) -> [ServerFrame] {
  var frames: [ServerFrame] = []
  var rest = bytes[...]
  while !rest.isEmpty {
    let parsed = rest.withUnsafeBytes { FrameHeader.parse($0) }
    guard case .header(let header, let length) = parsed else {
      Issue.record("truncated server frame")
      return frames
    }
    #expect(header.mask == nil, "server frames are never masked")
    let start = rest.startIndex + length
    let end = start + Int(header.payloadLength)
    frames.append(
      ServerFrame(
        opcode: header.opcodeValue, payload: Array(rest[start..<end]), fin: header.fin,
        rsv1: header.rsv1))
    rest = rest[end...]
  }
  return frames
}

/// A summary of actions that is easy to compare: writes become decoded frames.
enum Step: Equatable, CustomStringConvertible {
  case frame(ServerFrame)
  case message(WebSocketMessage)
  case close

  var description: String {
    switch self {
    case .frame(let frame): frame.description
    case .message(let message): "deliver(\(message.bytes.count) bytes)"
    case .close: "closeConnection"
    }
  }

  static func pong(_ payload: [UInt8]) -> Step {
    .frame(ServerFrame(opcode: 0xA, payload: payload))
  }

  static func closeFrame(_ code: UInt16) -> Step {
    .frame(ServerFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)]))
  }

  static func text(_ string: String) -> Step { .message(.text(string)) }
}

func steps(_ actions: [WebSocketAction]) -> [Step] {
  actions.flatMap { action -> [Step] in
    switch action {
    case .write(let bytes): serverFrames(bytes).map(Step.frame)
    case .deliver(let message): [.message(message)]
    case .closeConnection: [.close]
    }
  }
}

/// The close code the server sent before closing, if the actions end the connection.
func failureCode(_ actions: [WebSocketAction]) -> UInt16? {
  let all = steps(actions)
  guard all.last == .close else { return nil }
  for step in all.reversed() {
    if case .frame(let frame) = step, frame.opcode == 0x8 { return frame.closeCode }
  }
  return nil
}

func machine(
  deflate: PerMessageDeflateParameters? = nil,
  configuration: WebSocketConfiguration = WebSocketConfiguration()
) -> WebSocketStateMachine {
  WebSocketStateMachine(configuration: configuration, deflate: deflate, now: .zero)
}

let t0 = MonotonicTime.zero
