import HTTP
import JSON
import Server
import Simulation
import Synchronization
import WebSocket

/// One running simulation: its model, the clients watching it, and the commands waiting for the
/// next tick.
///
/// Any thread may `send` commands or read `summary`. Only the game loop calls `advance`, one
/// tick at a time, so the model itself needs no lock.
final class LiveSession: @unchecked Sendable {
  let id: String
  let type: any Simulation.Type
  let seed: UInt64
  let tokenHash: String
  /// Seconds since 1970.
  let createdAt: Double
  let journal: SessionJournal?
  /// A gallery preview: kept in memory and left out of listings.
  let isShowcase: Bool

  /// Most commands waiting for one tick; a client sending faster is told to slow down.
  static let maxPendingCommands = 512
  /// Most events sent in one tick; the rest are counted in a `dropped` event.
  static let maxEventsPerTick = 32
  /// Most time spent on asked-for steps in one tick.
  static let stepBudget: Duration = .milliseconds(4)
  /// Ticks between snapshots (every five seconds).
  static let snapshotInterval: UInt64 = 300

  private let inbox = Mutex<[SessionCommand]>([])
  /// Numbers the frames, so that an event loop that falls behind skips stale ones.
  private let frameStream = BroadcastStream()
  private let published: Mutex<SessionSummary>

  // Owned by the game loop.
  private var model: any Simulation
  private var running: Bool
  private var pausedForIdle = false
  private var clients: [(socket: WebSocket, role: SessionRole)] = []
  private var waitingInputs: [JSONValue] = []
  private var waitingSteps = 0
  private var encoder = FanOutEncoder(level: 1)
  private var frameWriter = JSONWriter(capacity: 1024)
  private var lastSnapshotTick: UInt64
  private var idleSince: Double?
  private var inspections: [@Sendable (SessionState) -> Void] = []

  var kind: String { type.kind }

  init(
    id: String, model: any Simulation, seed: UInt64, tokenHash: String, createdAt: Double,
    running: Bool, journal: SessionJournal?, isShowcase: Bool = false
  ) {
    self.isShowcase = isShowcase
    self.id = id
    self.type = Swift.type(of: model)
    self.model = model
    self.seed = seed
    self.tokenHash = tokenHash
    self.createdAt = createdAt
    self.running = running
    self.journal = journal
    self.lastSnapshotTick = model.tick
    self.published = Mutex(
      SessionSummary(
        id: id, kind: Swift.type(of: model).kind, running: running, tick: model.tick,
        spectators: 0, controllers: 0, createdAt: createdAt, updatedAt: createdAt,
        config: model.config))
  }

  // MARK: Any thread

  /// Queues a command for the next tick; false when too many are waiting.
  @discardableResult
  func send(_ command: SessionCommand) -> Bool {
    inbox.withLock { commands in
      guard commands.count < Self.maxPendingCommands || command.isMembership else { return false }
      commands.append(command)
      return true
    }
  }

  /// The latest published state, for listings.
  var summary: SessionSummary { published.withLock { $0 } }

  // MARK: Game loop

  /// Applies queued commands and, if running (or asked to step), advances one tick and sends
  /// the frame and events to every client.
  func advance(now: Double, idlePause: Double) {
    let commands = inbox.withLock { commands in
      let taken = commands
      commands.removeAll(keepingCapacity: true)
      return taken
    }
    var changed = false
    var joined: [(WebSocket, SessionRole)] = []
    for command in commands {
      switch command {
      case .join(let socket, let role):
        clients.append((socket, role))
        joined.append((socket, role))
        // Anyone arriving wakes a session that only paused because nobody was there.
        if pausedForIdle {
          pausedForIdle = false
          running = true
        }
        changed = true
      case .leave(let socket):
        clients.removeAll { $0.socket === socket }
        changed = true
      case .start:
        changed = changed || !running
        running = true
        pausedForIdle = false
      case .stop:
        changed = changed || running
        running = false
      case .step(let count):
        if !running { waitingSteps += count }
      case .input(let input):
        waitingInputs.append(input)
      case .inspect(let reply):
        inspections.append(reply)
      }
    }

    // Idle sessions (nobody connected) pause after a while to save the CPU.
    if clients.isEmpty {
      if idleSince == nil { idleSince = now }
      if running, let since = idleSince, now - since >= idlePause {
        running = false
        pausedForIdle = true
        changed = true
      }
    } else {
      idleSince = nil
    }

    for (socket, role) in joined { greet(socket, role: role) }

    var stepped = false
    if running {
      step(now: now)
      stepped = true
    } else if waitingSteps > 0 {
      // Asked-for steps run as fast as the time budget allows, not one per tick.
      let started = MonotonicTime.now()
      repeat {
        waitingSteps -= 1
        step(now: now)
      } while waitingSteps > 0 && MonotonicTime.now() - started < Self.stepBudget
      stepped = true
    }
    if changed || !waitingInputs.isEmpty && !stepped {
      broadcastStatus()
    }
    if changed || stepped {
      publish(now: now)
    }
    if !inspections.isEmpty {
      let state = SessionState(tick: model.tick, stateHash: model.stateHash, running: running)
      for reply in inspections { reply(state) }
      inspections.removeAll()
    }
  }

