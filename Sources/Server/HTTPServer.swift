import Foundation
import HTTP
import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on POSIX sockets: one listening socket, a few event-loop threads, and
/// the application's `HTTPHandler`.
public final class HTTPServer: Sendable {
  public struct Configuration: Sendable {
    /// Address to bind, e.g. `127.0.0.1` or `::`.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one.
    public var port = 8080
    /// Event-loop threads; by default one per core.
    public var eventLoops = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Most open connections (HTTP and WebSocket). When full, a new connection from a lighter
    /// address group closes the heaviest group's idlest one; from a group as heavy, it gets 503.
    public var maxConnections = 4096
    /// Most open connections of one address group (a trusted proxy is exempt); past it, 503.
    public var maxConnectionsPerAddress = 256
    /// Most of them one client family of an address may hold once its requests name it
    /// (`RequestContext.claimConnection`); nil: the address's whole share.
    public var maxConnectionsPerFamily: Int?
    /// Bytes the connections (HTTP and WebSocket) of one address group may have queued for
    /// their peers together: past it, each WebSocket with a backlog its peer does not take is
    /// no longer read (as one is past its own 256 KiB), and the group's next HTTP requests wait
    /// before they are handed over, so that many connections that never read cannot pile up
    /// answers in memory, charged to nobody.
    public var maxQueuedBytesPerAddress = 16 << 20
    /// What the connections (HTTP and WebSocket) of one address group may read on one event
    /// loop in one of its turns (`ReadBudget`): past it, they are read no further until the
    /// next turn.
    public var readBudget = ReadBudget(bytes: 32 << 10, messages: 32)
    /// How peer addresses are grouped into clients, and which proxies are believed.
    public var addressGrouping = AddressGrouping()
    /// Pending connections the kernel may queue.
    public var backlog: Int32 = 1024
    /// Per-connection limits and timeouts.
    public var http = HTTPConnectionStateMachine.Configuration()
    /// How long `stop` waits for connections to finish.
    public var shutdownGrace: Duration = .seconds(5)

    public init() {}
  }

  private let core: ServerCore
  let loops: [EventLoop]
  private let listenFD: Int32
  private let finished = DispatchGroup()
  /// The port the server listens on.
  public let port: Int
  public let host: String

  /// Binds the socket and starts the event loops.
  public init(configuration: Configuration, handler: any HTTPHandler, logger: Logger) throws {
    signal(SIGPIPE, SIG_IGN)
    Self.raiseDescriptorLimit()
    let (fd, port) = try Socket.listen(
      host: configuration.host, port: configuration.port, backlog: configuration.backlog)
    self.listenFD = fd
    self.port = port
    self.host = configuration.host
    let display = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    let loops = try (0..<configuration.eventLoops).map {
      try EventLoop(index: $0, readBudget: configuration.readBudget)
    }
    self.loops = loops
    self.core = ServerCore(
      configuration: configuration, handler: handler, logger: logger,
      address: "\(display):\(port)", loops: loops)
    for loop in loops {
      let listener = ListenerChannel(fd: fd, loop: loop, server: core)
      loop.register(listener, events: ListenerChannel.events)
      finished.enter()
      let thread = Thread { [finished] in
        loop.run()
        finished.leave()
      }
      thread.name = "playfield-loop-\(loop.index)"
      thread.start()
    }
  }

  /// Open connections right now.
  public var connectionCount: Int { core.connections.load(ordering: .relaxed) }

  /// Bytes queued for peers that do not read, all address groups together.
  public var queuedBytes: Int { core.queuedBytes }

  /// HTTP requests waiting for their address group's peers to read
  /// (`Configuration.maxQueuedBytesPerAddress`).
  public var requestsWaitingForReaders: Int {
    core.requestsWaitingForReaders.load(ordering: .relaxed)
  }

  /// Open connections on each event loop, in loop order.
  var loopConnectionCounts: [Int] { loops.map { $0.connectionCount.load(ordering: .relaxed) } }

  /// Stops accepting, lets in-flight requests finish (up to the grace period), closes the rest,
  /// and stops the loops. Blocks until done.
  public func stop() {
    guard !core.stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let drained = DispatchSemaphore(value: 0)
    for loop in loops {
      loop.execute {
        loop.beginShutdown()
        drained.signal()
      }
    }
    for _ in loops { drained.wait() }
    close(listenFD)
    let deadline = ContinuousClock.now + core.configuration.shutdownGrace
    while connectionCount > 0 && ContinuousClock.now < deadline {
      usleep(10_000)
    }
    for loop in loops { loop.execute { loop.stop() } }
    finished.wait()
  }

