import CPosix
import HTTP
import Logging
import WebSocket

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One accepted TCP connection speaking HTTP/1.1: the socket side of
/// `HTTPConnectionStateMachine`. Confined to its event loop's thread.
final class HTTPChannel: Channel, @unchecked Sendable {
  let fd: Int32
  let loop: EventLoop
  let server: ServerCore
  let context: RequestContext
  private var machine: HTTPConnectionStateMachine
  private var output = OutputQueue()
  private var interest: PollEvents = .readable
  private var closeAfterWrite: Bool?
  private var lingering = false
  private var closed = false
  /// Set once the connection has become another protocol.
  private var upgraded: Channel?
  /// The WebSocket waiting for its 101 to go out.
  private var pendingUpgrade: (WebSocketHandshake.Accepted, any WebSocketHandler, Request)?

  init(fd: Int32, loop: EventLoop, server: ServerCore, now: MonotonicTime) {
    self.fd = fd
    self.loop = loop
    self.server = server
    let peer = Socket.peerAddress(fd)
    self.context = RequestContext(
      remoteAddress: peer?.host ?? "unknown", serverAddress: server.address)
    self.machine = HTTPConnectionStateMachine(configuration: server.configuration.http, now: now)
  }

  // MARK: Events

  func ready(_ events: PollEvents) {
    if let upgraded {
      upgraded.ready(events)
      return
    }
    if events.contains(.writable) { flush() }
    if events.contains(.readable) || events.contains(.hangup) { readAvailable() }
  }

  func checkTimers(now: MonotonicTime) {
    if let upgraded {
      upgraded.checkTimers(now: now)
      return
    }
    guard !closed, now >= machine.deadline else { return }
    perform(machine.timerFired(now: now))
  }

  func beginShutdown() {
    if let upgraded {
      upgraded.beginShutdown()
      return
    }
    if machine.isIdle || lingering { close() }
    // A request in flight finishes, then `ServerCore.isStopping` makes its response the last.
  }

  private func readAvailable() {
    var rounds = 0
    while !closed && rounds < 4 {
      rounds += 1
      let count = read(fd, loop.readBuffer.baseAddress, loop.readBuffer.count)
      if count > 0 {
        if lingering { continue }
        let now = MonotonicTime.now()
        perform(
          machine.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]), now: now))
        if upgraded != nil || count < loop.readBuffer.count { return }
      } else if count == 0 {
        if lingering {
          close()
        } else {
          perform(machine.peerClosed(now: MonotonicTime.now()))
        }
        return
      } else {
        let error = errno
        if error == EINTR { continue }
        if error != EAGAIN && error != EWOULDBLOCK { close() }
        return
      }
    }
  }

  // MARK: Actions

  private func perform(_ actions: [HTTPConnectionStateMachine.Action]) {
    for action in actions {
      guard !closed else { return }
      switch action {
      case .dispatch(let request):
        dispatch(request)
      case .send(let response, let omitBody):
        send(response, omitBody: omitBody)
      case .sendRaw(let bytes):
        output.append(bytes)
        flush()
      case .pauseReading:
        setInterest(interest.subtracting(.readable))
      case .resumeReading:
        setInterest(interest.union(.readable))
      case .close(let linger):
        if output.isEmpty {
          finish(linger: linger)
        } else {
          closeAfterWrite = linger
        }
      case .upgrade(let leftover):
        upgrade(leftover: leftover)
      }
    }
  }

  private func dispatch(_ request: Request) {
    let reply = server.handler.handle(request, context: context)
    switch reply {
    case .response(let response):
      respond(response)
    case .later(let pending):
      pending.whenDone { [loop] response in
        loop.execute { self.respond(response) }
      }
    case .webSocket(let accepted, let handler):
      pendingUpgrade = (accepted, handler, request)
      respond(accepted.response)
    }
  }

  private func respond(_ response: Response) {
    guard !closed else { return }
    var response = response
    if server.isStopping && response.status != .switchingProtocols {
      response.headers.set("Connection", "close")
    }
    perform(machine.respond(response, now: MonotonicTime.now()))
  }

  private func send(_ response: Response, omitBody: Bool) {
    let head = ResponseSerializer.head(response, date: loop.date)
    if omitBody || response.body.isEmpty {
      output.append(head)
    } else if response.body.count <= 64 * 1024 {
      var joined = head
      joined.append(contentsOf: response.body)
      output.append(joined)
    } else {
      output.append(head)
      output.append(response.body)
    }
    flush()
  }

  private func upgrade(leftover: [UInt8]) {
    guard let (accepted, handler, request) = pendingUpgrade else {
      close()
      return
    }
    pendingUpgrade = nil
    let channel = WebSocketChannel(
      from: self, accepted: accepted, handler: handler, request: request, output: output,
      now: MonotonicTime.now())
    output = OutputQueue()
    upgraded = channel
    loop.replace(self, with: channel)
    channel.start(leftover: leftover)
  }

  // MARK: Writing

  func flush() {
    guard !closed else { return }
    switch output.write(to: fd) {
    case .done:
      if interest.contains(.writable) { setInterest(interest.subtracting(.writable)) }
      if let linger = closeAfterWrite {
        closeAfterWrite = nil
        finish(linger: linger)
      }
    case .wouldBlock:
      if !interest.contains(.writable) { setInterest(interest.union(.writable)) }
    case .failed:
      close()
    }
  }

  func setInterest(_ events: PollEvents) {
    guard !closed, events != interest else { return }
    interest = events
    loop.modify(self, events: events)
  }

  /// Closes now, or shuts down writing and drains input until the peer closes or time runs out.
  private func finish(linger: Bool) {
    guard linger else {
      close()
      return
    }
    lingering = true
    shutdown(fd, Int32(SHUT_WR))
    setInterest(.readable)
  }

  func close() {
    guard !closed else { return }
    closed = true
    loop.deregister(self)
    Glibc_close(fd)
    server.connectionClosed()
  }
}

private func Glibc_close(_ fd: Int32) {
  _ = close(fd)
}