  /// The state the journal saves to end a session for good.
  func endForShutdown() -> (tick: UInt64, running: Bool) {
    (model.tick, running)
  }

  /// Takes a snapshot now (for a clean shutdown).
  func snapshotNow() {
    journal?.snapshot(sessionID: id, tick: model.tick, state: model.snapshot())
    lastSnapshotTick = model.tick
  }

  /// Closes every client connection (the session is being deleted).
  func disconnectAll(_ code: WebSocketCloseCode, reason: String) {
    for client in clients { client.socket.close(code, reason: reason) }
    clients.removeAll()
  }

  // MARK: Steps

  private func step(now: Double) {
    let inputs = waitingInputs
    waitingInputs.removeAll(keepingCapacity: true)
    let events = model.step(inputs: inputs)
    let tick = model.tick
    if let over = events.last(where: { $0.name == "game-over" }) {
      let result = GameResult(
        tick: tick, score: over.fields["score"]?.intValue ?? 0,
        level: over.fields["level"]?.intValue ?? 1)
      published.withLock { $0.lastGame = result }
    }
    if !inputs.isEmpty {
      journal?.inputs(sessionID: id, tick: tick, inputs: inputs)
    }
    if tick - lastSnapshotTick >= Self.snapshotInterval {
      lastSnapshotTick = tick
      journal?.snapshot(sessionID: id, tick: tick, state: model.snapshot())
    }
    guard !clients.isEmpty else { return }
    // Running, a frame a loop has not sent before the next one is stale; each asked-for step's
    // frame is sent (the protocol promises one per step).
    broadcast(frame(), latestOnly: true, stream: running ? frameStream : nil)
    for message in SimulationEvent.messages(events, tick: tick, limit: Self.maxEventsPerTick) {
      broadcast(message, latestOnly: false)
    }
  }

  /// The current `frame` message.
  private func frame() -> [UInt8] {
    frameWriter.reset()
    model.writeFrameMessage(into: &frameWriter)
    return frameWriter.bytes
  }

  /// `hello`, the current frame and status, to one new client.
  private func greet(_ socket: WebSocket, role: SessionRole) {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    writer.field("type", "hello")
    writer.field("session", id)
    writer.field("kind", kind)
    writer.field("role", role.rawValue)
    writer.field("rate", 60)
    writer.field("tick", Int(model.tick))
    writer.field("running", running)
    writer.field("config", model.config)
    if role == .controller, !DrawToken.guestInputs(for: type).isEmpty {
      writer.field("drawToken", DrawToken.token(tokenHash: tokenHash))
    }
    model.writeHello(into: &writer)
    writer.endObject()
    socket.send(.text(String(decoding: writer.bytes, as: UTF8.self)))
    socket.send(.text(String(decoding: frame(), as: UTF8.self)))
    socket.send(.text(String(decoding: statusMessage(), as: UTF8.self)))
  }

  private func statusMessage() -> [UInt8] {
    var writer = JSONWriter(capacity: 128)
    writer.beginObject()
    writer.field("type", "status")
    writer.field("tick", Int(model.tick))
    writer.field("running", running)
    writer.field("spectators", clients.count { $0.role == .spectator })
    writer.field("controllers", clients.count { $0.role == .controller })
    writer.field("queued", waitingInputs.count)
    writer.endObject()
    return writer.bytes
  }

  private func broadcastStatus() {
    guard !clients.isEmpty else { return }
    broadcast(statusMessage(), latestOnly: false)
  }

  private func broadcast(_ json: [UInt8], latestOnly: Bool, stream: BroadcastStream? = nil) {
    let windows = Set(clients.compactMap { $0.socket.compressionWindowBits })
    let text = WebSocketMessage.text(String(decoding: json, as: UTF8.self))
    let encoded = encoder.encode(text, windows: json.count >= 256 ? windows : [])
    WebSocket.broadcast(
      encoded, to: clients.map(\.socket), latestOnly: latestOnly, stream: stream)
  }

  private func publish(now: Double) {
    let spectators = clients.count { $0.role == .spectator }
    let controllers = clients.count { $0.role == .controller }
    published.withLock { summary in
      summary.running = running
      summary.tick = model.tick
      summary.spectators = spectators
      summary.controllers = controllers
      summary.updatedAt = now
    }
    journal?.progress(sessionID: id, running: running, tick: model.tick, now: now)
  }
}
