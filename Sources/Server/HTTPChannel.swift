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
///
/// Every entry point (readiness, a timer, a late response, shutdown) reports to the machine,
/// carries out its actions, then writes what they queued in one go and updates what the
/// poller watches, so pipelined responses leave in one `sendmsg`.
///
/// Its reading is charged to its client (address group) as a WebSocket's is: the bytes it
/// reads and the requests it hands to the handler count against the group's `ReadBudget` for
/// the loop's turn; past it, the next request (pipelined, or read with a big body) waits for
/// the next turn, and nothing more is read meanwhile.
///
/// What it has queued for a peer that does not read counts in its group's queued bytes, with
/// its WebSocket connections' (`--queued-bytes-per-address`): while the group is past that
/// bound, its next request waits before it is handed over (and nothing more is read), until
/// the peers take what waits for them. So a client cannot pile up answers it does not read on
/// many connections; it is held back, not refused. A trusted proxy reads its answers at once
/// and carries many clients: its connections are not counted.
final class HTTPChannel: EvictableChannel, BudgetedChannel, @unchecked Sendable {
  let fd: Int32
  /// The connection's place in the server's connection table.
  let slot: ConnectionSlot
  let loop: EventLoop
  let server: ServerCore
  let context: RequestContext
  /// What its group (a trusted proxy's connection: itself) has read on its loop in this turn.
  let account: ReadAccount
  /// Whether the peer is a trusted proxy, whose requests name the client they come from.
  private let fromTrustedProxy: Bool
  // NB: the channel lives on one thread and never nests accesses to its own state, so the
  // run-time exclusivity checks (a thread-local lookup each) are turned off for the hot fields.
  @exclusivity(unchecked) private var machine: HTTPConnectionStateMachine
  @exclusivity(unchecked) private var output = OutputQueue()
  @exclusivity(unchecked) private var interest: PollEvents = .readable
  /// How to close once the output is written, when the machine has asked to.
  @exclusivity(unchecked) private var closeAfterWrite: CloseMode?
  @exclusivity(unchecked) private var lingering = false
  /// Inside `runActions`: a response given now is carried out by that loop, not here.
  @exclusivity(unchecked) private var runningActions = false
  private var closed = false
  /// Set once the connection has become a WebSocket. NB: from then on the loop sends events
  /// to the new channel (`EventLoop.replace`); only a late response can still reach this one.
  private var upgraded = false
  /// The response another thread is finishing, if any: abandoned if the connection closes first.
  private var waiting: PendingResponse?
  /// The WebSocket waiting for its 101 to go out.
  private var pendingUpgrade: (WebSocketHandshake.Accepted, any WebSocketHandler, Request)?
  /// The request its group's read budget had no room for in this turn: dispatched first in the
  /// next (`resumeReading`), and nothing more is read or done meanwhile.
  @exclusivity(unchecked) private var held: Request?
  /// Waiting for the loop's next turn (`EventLoop.owe`).
  @exclusivity(unchecked) private var owing = false
  /// `held` waits for its group's queued bytes to fall under the bound: tried again at the
  /// timer checks and when this connection's own output is written.
  @exclusivity(unchecked) private var waitsForReaders = false
  /// Of `output`, the bytes counted in the group's `slot.queued`.
  @exclusivity(unchecked) private var reportedQueued = 0

  enum CloseMode {
    case plain
    case lingering
  }

  static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
  /// Queued output beyond which it is written before the next action.
  static let flushThreshold = 256 * 1024

  /// Whether to read: while lingering (to drain), or when the machine wants input.
  /// NB: not while a request waits for its group's readers: the peer may send more, and a
  /// readable socket that is not read would wake the loop at once, again and again.
  private var wantsToRead: Bool {
    lingering || (!waitsForReaders && closeAfterWrite != .plain && machine.wantsInput)
  }

  init(
    fd: Int32, peer: String, slot: ConnectionSlot, loop: EventLoop, server: ServerCore,
    now: MonotonicTime
  ) {
    self.fd = fd
    self.slot = slot
    self.loop = loop
    self.server = server
    let fromTrustedProxy = server.configuration.addressGrouping.isTrustedProxy(peer)
    self.fromTrustedProxy = fromTrustedProxy
    // A trusted proxy's connections carry many clients (nginx in front of a cluster): each is
    // read on a budget of its own, so one client's flood through the proxy holds back only the
    // connection it came on, not every other client's.
    self.account = fromTrustedProxy ? ReadAccount() : loop.readAccount(slot.group)
    self.context = RequestContext(
      remoteAddress: peer, serverAddress: server.address,
      client: server.configuration.addressGrouping.group(of: peer),
      claimConnection: { [slot, server] family in slot.claim(family, server) })
    self.machine = HTTPConnectionStateMachine(configuration: server.configuration.http, now: now)
  }

