// Throughput of the pure WebSocket layer, without sockets: frames decoded and answered per
// second on one core. Built and run by run_bench.sh; not part of the package.
import Deflate
import Foundation
import HTTP
import WebSocket

func seconds(_ body: () -> Void) -> Double {
  var start = timespec()
  var end = timespec()
  clock_gettime(CLOCK_MONOTONIC, &start)
  body()
  clock_gettime(CLOCK_MONOTONIC, &end)
  return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], rsv1: Bool = false) -> [UInt8] {
  WebSocketFrame.encode(
    opcode, payload: payload, rsv1: rsv1, mask: WebSocketMask(0x37, 0xFA, 0x21, 0x3D))
}

func report(_ name: String, count: Int, bytes: Int, time: Double) {
  let rate = Double(count) / time
  let megabytes = Double(bytes) / time / 1e6
  print(String(format: "%-58@ %10.0f /s %9.1f MB/s", name as NSString, rate, megabytes))
}

/// Echo: decode a client message and encode the reply, `count` times, fed `batch` frames per read.
func echo(
  _ name: String, payload: [UInt8], text: Bool, deflate: PerMessageDeflateParameters?, count: Int,
  batch: Int
) {
  let machine = WebSocketStateMachine(deflate: deflate, now: .zero)
  let opcode: WebSocketOpcode = text ? .text : .binary
  var frames: [UInt8] = []
  if deflate != nil {
    let client = try! Deflater()
    for _ in 0..<batch {
      frames += clientFrame(opcode, try! client.compressMessage(payload), rsv1: true)
    }
  } else {
    for _ in 0..<batch { frames += clientFrame(opcode, payload) }
  }
  var written = 0
  let time = seconds {
    for _ in 0..<(count / batch) {
      for action in machine.receive(frames, now: .zero) {
        if case .deliver(let message) = action {
          for reply in machine.send(message) {
            if case .write(let bytes) = reply { written += bytes.count }
          }
        }
      }
    }
  }
  precondition(written > 0)
  report(name, count: count, bytes: count * payload.count, time: time)
}

let json = Array(
  String(
    repeating: "{\"type\":\"frame\",\"tick\":1234,\"balls\":[{\"x\":12.5,\"y\":40.25,\"vx\":1.5}]}",
    count: 30
  ).utf8)
let small = Array("{\"type\":\"tilt\",\"x\":0.25,\"y\":-0.5}".utf8)
print("WebSocket layer, one core, release build")
echo(
  "echo 34 B text, 1 frame per read", payload: small, text: true, deflate: nil, count: 1_000_000,
  batch: 1)
echo(
  "echo 34 B text, 16 frames per read", payload: small, text: true, deflate: nil, count: 1_000_000,
  batch: 16)
echo("echo 2 KiB JSON text", payload: json, text: true, deflate: nil, count: 300_000, batch: 1)
echo(
  "echo 64 KiB binary", payload: [UInt8](repeating: 7, count: 65536), text: false, deflate: nil,
  count: 20_000, batch: 1)
echo(
  "echo 1 MiB text (UTF-8 validated)", payload: [UInt8](repeating: 0x61, count: 1 << 20),
  text: true, deflate: nil, count: 500, batch: 1)
echo(
  "echo 34 B text, permessage-deflate", payload: small, text: true,
  deflate: PerMessageDeflateParameters(), count: 200_000, batch: 1)
echo(
  "echo 2 KiB JSON, permessage-deflate", payload: json, text: true,
  deflate: PerMessageDeflateParameters(), count: 50_000, batch: 1)

// Fan-out: one 2 KiB frame encoded once (plain + fresh-context deflate), sent to 200 peers.
let peers = (0..<200).map { index in
  WebSocketStateMachine(deflate: index % 2 == 0 ? PerMessageDeflateParameters() : nil, now: .zero)
}
let encoder = FanOutEncoder()
let ticks = 3000
var sent = 0
var encodeTime = 0.0
let fanOut = seconds {
  for tick in 0..<ticks {
    var message = json
    message[20] = UInt8(0x30 + tick % 10)
    var encoded: EncodedMessage?
    encodeTime += seconds {
      encoded = encoder.encode(.text(String(decoding: message, as: UTF8.self)), windows: [15])
    }
    for peer in peers {
      for case .write(let bytes) in peer.send(encoded!) { sent += bytes.count }
    }
  }
}
report(
  "fan-out: 2 KiB frame encoded once, 200 peers (frames)", count: ticks * peers.count, bytes: sent,
  time: fanOut)
report(
  "fan-out: encode plain + deflate once per tick", count: ticks, bytes: ticks * json.count,
  time: encodeTime)
