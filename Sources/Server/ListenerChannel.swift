import CPosix
import HTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The listening socket as seen by one event loop. Every loop watches it (only one is woken per
/// connection); whichever accepts hands the connection to the loop with the fewest, so that
/// keep-alive connections, which stay where they land, are spread evenly over the threads.
final class ListenerChannel: Channel, @unchecked Sendable {
  let fd: Int32
  let loop: EventLoop
  let server: ServerCore
  private var pausedUntil: MonotonicTime?

  /// Sent, then the socket closed, when the server is at its connection limit.
  static let busyResponse = refusal("503 Service Unavailable: too many connections")
  /// Sent, then the socket closed, when the peer's address group holds its most connections.
  static let addressBusyResponse = refusal(
    "503 Service Unavailable: too many connections from your address")

  private static func refusal(_ text: String) -> [UInt8] {
    Array(
      ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: \(text.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        + text).utf8)
  }

  static let events: PollEvents = [.readable, .exclusive]

  init(fd: Int32, loop: EventLoop, server: ServerCore) {
    self.fd = fd
    self.loop = loop
    self.server = server
  }

  func ready(_ events: PollEvents) {
    for _ in 0..<64 {
      let client = cposix_accept(fd)
      guard client >= 0 else {
        let error = errno
        if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM {
          // Out of descriptors: stop accepting for a moment instead of spinning.
          // NB: a descriptor added with EPOLLEXCLUSIVE cannot be modified, only removed.
          server.logger.error("accept failed: \(SocketError("accept", code: error))")
          loop.unwatch(self)
          pausedUntil = MonotonicTime.now() + .milliseconds(200)
        }
        return
      }
      let peer = Socket.peerAddress(client)?.host ?? "unknown"
      let target = server.leastLoadedLoop() ?? loop
      let slot: ConnectionSlot
      do {
        slot = try server.connectionOpened(peer: peer, on: target, now: MonotonicTime.now())
      } catch {
        let response = error == .addressFull ? Self.addressBusyResponse : Self.busyResponse
        _ = response.withUnsafeBytes {
          send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
        close(client)
        continue
      }
      var one: Int32 = 1
      setsockopt(
        client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      target.connectionCount.add(1, ordering: .relaxed)
      if target === loop {
        Self.open(client, peer: peer, slot: slot, on: loop, server: server)
      } else {
        target.execute { [server] in
          Self.open(client, peer: peer, slot: slot, on: target, server: server)
        }
      }
    }
  }

  private static func open(
    _ client: Int32, peer: String, slot: ConnectionSlot, on loop: EventLoop, server: ServerCore
  ) {
    let channel = HTTPChannel(
      fd: client, peer: peer, slot: slot, loop: loop, server: server, now: MonotonicTime.now())
    slot.channel = channel
    loop.register(channel, events: .readable)
    // Handed over just as the server began to stop: this loop has already told its channels.
    if server.isStopping { channel.beginShutdown() }
  }

  func checkTimers(now: MonotonicTime) {
    if let until = pausedUntil, now >= until {
      pausedUntil = nil
      loop.watch(self, events: Self.events)
    }
  }

  func beginShutdown() {
    loop.deregister(self)
  }
}