  // MARK: Events

  func ready(_ events: PollEvents) {
    if events.contains(.hangup) && !wantsToRead {
      // NB: a hang-up is reported even when reading is paused, and level-triggered it would
      // wake the loop forever; the socket is dead both ways, so nothing is left to do.
      close()
      return
    }
    if events.contains(.writable) { flush() }
    if events.contains(.readable) || events.contains(.hangup) { readAvailable() }
    settle()
  }

  func checkTimers(now: MonotonicTime) {
    guard !closed else { return }
    if waitsForReaders, !groupPastQueuedBound {
      runActions()
      settle()
    }
    guard !closed, let deadline = machine.nextDeadline, now >= deadline else { return }
    machine.timerFired(now: now)
    runActions()
    settle()
  }

  func beginShutdown() {
    guard !closed else { return }
    if lingering {
      close()
      return
    }
    machine.shutDown(now: MonotonicTime.now())
    runActions()
    settle()
  }

  // MARK: Reading, within the group's budget

  func resumeReading() {
    owing = false
    guard !closed, !upgraded else { return }
    runActions()
    if held == nil { readAvailable() }
    settle()
  }

  /// Goes on in the loop's next turn.
  private func owe() {
    guard !owing, !closed else { return }
    owing = true
    loop.owe(self)
  }

  private func readAvailable() {
    let outcome = SocketReader.read(
      fd, into: loop.readBuffer, while: { !closed && !upgraded && held == nil && wantsToRead },
      allowance: { loop.readAllowance(account) },
      deliver: { bytes in
        loop.chargeRead(account, bytes: bytes.count)
        // Lingering, what the peer still sends is drained and dropped.
        guard !lingering else { return }
        machine.received(bytes, now: MonotonicTime.now())
        runActions()
      })
    switch outcome {
    case .drained:
      break
    case .endOfFile where lingering:
      close()
    case .endOfFile:
      // NB: as nginx does, a peer that stops sending while its answer is still being computed
      // counts as gone: the work behind it may stop (an answer that still comes is sent).
      waiting?.abandon()
      machine.peerClosed(now: MonotonicTime.now())
      runActions()
    case .failed:
      close()
    }
    if !closed, !upgraded, held != nil || loop.readAllowance(account) == 0 { owe() }
  }

  // MARK: Actions

  private func runActions() {
    runningActions = true
    defer { runningActions = false }
    if let request = held {
      if waitsForReaders {
        guard !groupPastQueuedBound else { return }
        // NB: before the budget's check, so that a request that now waits for the next turn
        // instead is not taken for one still waiting for readers (`settle` would loop).
        stopWaitingForReaders()
      }
      guard loop.chargeMessage(account) else { return owe() }
      held = nil
      dispatch(request)
    }
    while !closed, !upgraded, held == nil, let action = machine.nextAction() {
      switch action {
      case .dispatch(let request):
        // Past the group's budget for this turn, the request waits for the next.
        guard loop.chargeMessage(account) else {
          held = request
          owe()
          continue
        }
        dispatch(request)
      case .send(let response, let omitBody, let keepAlive):
        output.stage {
          ResponseSerializer.appendHead(response, date: loop.date, keepAlive: keepAlive, to: &$0)
        }
        if !omitBody { output.append(response.body) }
        if let held = response.heldUntilWritten { output.hold(held) }
        // A long pipeline: write now, so that a peer that does not read is noticed (and its
        // later requests held back) before much is queued.
        if output.byteCount > Self.flushThreshold { flush() }
      case .sendContinue:
        output.stage { $0.append(contentsOf: Self.continueBytes) }
      case .close:
        closeAfterWrite = .plain
      case .closeLingering:
        closeAfterWrite = .lingering
      case .abort:
        close()
      case .upgrade(let leftover):
        upgrade(leftover: leftover)
      }
    }
  }

  /// Whether the group has more queued than its bound (a trusted proxy's connection: never).
  private var groupPastQueuedBound: Bool {
    !fromTrustedProxy && slot.queued.total > server.configuration.maxQueuedBytesPerAddress
  }

  /// Holds `request` until the group's peers read (nothing more is read meanwhile); counted
  /// in the server's figures while it waits.
  @inline(never)
  private func waitForReaders(_ request: Request) {
    held = request
    guard !waitsForReaders else { return }
    waitsForReaders = true
    server.requestsWaitingForReaders.add(1, ordering: .relaxed)
  }

