import HTTP
import JSON
import Server
import Simulation
import Synchronization
import WebSocket

/// One running simulation: the commands waiting for the next tick, and the I/O around its
/// `SessionMachine` (sockets, the journal, the published summary).
///
/// Any thread may `send` commands or read `summary`. The game loop calls `advance`, one tick
/// at a time, on the tick or off it (`OffTickSteps`), never both at once; `using` still guards
/// the machine, because a delete or a shutdown comes from other threads.
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
  /// The monotonic clock, for the time budget of asked-for steps.
  let clock: @Sendable () -> MonotonicTime
  /// Where an on-demand session's work runs; nil for a realtime session.
  let onDemand: OnDemandSteps?
  /// Whether an on-demand session has a job waiting in `onDemand`.
  private let drainWaiting = Atomic<Bool>(false)

  /// Most commands waiting for one tick; a client sending faster is told to slow down.
  static let maxPendingCommands = 512
  /// Most events sent in one tick; the rest are counted in a `dropped` event.
  static let maxEventsPerTick = 32
  /// Most time spent on asked-for steps in one tick.
  static let stepBudget: Duration = .milliseconds(4)

  private let inbox = Mutex<[SessionCommand]>([])
  /// Numbers the frames, so that an event loop that falls behind skips stale ones.
  private let frameStream = BroadcastStream()
  private let published: Mutex<SessionSummary>

  /// Held while the machine is used: a step (on the tick, or off it for a heavy session) and
  /// a delete or shutdown from another thread never overlap.
  private let using = Mutex(())
  /// A close asked for by a delete; done by whoever next holds the machine.
  private let closing = Mutex<(code: WebSocketCloseCode, reason: String)?>(nil)

  // Used under `using`, by the step and by a delete or shutdown.
  private var machine: SessionMachine<WebSocket>
  private var encoder = FanOutEncoder(level: 1)
  private var writer = JSONWriter(capacity: 1024)

  var kind: String { type.kind }

  /// What advances the session.
  var sessionClock: SessionClock { onDemand == nil ? .realtime : .onDemand }

  init(
    id: String, model: any Simulation, seed: UInt64, tokenHash: String, createdAt: Double,
    running: Bool, journal: SessionJournal?, idlePause: Double,
    clock: @escaping @Sendable () -> MonotonicTime, isShowcase: Bool = false,
    onDemand: OnDemandSteps? = nil
  ) {
    self.clock = clock
    self.onDemand = onDemand
    self.isShowcase = isShowcase
    self.id = id
    self.type = Swift.type(of: model)
    self.seed = seed
    self.tokenHash = tokenHash
    self.createdAt = createdAt
    self.journal = journal
    var configuration = SessionMachine<WebSocket>.Configuration()
    configuration.idlePause = idlePause
    configuration.maxEventsPerTick = Self.maxEventsPerTick
    configuration.clock = onDemand == nil ? .realtime : .onDemand
    self.machine = SessionMachine(
      id: id, model: model, running: running, configuration: configuration)
    machine.seatTokens = SeatToken.tokens(of: type, tokenHash: tokenHash).map {
      ($0.seat.name, $0.token)
    }
    self.published = Mutex(
      SessionSummary(
        id: id, kind: Swift.type(of: model).kind, running: running, tick: model.tick,
        spectators: 0, controllers: 0, createdAt: createdAt, updatedAt: createdAt,
        config: model.config,
        lastGame: model.finishedGame.map {
          GameResult(tick: model.tick, score: $0.score, level: $0.level)
        }, clock: onDemand == nil ? .realtime : .onDemand))
  }

  // MARK: Any thread

  /// Queues a command for the next tick; false when too many are waiting.
  @discardableResult
  func send(_ command: SessionCommand) -> Bool {
    let queued = inbox.withLock { commands in
      guard commands.count < Self.maxPendingCommands || command.isMembership else { return false }
      commands.append(command)
      return true
    }
    if queued, let onDemand, !drainWaiting.exchange(true, ordering: .acquiringAndReleasing) {
      onDemand.submit(id) { [self] now in drain(now: now) }
    }
    return queued
  }

  /// The latest published state, for listings.
  var summary: SessionSummary { published.withLock { $0 } }

  // MARK: Game loop

  /// Runs one tick of the session's machine at `now` (seconds since 1970), under what the tick
  /// budget says of it, and carries out what it asks.
  func advance(now: Double, budget: SessionBudget) {
    if onDemand != nil {
      // NB: never waits for an on-demand step under way; the next tick shows its frame.
      _ = using.withLockIfAvailable { _ in
        machine.budgeted(budget)
        machine.show(now: now, perform: { perform($0) })
      }
      closeIfAsked()
      return
    }
    using.withLock { _ in
      machine.budgeted(budget)
      let commands = inbox.withLock { commands in
        let taken = commands
        commands.removeAll(keepingCapacity: true)
        return taken
      }
      let started = clock()
      machine.tick(
        commands, now: now, mayStepAgain: { clock() - started < Self.stepBudget },
        perform: { perform($0) })
    }
    closeIfAsked()
  }

  /// An on-demand session's job (`OnDemandSteps`): everything its clients sent, in order, with
  /// each `step` run at once.
  private func drain(now: Double) {
    drainWaiting.store(false, ordering: .sequentiallyConsistent)
    using.withLock { _ in
      let commands = inbox.withLock { commands in
        let taken = commands
        commands.removeAll(keepingCapacity: true)
        return taken
      }
      guard !commands.isEmpty else { return }
      machine.drain(commands, now: now, perform: { perform($0) })
    }
    closeIfAsked()
  }

  /// The state the journal saves to end a session for good.
  func endForShutdown() -> (tick: UInt64, running: Bool) {
    using.withLock { _ in (machine.model.tick, machine.isRunning) }
  }

  /// Takes a snapshot now (for a clean shutdown).
  func snapshotNow() {
    let (state, tick) = using.withLock { _ in machine.snapshotNow() }
    journal?.snapshot(sessionID: id, tick: tick, state: state)
  }

  /// Closes every client connection (the session is being deleted): now, or at the end of a
  /// step under way, so that a delete never waits for a heavy step.
  func disconnectAll(_ code: WebSocketCloseCode, reason: String) {
    closing.withLock { $0 = (code, reason) }
    closeIfAsked()
  }

  /// Closes every client if a delete asked for it and the machine is free; a step that holds
  /// it calls this again when it ends, so one of the two always does it.
  private func closeIfAsked() {
    guard let (code, reason) = closing.withLock({ $0 }),
      let sockets = using.withLockIfAvailable({ _ in machine.removeAllClients() })
    else { return }
    for socket in sockets { socket.close(code, reason: reason) }
  }

  // MARK: Actions

  private func perform(_ action: SessionMachine<WebSocket>.Action) {
    switch action {
    case .send(let message, let socket):
      socket.send(message)
    case .broadcast(let message, let sockets, let delivery):
      broadcast(message, to: sockets, delivery)
    case .journalInputs(let inputs, let tick):
      journal?.inputs(sessionID: id, tick: tick, inputs: inputs)
    case .snapshot(let state, let tick):
      journal?.snapshot(sessionID: id, tick: tick, state: state)
    case .gameEnded(let result):
      published.withLock { $0.lastGame = result }
    case .publish(let progress):
      published.withLock { $0.update(progress) }
      journal?.progress(
        // NB: a session paused for lack of spectators is stored as running: after a restart it
        // pauses again until someone watches, then goes on where it was.
        sessionID: id, running: progress.phase != .stopped, tick: progress.tick,
        now: progress.now)
    case .reply(let reply, let state):
      reply(state)
    }
  }

  /// Encodes `message` once (plain, and compressed for each window the sockets negotiated) and
  /// hands it to every socket.
  private func broadcast(
    _ message: ServerMessage, to sockets: [WebSocket],
    _ delivery: SessionMachine<WebSocket>.Delivery
  ) {
    writer.reset()
    message.write(into: &writer)
    let bytes = writer.bytes
    let windows = bytes.count >= 256 ? Set(sockets.compactMap(\.compressionWindowBits)) : []
    let encoded = encoder.encode(utf8: bytes, windows: windows)
    WebSocket.broadcast(
      encoded, to: sockets, latestOnly: delivery != .reliable,
      stream: delivery == .stream ? frameStream : nil)
  }
}
