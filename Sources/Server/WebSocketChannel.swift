import CPosix
import HTTP
import WebSocket

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection after its upgrade: the socket side of `WebSocketStateMachine`. Confined to its
/// event loop's thread.
final class WebSocketChannel: EvictableChannel, BudgetedChannel, @unchecked Sendable {
  let fd: Int32
  /// The connection's place in the server's connection table.
  let slot: ConnectionSlot
  let loop: EventLoop
  let server: ServerCore
  let machine: WebSocketStateMachine
  let handler: any WebSocketHandler
  let socket: WebSocket
  /// What its group has read on its loop in this turn (the HTTP channel's).
  let account: ReadAccount
  private var output: OutputQueue
  /// The newest `latestOnly` frame, waiting for the queue to drain.
  private var latest: [UInt8]?
  private var interest: PollEvents = .readable
  /// The state machine asked for the TCP close; it happens once the queue drains.
  private var closeRequested = false
  /// Writing is shut down; reads are drained until EOF or until the machine says to close.
  private var lingering = false
  private var closed = false
  /// Of `output`, the bytes counted in the group's `slot.queued`.
  private var reportedQueued = 0
  /// What the machine made of bytes already read, from the first message its group's read
  /// budget had no room for in that turn: handled first in the next turn, and nothing more is
  /// read meanwhile (so at most one read's worth waits here).
  private var held: [WebSocketAction] = []
  /// Waiting for the loop's next turn (`EventLoop.owe`).
  private var owing = false

  /// Stop reading from a peer while this much is queued for it (it is not reading).
  static let pauseReadingAbove = 256 * 1024
  /// Fail a peer that lets this much pile up despite the pause (it sends, but never reads).
  static let maxQueued = 4 << 20
  /// The kernel's send buffer for a WebSocket, in bytes (Linux doubles it for bookkeeping).
  static let kernelSendBuffer: Int32 = 256 * 1024