  private func stopWaitingForReaders() {
    waitsForReaders = false
    server.requestsWaitingForReaders.subtract(1, ordering: .relaxed)
  }

  /// Counts what `output` holds now in the group's queued bytes (nothing once closed).
  private func reportQueued() {
    let delta = (closed || fromTrustedProxy ? 0 : output.byteCount) - reportedQueued
    guard delta != 0 else { return }
    slot.queued.add(delta)
    reportedQueued += delta
  }

  private func dispatch(_ request: Request) {
    // NB: checked here rather than where the request is taken from the machine, where it made
    // the action be copied (about 400 instructions a request more).
    if groupPastQueuedBound { return waitForReaders(request) }
    slot.active(server, now: MonotonicTime.now())
    let reply: Reply
    if fromTrustedProxy {
      var context = self.context
      context.client = server.configuration.addressGrouping.clientGroup(
        peer: context.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
      reply = server.handler.handle(request, context: context)
    } else {
      reply = server.handler.handle(request, context: context)
    }
    // NB: consumed, so the response is moved out of the reply rather than copied out of it
    // and both destroyed (about 200 instructions a request, issue 31).
    switch consume reply {
    case .response(let response):
      respond(response)
    case .later(let pending):
      waiting = pending
      pending.whenDone { [loop] response in
        loop.execute {
          if self.waiting === pending { self.waiting = nil }
          if let (accepted, handler) = pending.takeUpgrade() {
            self.pendingUpgrade = (accepted, handler, request)
          }
          self.respond(response)
        }
      }
    case .webSocket(let accepted, let handler):
      pendingUpgrade = (accepted, handler, request)
      respond(accepted.response)
    }
  }

  /// The application's answer. Given during `runActions` (a synchronous reply), that loop
  /// carries out what follows; given later from the loop's task queue, this does.
  private func respond(_ response: Response) {
    guard !closed, !upgraded else { return }
    machine.respond(response, now: MonotonicTime.now())
    guard !runningActions else { return }
    runActions()
    settle()
  }

  /// The 101 is queued in `output`: whoever takes over the socket writes it first.
  private func upgrade(leftover: [UInt8]) {
    guard let (accepted, handler, request) = pendingUpgrade else {
      close()
      return
    }
    pendingUpgrade = nil
    // NB: the WebSocket channel counts what it takes over as its own.
    slot.queued.add(-reportedQueued)
    reportedQueued = 0
    let channel = WebSocketChannel(
      from: self, accepted: accepted, handler: handler, request: request, output: output,
      now: MonotonicTime.now())
    output = OutputQueue()
    upgraded = true
    loop.replace(self, with: channel)
    channel.start(leftover: leftover)
  }

  // MARK: Writing

  /// Writes the queued output, closes if that was the last of it, carries out what a drained
  /// output let go ahead, and watches what is needed.
  private func settle() {
    while !closed, !upgraded {
      flush()
      if waitsForReaders, !groupPastQueuedBound {
        runActions()
        continue
      }
      guard !closed, held == nil, machine.hasActions else { break }
      runActions()
    }
    guard !closed, !upgraded else { return }
    var wanted: PollEvents = []
    if wantsToRead { wanted.insert(.readable) }
    if !output.isEmpty { wanted.insert(.writable) }
    setInterest(wanted)
  }

  func flush() {
    guard !closed, !output.isEmpty else {
      if !closed, let mode = closeAfterWrite { finish(mode) }
      return
    }
    switch output.write(to: fd) {
    case .done:
      if reportedQueued != 0 { reportQueued() }
      if machine.writeDeadline != nil { machine.outputDrained(now: MonotonicTime.now()) }
      if let mode = closeAfterWrite { finish(mode) }
    case .wouldBlock:
      reportQueued()
      machine.outputBlocked(now: MonotonicTime.now())
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
  private func finish(_ mode: CloseMode) {
    closeAfterWrite = nil
    guard mode == .lingering, !lingering else {
      if mode == .plain { close() }
      return
    }
    lingering = true
    shutdown(fd, Int32(SHUT_WR))
  }

  func close() {
    guard !closed else { return }
    closed = true
    held = nil
    if waitsForReaders { stopWaitingForReaders() }
    // NB: whatever computes the answer (a tile render) may stop: nobody will read it.
    waiting?.abandon()
    waiting = nil
    output.removeAll()
    reportQueued()
    loop.deregister(self)
    closeDescriptor(fd)
    server.connectionClosed(slot)
  }

  /// Closed to make room for another address group's connection.
  func evict() {
    guard !closed, !upgraded else { return }
    close()
  }
}

private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}