  private static func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }
}

/// What every channel of one server shares.
final class ServerCore: Sendable {
  let configuration: HTTPServer.Configuration
  let handler: any HTTPHandler
  let logger: Logger
  /// `host:port`, for request contexts.
  let address: String
  let connections = Atomic<Int>(0)
  /// Requests waiting for their group's peers to read (`maxQueuedBytesPerAddress`).
  let requestsWaitingForReaders = Atomic<Int>(0)
  /// Open connections by address group, and their slots by id.
  private let table:
    Mutex<(table: ConnectionTable, slots: [Int: ConnectionSlot], queued: [String: QueuedBytes])>
  let stopping = Atomic<Bool>(false)
  let loops: [EventLoop]

  init(
    configuration: HTTPServer.Configuration, handler: any HTTPHandler, logger: Logger,
    address: String, loops: [EventLoop]
  ) {
    self.configuration = configuration
    self.handler = handler
    self.logger = logger
    self.address = address
    self.loops = loops
    self.table = Mutex(
      (
        ConnectionTable(
          maxConnections: configuration.maxConnections,
          perGroup: configuration.maxConnectionsPerAddress,
          perFamily: configuration.maxConnectionsPerFamily), [:], [:]
      ))
  }

  /// The loop with the fewest open connections.
  func leastLoadedLoop() -> EventLoop? {
    loops.min {
      $0.connectionCount.load(ordering: .relaxed) < $1.connectionCount.load(ordering: .relaxed)
    }
  }

  var isStopping: Bool { stopping.load(ordering: .relaxed) }

  /// Why a new connection was refused.
  enum Refusal: Error {
    case addressFull
    case serverFull
  }

  /// Takes a new connection from `peer` on `loop` into the table, closing another group's
  /// idlest connection when the server is full; throws when it is refused.
  func connectionOpened(peer: String, on loop: EventLoop, now: MonotonicTime) throws(Refusal)
    -> ConnectionSlot
  {
    let grouping = configuration.addressGrouping
    let group = grouping.group(of: peer)
    let capped = !grouping.isTrustedProxy(peer)
    let (slot, victim) = try table.withLock { (state) throws(Refusal) in
      switch state.table.open(group: group, capped: capped, now: now.nanoseconds) {
      case .refuseGroupFull:
        throw Refusal.addressFull
      case .refuseFull:
        throw Refusal.serverFull
      case .admit(let id, let evicting):
        let queued = state.queued[group] ?? QueuedBytes()
        state.queued[group] = queued
        let slot = ConnectionSlot(id: id, group: group, loop: loop, queued: queued)
        state.slots[id] = slot
        return (slot, evicting.flatMap { state.slots.removeValue(forKey: $0) })
      }
    }
    connections.add(1, ordering: .relaxed)
    if let victim {
      logger.debug("server full: closing an idle connection of \(victim.group) for \(group)")
      victim.evict()
    }
    return slot
  }

  /// Counts connection `id` against client `family` of its group; false when that family is
  /// at its share.
  func connectionClaimed(_ id: Int, family: String) -> Bool {
    table.withLock { $0.table.claim(id, family: family) }
  }

  /// A connection finished a request or received a message.
  func connectionActive(_ id: Int, now: MonotonicTime) {
    table.withLock { $0.table.touch(id, now: now.nanoseconds) }
  }

  /// Bytes queued for peers that do not read, all groups together.
  var queuedBytes: Int { table.withLock { $0.queued.values.reduce(0) { $0 + $1.total } } }

  /// Counts a closed connection; called on the thread of the loop that had it.
  func connectionClosed(_ slot: ConnectionSlot) {
    table.withLock {
      $0.table.close(slot.id)
      $0.slots[slot.id] = nil
      if $0.table.count(of: slot.group) == 0 { $0.queued[slot.group] = nil }
    }
    connections.subtract(1, ordering: .relaxed)
    EventLoop.current?.connectionCount.subtract(1, ordering: .relaxed)
  }
}
