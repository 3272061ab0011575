import HTTP
import Synchronization
import WebSocket

/// A handle on one open WebSocket connection, safe to use from any thread.
///
/// Sends made off the connection's loop are handed to the loop. A `latestOnly` send never
/// queues behind an unsent one: a client that reads slowly gets the newest message and skips
/// the ones in between, so its backlog stays bounded.
public final class WebSocket: @unchecked Sendable {
  /// Unique among this process's connections.
  public let id: UInt64
  /// The upgrade request (its path and query name what the client asked for).
  public let request: Request
  public let remoteAddress: String
  /// The negotiated subprotocol, if any.
  public let subprotocol: String?
  /// The window (bits) of fresh-context compressed frames this connection takes, or nil when
  /// it did not negotiate permessage-deflate.
  public let compressionWindowBits: Int?

  let loop: EventLoop
  /// The connection; touched only on `loop`.
  weak var channel: WebSocketChannel?

  private static let nextID = Atomic<UInt64>(1)

  init(
    request: Request, remoteAddress: String, subprotocol: String?, compressionWindowBits: Int?,
    loop: EventLoop
  ) {
    self.id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    self.request = request
    self.remoteAddress = remoteAddress
    self.subprotocol = subprotocol
    self.compressionWindowBits = compressionWindowBits
    self.loop = loop
  }

  /// Sends one message, encoded (and compressed) for this connection.
  public func send(_ message: WebSocketMessage) {
    onLoop { $0.send(message) }
  }

  /// Sends one message, then runs `after` on the connection's event loop with the message
  /// queued (or the connection gone): anything `after` allows next, such as the answer to the
  /// client's next request sent from the loop itself, goes out behind it.
  public func send(_ message: WebSocketMessage, then after: @escaping @Sendable () -> Void) {
    let body: @Sendable () -> Void = { [self] in
      channel?.send(message)
      after()
    }
    if loop.inLoop { body() } else { loop.execute(body) }
  }

  /// Sends one message after everything handed to the connection's event loop before it, even
  /// when called on that loop: messages handed over in one order, from any threads, arrive in it.
  public func sendInOrder(_ message: WebSocketMessage) {
    loop.execute { [self] in channel?.send(message) }
  }

  /// Runs `body` on the connection's event loop: now when called there, else soon (after
  /// what was handed to the loop before it), whether or not the connection is still open.
  public func execute(_ body: @escaping @Sendable () -> Void) {
    if loop.inLoop { body() } else { loop.execute(body) }
  }

  /// Sends a message encoded once for many connections.
  public func send(_ encoded: EncodedMessage, latestOnly: Bool = false) {
    onLoop { $0.send(encoded, latestOnly: latestOnly) }
  }

  /// Starts the closing handshake.
  public func close(_ code: WebSocketCloseCode = .normal, reason: String = "") {
    onLoop { $0.close(code, reason: reason) }
  }

  /// Sends `encoded` to every socket, with one hand-over per event loop rather than per socket.
  ///
  /// With a `stream`, a hand-over that a newer message of the same stream has overtaken before
  /// its loop got to it is dropped: a loop that falls behind the game loop skips stale frames
  /// instead of working through a growing queue of them.
  public static func broadcast(
    _ encoded: EncodedMessage, to sockets: [WebSocket], latestOnly: Bool,
    stream: BroadcastStream? = nil
  ) {
    var byLoop: [ObjectIdentifier: (EventLoop, [WebSocket])] = [:]
    for socket in sockets {
      byLoop[ObjectIdentifier(socket.loop), default: (socket.loop, [])].1.append(socket)
    }
    let generation = stream?.advance()
    for (loop, group) in byLoop.values {
      loop.execute {
        if let stream, let generation, !stream.isLatest(generation) { return }
        for socket in group { socket.channel?.send(encoded, latestOnly: latestOnly) }
      }
    }
  }

  private func onLoop(_ body: @escaping @Sendable (WebSocketChannel) -> Void) {
    if loop.inLoop {
      if let channel { body(channel) }
    } else {
      loop.execute { [self] in
        if let channel { body(channel) }
      }
    }
  }
}

/// The successive messages of one stream (a session's frames), so that `WebSocket.broadcast`
/// can tell a stale hand-over from the newest one.
public final class BroadcastStream: Sendable {
  private let latest = Atomic<UInt64>(0)

  public init() {}

  /// Numbers a new message of the stream.
  func advance() -> UInt64 {
    latest.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Whether no message has come after the one numbered `generation`.
  func isLatest(_ generation: UInt64) -> Bool {
    latest.load(ordering: .relaxed) == generation
  }
}
