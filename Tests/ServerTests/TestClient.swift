import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking TCP client for tests: sends raw bytes, reads whole responses.
final class TestClient {
  struct Reply {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private(set) var fd: Int32
  private var buffer: [UInt8] = []

  /// `source`: the local address to connect from (another 127.0.0.x is another client).
  init(port: Int, receiveBuffer: Int32? = nil, source: String? = nil) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket failed") }
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    if let source, Self.call(fd, source, port: 0, bind) != 0 {
      close(fd)
      throw Failure(description: "bind to \(source) failed: \(errno)")
    }
    guard Self.call(fd, "127.0.0.1", port: port, connect) == 0 else {
      close(fd)
      throw Failure(description: "connect failed: \(errno)")
    }
  }

  /// Calls `bind` or `connect` on `fd` with the IPv4 `address` and `port`.
  private static func call(
    _ fd: Int32, _ address: String, port: Int,
    _ function: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
    socketAddress.sin_addr.s_addr = inet_addr(address)
    return withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Ends the connection with a reset (SO_LINGER of zero, then close).
  func reset() {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    close(fd)
    fd = -1
  }

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { systemSend(fd, $0) }
      guard count > 0 else { throw Failure(description: "send failed: \(errno)") }
      sent += count
    }
  }

  /// Waits until the server's side has taken everything sent (nothing left unacknowledged in
  /// the send queue: on loopback, it is in the server's receive buffer). False after `seconds`.
  func waitUntilReceived(seconds: Double = 10) -> Bool {
    let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + seconds
    repeat {
      var unsent: Int32 = 0
      // NB: TIOCOUTQ (SIOCOUTQ) counts the bytes not yet acknowledged by the peer.
      guard ioctl(fd, UInt(TIOCOUTQ), &unsent) == 0 else { return false }
      if unsent == 0 { return true }
      usleep(1000)
    } while Double(DispatchTime.now().uptimeNanoseconds) / 1e9 < deadline
    return false
  }

  /// Reads more bytes; false at end of file. Throws when nothing arrives in `seconds`.
  private func fill(seconds: Double) throws -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else {
      throw Failure(description: "nothing arrived in \(seconds) s")
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(fd, &chunk, chunk.count, 0)
    guard count > 0 else { return false }
    buffer += chunk[..<count]
    return true
  }

  /// Whether the server closes the connection within `seconds` (a reset counts as closed).
  func isClosed(within seconds: Double) -> Bool {
    do {
      while try fill(seconds: seconds) { buffer.removeAll() }
      return true
    } catch {
      return false
    }
  }

  private func line(seconds: Double) throws -> String {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = buffer[..<newline]
        buffer.removeFirst(newline + 1)
        return String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
      }
      guard try fill(seconds: seconds) else { throw Failure(description: "closed mid-line") }
    }
  }

  /// Reads one response (interim ones too); the body is read by Content-Length unless `head`.
  func read(head: Bool = false, seconds: Double = 5) throws -> Reply {
    let status = try line(seconds: seconds)
    let parts = status.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
      throw Failure(description: "bad status line \(status)")
    }
    var headers: [(String, String)] = []
    while true {
      let field = try line(seconds: seconds)
      if field.isEmpty { break }
      guard let colon = field.firstIndex(of: ":") else {
        throw Failure(description: "bad field \(field)")
      }
      headers.append(
        (String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters()))
    }
    var reply = Reply(status: code, headers: headers, body: [])
    guard !head, code >= 200, code != 204, code != 304 else { return reply }
    let length = Int(reply.header("Content-Length") ?? "0") ?? 0
    while buffer.count < length {
      guard try fill(seconds: seconds) else { throw Failure(description: "closed mid-body") }
    }
    reply.body = Array(buffer[..<length])
    buffer.removeFirst(length)
    return reply
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
  #if canImport(Glibc)
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
  #else
    send(fd, bytes.baseAddress, bytes.count, 0)
  #endif
}
