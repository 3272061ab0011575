import HTTP
import JSON
import Server
import Simulation
import Storage
import Synchronization
import WebSocket

/// The I/O around one viewer's `ReplayMachine`: its inbox and its socket.
///
/// Any thread may `send`; only the game loop calls `advance`.
final class ReplaySession: @unchecked Sendable {
  /// A viewer's command, or the end of the replay.
  enum Command: Sendable {
    case replay(ReplayMachine.Command)
    case close
  }

  let socket: WebSocket
  /// Most time spent stepping per game-loop tick (catching up after a seek).
  static let budget: Duration = .milliseconds(4)

  private let inbox = Mutex<[ReplayMachine.Command]>([])
  private let closed = Atomic<Bool>(false)
  // Owned by the game loop.
  private var machine: ReplayMachine

  /// Rebuilds a stored session's start from its config and seed, to play `log` to `end`;
  /// throws if they no longer load.
  init(stored: StoredSession, log: any ReplayLog, end: UInt64, socket: WebSocket) throws {
    guard let type = Demo.model(ofKind: stored.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(stored.kind)")
    }
    let start = try type.init(config: try JSONValue.parse(stored.config), seed: stored.seed)
    self.socket = socket
    self.machine = ReplayMachine(id: stored.id, start: start, log: log, end: end)
  }

  var isClosed: Bool { closed.load(ordering: .relaxed) }

  func send(_ command: Command) {
    switch command {
    case .close: closed.store(true, ordering: .relaxed)
    case .replay(let command): inbox.withLock { $0.append(command) }
    }
  }

  /// Runs one tick of the replay and sends what it asks.
  func advance() {
    guard !isClosed else { return }
    let commands = inbox.withLock { commands in
      let taken = commands
      commands.removeAll()
      return taken
    }
    let started = MonotonicTime.now()
    machine.tick(
      commands, mayStepAgain: { MonotonicTime.now() - started <= Self.budget },
      perform: { action in
        switch action {
        case .send(let message, latestOnly: true):
          // NB: only an encoded message may replace an older one in the socket's queue.
          socket.send(
            EncodedMessage(.text(String(decoding: message.bytes, as: UTF8.self))), latestOnly: true)
        case .send(let message, latestOnly: false):
          socket.send(message)
        case .fail(let reason):
          closed.store(true, ordering: .relaxed)
          socket.send(.error(ClientError("replay-unavailable", reason)))
          socket.close(.internalError, reason: "replay log unreadable")
        }
      })
  }
}
