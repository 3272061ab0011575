// A throwaway blocking echo server over the pure WebSocket layer, one thread per connection,
// so that ws_conformance.py can check the layer end to end before the real Server exists.
// Built and run by run_local_echo.sh; not part of the package.
import Foundation
import HTTP
import WebSocket

#if canImport(Glibc)
  import Glibc
#endif

func now() -> MonotonicTime {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return MonotonicTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeBytes {
      send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
    }
    if n <= 0 { return false }
    offset += n
  }
  return true
}

func parseHead(_ head: [UInt8]) -> Request? {
  let text = String(decoding: head, as: UTF8.self)
  var lines = text.components(separatedBy: "\r\n")
  let parts = lines.removeFirst().split(separator: " ")
  guard parts.count == 3 else { return nil }
  let version: HTTPVersion = parts[2] == "HTTP/1.0" ? .http1_0 : .http1_1
  var headers = HTTPHeaders()
  for line in lines where !line.isEmpty {
    guard let colon = line.firstIndex(of: ":") else { return nil }
    headers.add(
      String(line[..<colon]),
      String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
  }
  return Request(
    method: HTTPMethod(String(parts[0])), target: String(parts[1]), version: version,
    headers: headers)
}

func serialize(_ response: Response) -> [UInt8] {
  var text = "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n"
  for field in response.headers { text += "\(field.name): \(field.value)\r\n" }
  if response.status.code != 101 {
    text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n"
  }
  return Array((text + "\r\n").utf8) + response.body
}

func serve(_ fd: Int32) {
  defer { close(fd) }
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  var pending: [UInt8] = []
  while true {
    let n = recv(fd, &buffer, buffer.count, 0)
    if n <= 0 { return }
    pending += buffer[..<n]
    if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
      let head = Array(pending[..<end.lowerBound])
      pending = Array(pending[end.upperBound...])
      guard let request = parseHead(head) else { return }
      let options = WebSocketHandshake.Options(subprotocols: .firstOffered)
      switch WebSocketHandshake.evaluate(request, options: options) {
      case .reject(let response):
        _ = writeAll(fd, serialize(response))
        return
      case .accept(let accepted):
        guard writeAll(fd, serialize(accepted.response)) else { return }
        run(fd, accepted.makeStateMachine(now: now()), pending, &buffer)
        return
      }
    }
  }
}

func run(_ fd: Int32, _ machine: WebSocketStateMachine, _ first: [UInt8], _ buffer: inout [UInt8]) {
  var actions = machine.receive(first, now: now())
  while true {
    var index = 0
    while index < actions.count {
      switch actions[index] {
      case .write(let bytes):
        if !writeAll(fd, bytes) { return }
      case .deliver(let message):
        actions += machine.send(message)
      case .closeConnection:
        // Half-close, then drain so that unread input does not turn into an RST.
        shutdown(fd, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
        return
      }
      index += 1
    }
    let n = recv(fd, &buffer, buffer.count, 0)
    actions = n <= 0 ? machine.peerClosedConnection() : machine.receive(buffer[..<n], now: now())
  }
}

let port = UInt16(CommandLine.arguments.dropFirst().first ?? "0") ?? 0
let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
var yes: Int32 = 1
setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = port.bigEndian
address.sin_addr.s_addr = inet_addr("127.0.0.1")
_ = withUnsafePointer(to: &address) {
  $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
  }
}
listen(listener, 128)
var length = socklen_t(MemoryLayout<sockaddr_in>.size)
_ = withUnsafeMutablePointer(to: &address) {
  $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
}
print("listening on ws://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/ws/echo")
fflush(stdout)
while true {
  let fd = accept(listener, nil, nil)
  if fd < 0 { continue }
  var one: Int32 = 1
  setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  Thread.detachNewThread { serve(fd) }
}