  init(
    from http: HTTPChannel, accepted: WebSocketHandshake.Accepted, handler: any WebSocketHandler,
    request: Request, output: OutputQueue, now: MonotonicTime
  ) {
    self.fd = http.fd
    self.slot = http.slot
    self.loop = http.loop
    self.server = http.server
    self.account = http.account
    self.machine = accepted.makeStateMachine(now: now)
    self.handler = handler
    self.output = output
    self.socket = WebSocket(
      request: request, remoteAddress: http.context.remoteAddress,
      subprotocol: accepted.subprotocol, compressionWindowBits: machine.fanOutWindowBits,
      loop: http.loop)
    socket.channel = self
    slot.channel = self
    // NB: left alone, the kernel grows the send buffer to megabytes, which a stalled reader
    // fills with seconds of old frames before `latestOnly` ever sees a full queue. A bounded
    // buffer keeps a slow client's backlog to a few frames.
    var size = Self.kernelSendBuffer
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Opens the connection for the handler and reads what arrived with the upgrade.
  func start(leftover: [UInt8]) {
    handler.opened(socket)
    if !leftover.isEmpty && !closed {
      loop.chargeRead(account, bytes: leftover.count)
      perform(machine.receive(leftover, now: MonotonicTime.now()))
      if !held.isEmpty { owe() }
    }
    flush()
  }

  // MARK: Commands from the handle

  func send(_ message: WebSocketMessage) {
    releaseLatest()
    perform(machine.send(message))
    flush()
  }

  func send(_ encoded: EncodedMessage, latestOnly: Bool) {
    guard latestOnly, !output.isEmpty else {
      releaseLatest()
      perform(machine.send(encoded))
      flush()
      return
    }
    for case .write(let bytes) in machine.send(encoded) { latest = bytes }
  }

  /// Queues the parked latest-only frame before anything sent after it.
  ///
  /// NB: the wire order must be the state machine's order. A compressed message sent with
  /// context takeover assumes the peer's inflater saw exactly what the machine sent before it;
  /// a parked frame written later would slip into that history and corrupt what follows.
  private func releaseLatest() {
    if let frame = latest {
      latest = nil
      output.append(frame)
    }
  }

  func close(_ code: WebSocketCloseCode, reason: String) {
    guard code.isValidOnWire else { return }
    perform(machine.close(code: code, reason: reason, now: MonotonicTime.now()))
    flush()
  }

  // MARK: Channel

  func ready(_ events: PollEvents) {
    if events.contains(.writable) { flush() }
    if events.contains(.readable) || events.contains(.hangup) { readAvailable() }
  }

  func checkTimers(now: MonotonicTime) {
    guard !closed else { return }
    if let deadline = machine.nextDeadline, now >= deadline {
      perform(machine.tick(now: now))
      flush()
    }
  }

  func beginShutdown() {
    close(.goingAway, reason: "the server is shutting down")
  }

  /// Closed to make room for another address group's connection: the close frame says so
  /// (1013, try again later) and the socket closes without waiting for the peer's.
  func evict() {
    guard !closed else { return }
    if !lingering, machine.isOpen {
      perform(
        machine.close(
          code: .tryAgainLater, reason: "server full: too many connections from your address",
          now: MonotonicTime.now()))
      _ = output.write(to: fd)
    }
    _ = machine.peerClosedConnection()
    finalClose()
  }

  // MARK: Reading, within the group's budget

  func resumeReading() {
    owing = false
    guard !closed else { return }
    guard interest.contains(.readable) else {
      // Paused for a peer that does not read: only what was read already goes on.
      if !releaseHeld() { owe() }
      return flush()
    }
    readAvailable()
  }

  /// Handles the held actions within the budget; whether none is left.
  private func releaseHeld() -> Bool {
    guard !held.isEmpty else { return true }
    let actions = held
    held = []
    perform(actions)
    return held.isEmpty
  }

  /// Goes on in the loop's next turn.
  private func owe() {
    guard !owing, !closed else { return }
    owing = true
    loop.owe(self)
  }

  private func readAvailable() {
    guard releaseHeld() else {
      owe()
      return flush()
    }
    let outcome = SocketReader.read(
      fd, into: loop.readBuffer, while: { !closed && held.isEmpty },
      allowance: { loop.readAllowance(account) },
      deliver: { bytes in
        loop.chargeRead(account, bytes: bytes.count)
        // Lingering, what the peer still sends is drained and dropped.
        guard !lingering else { return }
        let now = MonotonicTime.now()
        slot.active(server, now: now)
        perform(machine.receive(bytes, now: now))
      })
    switch outcome {
    case .drained:
      break
    case .endOfFile where lingering:
      finalClose()
    case .endOfFile:
      perform(machine.peerClosedConnection())
    case .failed:
      _ = machine.peerClosedConnection()
      finalClose()
    }
    if !held.isEmpty || loop.readAllowance(account) == 0 { owe() }
    flush()
  }

  private func perform(_ actions: [WebSocketAction]) {
    for (index, action) in actions.enumerated() {
      guard !closed else { return }
      switch action {
      case .write(let bytes):
        output.append(bytes)
      case .deliver(let message):
        // Past the group's budget for this turn, this message and what follows it wait.
        guard held.isEmpty, loop.chargeMessage(account) else {
          held.append(contentsOf: actions[index...])
          return
        }
        handler.received(message, on: socket)
      case .closeConnection where lingering:
        finalClose()
      case .closeConnection:
        closeRequested = true
      }
    }
    if output.byteCount > Self.maxQueued && machine.isOpen {
      perform(
        machine.close(code: .policyViolation, reason: "not reading", now: MonotonicTime.now()))
    }
  }

  // MARK: Writing and closing

  private func flush() {
    writeOut()
    reportQueued()
  }

  /// Counts what `output` holds now in the group's queued bytes.
  private func reportQueued() {
    let delta = (closed ? 0 : output.byteCount) - reportedQueued
    guard delta != 0 else { return }
    slot.queued.add(delta)
    reportedQueued += delta
  }

  /// Whether to stop reading while the peer does not take what is queued for it: past this
  /// connection's own bound, or while its group is past its bound.
  private var pausesReading: Bool {
    if output.byteCount > Self.pauseReadingAbove { return true }
    reportQueued()
    return slot.queued.total > server.configuration.maxQueuedBytesPerAddress
  }

  private func writeOut() {
    guard !closed, !lingering else { return }
    while true {
      switch output.write(to: fd) {
      case .failed:
        _ = machine.peerClosedConnection()
        finalClose()
        return
      case .wouldBlock:
        setInterest(pausesReading ? [.writable] : [.readable, .writable])
        return
      case .done:
        if let frame = latest, !closeRequested {
          latest = nil
          output.append(frame)
          continue
        }
        setInterest(.readable)
        if closeRequested { startLinger() }
        return
      }
    }
  }

  private func setInterest(_ events: PollEvents) {
    guard !closed, events != interest else { return }
    interest = events
    loop.modify(self, events: events)
  }

  /// RFC 6455 §7.1.1: the server closes TCP first; shutting down writing and draining what
  /// the peer still sends keeps its close frame from being lost to a reset.
  private func startLinger() {
    shutdown(fd, Int32(SHUT_WR))
    lingering = true
    machine.writingShutDown(now: MonotonicTime.now())
  }

  private func finalClose() {
    guard !closed else { return }
    closed = true
    held = []
    reportQueued()
    loop.deregister(self)
    _ = systemClose(fd)
    server.connectionClosed(slot)
    handler.closed(socket, code: machine.closeCode, reason: machine.closeReason)
  }
}

private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}
