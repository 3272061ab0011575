import CPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few socket calls the server makes, each checked.
enum Socket {
  /// A non-blocking listening socket bound to `host:port`, and the port it got.
  static func listen(host: String, port: Int, backlog: Int32) throws -> (fd: Int32, port: Int) {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let info = list else {
      throw SocketError("getaddrinfo(\(host)): \(String(cString: gai_strerror(status)))", code: 0)
    }
    defer { freeaddrinfo(list) }

    let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
    guard fd >= 0 else { throw SocketError("socket") }
    do {
      try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
      try setFlags(fd)
      guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
        throw SocketError("bind(\(host):\(port))")
      }
      guard systemListen(fd, backlog) == 0 else { throw SocketError("listen") }
      return (fd, try localPort(fd))
    } catch {
      close(fd)
      throw error
    }
  }

  static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws {
    var value = value
    guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
      throw SocketError("setsockopt(\(name))")
    }
  }

  /// Non-blocking and close-on-exec.
  static func setFlags(_ fd: Int32) throws {
    guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0,
      fcntl(fd, F_SETFD, FD_CLOEXEC) == 0
    else { throw SocketError("fcntl") }
  }

  static func localPort(_ fd: Int32) throws -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw SocketError("getsockname") }
    return try address(of: storage).port
  }

  /// A NUL-terminated C string held in an array.
  static func string(_ chars: [CChar]) -> String {
    String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The peer's address as text and port.
  static func peerAddress(_ fd: Int32) -> (host: String, port: Int)? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
    }
    guard result == 0 else { return nil }
    return try? address(of: storage)
  }

  static func address(of storage: sockaddr_storage) throws -> (host: String, port: Int) {
    var storage = storage
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
          var address = sin.pointee.sin_addr
          inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
          return (Self.string(text), Int(UInt16(bigEndian: sin.pointee.sin_port)))
        }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin in
          var address = sin.pointee.sin6_addr
          inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
          return (Self.string(text), Int(UInt16(bigEndian: sin.pointee.sin6_port)))
        }
      }
    default:
      throw SocketError("address family \(storage.ss_family)", code: EAFNOSUPPORT)
    }
  }
}

// NB: `listen` is shadowed inside `Socket` by our own `listen(host:port:backlog:)`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
  listen(fd, backlog)
}
