import JSON
import Simulation

/// One live session's rules, with no I/O and no clock: commands and `now` go in, actions come
/// out, and the I/O code (`LiveSession`) carries them out.
///
/// It owns the model, who is connected, whether it runs, inputs waiting for the next step, and
/// when to pause for lack of spectators or to snapshot. `Client` is whatever stands for one
/// connection (a `WebSocket` in the server, a small object in the tests).
struct SessionMachine<Client: AnyObject & Sendable> {
  /// What a client or the API asks, applied at the next tick.
  enum Command: Sendable {
    /// A connection joins, as controller or spectator, and is sent `hello`, a frame and status.
    case join(Client, SessionRole)
    case leave(Client)
    case start
    case stop
    /// Advance this many ticks while stopped.
    case step(Int)
    /// A model input, already checked (`reset` is one), applied at the next step.
    case input(CheckedInput)
    /// A question about the state (a model's `queries`), answered after this tick's step to
    /// the asker alone, with the asker's request `id`; never logged.
    case query(Client, JSONValue, Sender?, id: JSONValue?)
    /// Reads the exact state after this tick's work.
    case inspect(@Sendable (SessionState) -> Void)

    /// Joins and leaves are never refused, however full the inbox.
    var isMembership: Bool {
      switch self {
      case .join, .leave: true
      default: false
      }
    }
  }

  /// Whether the model steps on every tick.
  enum Phase: Sendable, Equatable {
    case running
    /// Stopped by its controller (or created stopped); steps only when asked.
    case stopped
    /// Was running, but nobody watched for `idlePause` seconds; the next join resumes it at the
    /// tick where it stopped.
    case pausedForIdle
  }

  /// How a broadcast message may be delivered.
  enum Delivery: Sendable, Equatable {
    /// Every message, in order (events, status).
    case reliable
    /// A busy client gets only the newest of these (an asked-for step's frame).
    case latestOnly
    /// Latest only, and an event loop that fell behind skips a stale one (running frames).
    case stream
  }

  /// What the I/O code must do, in order.
  enum Action: Sendable {
    case send(ServerMessage, to: Client)
    case broadcast(ServerMessage, to: [Client], Delivery)
    /// Log the inputs applied in the step that made `tick`.
    case journalInputs([JSONValue], tick: UInt64)
    /// Store the exact state at `tick`.
    case snapshot([UInt8], tick: UInt64)
    /// A game ended (for the high-score table).
    case gameEnded(GameResult)
    /// The session's listing changed; also the progress to store.
    case publish(Progress)
    /// Answer an `inspect`.
    case reply(@Sendable (SessionState) -> Void, SessionState)
  }

  /// What listings and the store learn after a tick that changed something.
  struct Progress: Sendable, Equatable {
    var tick: UInt64
    var phase: Phase
    var spectators: Int
    var controllers: Int
    /// Seconds since 1970 when the last client left; nil while someone is connected.
    var idleSince: Double?
    var now: Double
  }

  /// The session's timing rules.
  struct Configuration: Sendable {
    /// Seconds without clients before a running session pauses.
    var idlePause: Double = 30
    /// Ticks between snapshots (five seconds).
    var snapshotInterval: UInt64 = 300
    /// Most events sent in one tick; the rest are counted in a `dropped` event.
    var maxEventsPerTick = 32
  }

  let id: String
  let configuration: Configuration
  private(set) var model: any Simulation
  private(set) var phase: Phase
  private(set) var clients: [(client: Client, role: SessionRole)] = []
  /// Seconds since 1970 since which nobody is connected; nil while someone is.
  private(set) var idleSince: Double?
  private var waitingInputs: [CheckedInput] = []
  private var waitingSteps = 0
  private var lastSnapshotTick: UInt64
  /// The tokens of the model's seats (`SeatToken`) that controllers are told in `hello`.
  var seatTokens: [(seat: String, token: String)] = []
  /// The tick budget's latest word on this session, told in `status`.
  private(set) var budget = SessionBudget()
  /// The budget as the clients last heard it in a broadcast `status`, and when (seconds since
  /// 1970).
  private var announcedBudget = SessionBudget()
  private var announcedAt = -Double.infinity

  init(id: String, model: any Simulation, running: Bool, configuration: Configuration) {
    self.id = id
    self.model = model
    self.phase = running ? .running : .stopped
    self.configuration = configuration
    self.lastSnapshotTick = model.tick
  }

  var isRunning: Bool { phase == .running }

