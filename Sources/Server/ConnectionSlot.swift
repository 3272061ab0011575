import HTTP

/// One connection's place in the server's `ConnectionTable`: its id, its address group, and
/// the channel that holds the socket now (the HTTP channel, then the WebSocket channel after an
/// upgrade), so that the table can have it closed on its own loop.
final class ConnectionSlot: @unchecked Sendable {
  let id: Int
  let group: String
  let loop: EventLoop
  /// Bytes the connections of its group have queued, this one's included.
  let queued: QueuedBytes
  /// The channel holding the socket. NB: touched only on `loop`'s thread.
  weak var channel: (any EvictableChannel)?
  /// When this connection last reported activity to the table (loop thread only).
  private var reported: UInt64 = 0
  /// Whether the table counts it for a client family already (loop thread only).
  private var claimed = false

  /// Activity is reported to the shared table at most this often.
  static let reportNanoseconds: UInt64 = 1_000_000_000

  init(id: Int, group: String, loop: EventLoop, queued: QueuedBytes = QueuedBytes()) {
    self.id = id
    self.group = group
    self.loop = loop
    self.queued = queued
  }

  /// The connection finished a request or got a message: tells the table, now and then.
  func active(_ server: ServerCore, now: MonotonicTime) {
    guard now.nanoseconds &- reported >= Self.reportNanoseconds else { return }
    reported = now.nanoseconds
    server.connectionActive(id, now: now)
  }

  /// Counts it against `family` in the table, once; false when that family is at its share.
  func claim(_ family: String, _ server: ServerCore) -> Bool {
    guard !claimed else { return true }
    claimed = server.connectionClaimed(id, family: family)
    return claimed
  }

  /// Closes the connection on its loop to make room for another group's.
  func evict() {
    loop.execute { [self] in channel?.evict() }
  }
}

/// A channel the connection table may close to make room.
protocol EvictableChannel: Channel {
  /// Closes the connection now, telling the peer why where the protocol can.
  func evict()
}