  /// One game-loop tick at `now` (seconds since 1970): applies `commands` in order, pauses an
  /// unwatched session, greets new clients, steps (once if running; asked-for steps while
  /// `mayStepAgain` allows) and reports everything through `perform`.
  mutating func tick(
    _ commands: [Command], now: Double, mayStepAgain: () -> Bool,
    perform: (Action) -> Void
  ) {
    var changed = budgetNews(now: now)
    var joined: [(Client, SessionRole)] = []
    var inspections: [@Sendable (SessionState) -> Void] = []
    var queries: [(Client, JSONValue, Sender?, JSONValue?)] = []
    for command in commands {
      switch command {
      case .join(let client, let role):
        clients.append((client, role))
        joined.append((client, role))
        if phase == .pausedForIdle { phase = .running }
        changed = true
      case .leave(let client):
        clients.removeAll { $0.client === client }
        changed = true
      case .start:
        changed = changed || phase != .running
        phase = .running
      case .stop:
        changed = changed || phase != .stopped
        phase = .stopped
      case .step(let count):
        if phase != .running { waitingSteps += count }
      case .input(let input):
        waitingInputs.append(input)
      case .query(let client, let query, let sender, let id):
        queries.append((client, query, sender, id))
      case .inspect(let reply):
        inspections.append(reply)
      }
    }
    changed = pauseIfUnwatched(now: now) || changed

    for (client, role) in joined { greet(client, role: role, perform: perform) }

    var stepped = false
    if phase == .running {
      step(perform: perform)
      stepped = true
    } else if waitingSteps > 0 {
      // Asked-for steps run as fast as the time budget allows, not one per tick.
      repeat {
        waitingSteps -= 1
        step(perform: perform)
      } while waitingSteps > 0 && mayStepAgain()
      stepped = true
    }
    if !clients.isEmpty && (changed || !waitingInputs.isEmpty && !stepped) {
      perform(.broadcast(.status(status), to: clients.map(\.client), .reliable))
      announcedBudget = budget
      announcedAt = now
    }
    for (client, query, sender, id) in queries {
      perform(.send(answer(query, sentBy: sender, id: id), to: client))
    }
    if changed || stepped { perform(.publish(progress(now: now))) }
    let state = SessionState(tick: model.tick, stateHash: model.stateHash, running: isRunning)
    for reply in inspections { perform(.reply(reply, state)) }
  }

  /// Takes the tick budget's word on this session (`TickBudget.state(of:)`), for its status.
  mutating func budgeted(_ budget: SessionBudget) {
    self.budget = budget
  }

  /// The exact state, to store now (a clean shutdown).
  mutating func snapshotNow() -> (state: [UInt8], tick: UInt64) {
    lastSnapshotTick = model.tick
    return (model.snapshot(), model.tick)
  }

  /// Forgets every client (the session is being deleted); returns them to be closed.
  mutating func removeAllClients() -> [Client] {
    defer { clients.removeAll() }
    return clients.map(\.client)
  }

  /// The `status` message now.
  var status: ServerMessage.LiveStatus {
    ServerMessage.LiveStatus(
      tick: model.tick, running: isRunning, spectators: count(.spectator),
      controllers: count(.controller), queued: waitingInputs.count, budget: budget)
  }

  func progress(now: Double) -> Progress {
    Progress(
      tick: model.tick, phase: phase, spectators: count(.spectator),
      controllers: count(.controller), idleSince: idleSince, now: now)
  }

  // MARK: Rules

  /// Nobody connected for `idlePause` seconds: a running session pauses where it is. Returns
  /// whether it just paused.
  private mutating func pauseIfUnwatched(now: Double) -> Bool {
    guard clients.isEmpty else {
      idleSince = nil
      return false
    }
    let since = idleSince ?? now
    idleSince = since
    guard phase == .running, now - since >= configuration.idlePause else { return false }
    phase = .pausedForIdle
    return true
  }

  /// Whether the clients should hear of the budget: its interval changed since they last did,
  /// at once when throttling starts or ends, else at most once a second (the interval follows a
  /// moving average of the cost, so it may waver).
  private func budgetNews(now: Double) -> Bool {
    guard budget.interval != announcedBudget.interval else { return false }
    return budget.throttled != announcedBudget.throttled || now - announcedAt >= 1
  }

  private func greet(_ client: Client, role: SessionRole, perform: (Action) -> Void) {
    let hello = ServerMessage.Hello(
      session: id, role: role, running: isRunning, replayEnd: nil, model: model,
      seatTokens: role == .controller ? seatTokens : [])
    perform(.send(.hello(hello), to: client))
    perform(.send(.frame(model), to: client))
    perform(.send(.status(status), to: client))
  }

  private mutating func step(perform: (Action) -> Void) {
    let inputs = waitingInputs
    waitingInputs.removeAll(keepingCapacity: true)
    let events = model.step(checked: inputs)
    let tick = model.tick
    for event in events {
      if case .gameOver(let score, let level) = event.meaning {
        perform(.gameEnded(GameResult(tick: tick, score: score, level: level)))
      }
    }
    if !inputs.isEmpty { perform(.journalInputs(inputs.map(\.json), tick: tick)) }
    if tick - lastSnapshotTick >= configuration.snapshotInterval {
      lastSnapshotTick = tick
      perform(.snapshot(model.snapshot(), tick: tick))
    }
    guard !clients.isEmpty else { return }
    let everyone = clients.map(\.client)
    // Running, a frame a loop has not sent before the next one is stale; each asked-for step's
    // frame is sent (the protocol promises one per step).
    perform(.broadcast(.frame(model), to: everyone, isRunning ? .stream : .latestOnly))
    let messages = ServerMessage.events(events, tick: tick, limit: configuration.maxEventsPerTick)
    for message in messages { perform(.broadcast(message, to: everyone, .reliable)) }
  }

  /// The model's answer to a query, or the error that names what stops it.
  private func answer(_ query: JSONValue, sentBy sender: Sender?, id: JSONValue?) -> ServerMessage {
    let name = query["type"]?.stringValue ?? ""
    do {
      return .answer(query: name, body: try model.answer(query, sentBy: sender), id: id)
    } catch {
      var refusal = ClientError("refused", error.description, field: error.field)
      refusal.id = id
      return .error(refusal)
    }
  }

  private func count(_ role: SessionRole) -> Int { clients.count { $0.role == role } }
}
