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
    /// A client's step. On demand: advance this many ticks now and send the frame after the
    /// last one, with the request's `id`, to the client that asked. Realtime: as `step` while
    /// stopped, and the `ack` with `id` goes to the client after the events of the last of
    /// those ticks; while running, an `error` (`running`) and no step.
    case stepFor(Client, count: Int, id: JSONValue?)
    /// A model input, already checked (`reset` is one), applied at the next step; `from` is
    /// the connection that sent it, told if the model refuses it.
    case input(CheckedInput, from: Client? = nil)
    /// A question about the state (a model's `queries`), answered after this tick's step to
    /// the asker alone, with the asker's request `id`; never logged.
    case query(Client, JSONValue, Sender?, id: JSONValue?)
    /// Reads the exact state after this tick's work.
    case inspect(@Sendable (SessionState) -> Void)
    /// The owner replaced the seat links: these are the new tokens (told to controllers), and
    /// every guest, who joined with an old one, is disconnected.
    case renewSeats([(seat: String, token: String)])

    /// Whether it is a model input (`Simulation.inputsMayMakeNextStepHeavy` concerns these).
    var isInput: Bool {
      if case .input = self { return true }
      return false
    }

    /// Joins, leaves and link renewals are never refused, however full the inbox.
    var isMembership: Bool {
      switch self {
      case .join, .leave, .renewSeats: true
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
    /// Connections' inputs the step that made `tick` applied: `logged` of them go to the log
    /// (`journalInputs`, next), `refused` never will (the `stored` watermark).
    case applied([(client: Client, logged: Int, refused: Int)], tick: UInt64)
    /// Log the inputs applied in the step that made `tick`.
    case journalInputs([CheckedInput], tick: UInt64)
    /// Store the exact state at `tick`.
    case snapshot([UInt8], tick: UInt64)
    /// A game ended (for the high-score table).
    case gameEnded(GameResult)
    /// The session's listing changed; also the progress to store.
    case publish(Progress)
    /// Answer an `inspect`.
    case reply(@Sendable (SessionState) -> Void, SessionState)
    /// Close this client's connection: its way in is no longer valid.
    case disconnect(Client, reason: String)
    /// An input was refused at its step (it would have changed nothing) and not logged: tell
    /// its sender (when known) and give back the room it took in the log's bound (`bytes`, its
    /// size as logged).
    case refused(reason: String, from: Client?, bytes: Int)
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
    /// On demand: also a snapshot once this many inputs were logged since the last one, so
    /// that the log compacted behind the snapshots stays within its bound
    /// (`InputLogCap.snapshotEvery`) however many inputs a tick carries.
    var snapshotInputs = Int.max
    /// Most events sent in one tick; the rest are counted in a `dropped` event.
    var maxEventsPerTick = 32
    /// What advances the session: the game loop's ticks or its controller's steps.
    var clock = SessionClock.realtime
  }

  let id: String
  let configuration: Configuration
  private(set) var model: any Simulation
  private(set) var phase: Phase
  private(set) var clients: [(client: Client, role: SessionRole)] = []
  /// Seconds since 1970 since which nobody is connected; nil while someone is.
  private(set) var idleSince: Double?
  private var waitingInputs: [(input: CheckedInput, from: Client?)] = []
  private var waitingSteps = 0
  private var lastSnapshotTick: UInt64
  /// Inputs logged since the last snapshot.
  private var inputsSinceSnapshot = 0
  /// The tokens of the model's seats (`SeatToken`) that controllers are told in `hello`.
  var seatTokens: [(seat: String, token: String)] = []
  /// The tick budget's latest word on this session, told in `status`.
  private(set) var budget = SessionBudget()
  /// The budget as the clients last heard it in a broadcast `status`, and when (seconds since
  /// 1970).
  private var announcedBudget = SessionBudget()
  private var announcedAt = -Double.infinity
  /// On demand: the tick whose frame the watchers last got, and the progress last published.
  private var shownTick: UInt64
  private var publishedTick: UInt64
  /// On demand: who asked for steps since the watchers' last frame (they had their frames).
  private var askers: [Client] = []
  /// On demand: whether a step since the watchers' last frame changed the frame
  /// (`Simulation.lastStepChangedFrame`).
  private var frameNews = true
  /// Realtime: the steps asked for with an `id`, each acknowledged to its client once the
  /// step that makes `tick` ran and its events went out (oldest first).
  private var stepAcks: [(tick: UInt64, client: Client, id: JSONValue)] = []

  /// What the session needs of the game loop when no command waits.
  enum Activity: UInt8, Sendable, Equatable {
    /// Nothing: stopped or paused with no steps asked for. It costs nothing until a command
    /// comes (a join, an input, a start).
    case idle
    /// A step every tick.
    case running
    /// Asked-for steps are waiting (stopped, `step N`).
    case stepping
  }

  /// - Parameter paused: a session stored as running that nobody watches yet (brought back
  ///   after a restart or from parking) starts paused for lack of spectators; the first join
  ///   resumes it where it was.
  init(
    id: String, model: any Simulation, running: Bool, paused: Bool = false,
    configuration: Configuration
  ) {
    self.id = id
    self.model = model
    self.phase = running ? (paused ? .pausedForIdle : .running) : .stopped
    self.configuration = configuration
    self.lastSnapshotTick = model.tick
    self.shownTick = model.tick
    self.publishedTick = model.tick
  }

  var isRunning: Bool { phase == .running }

  /// What it needs of the game loop until the next command.
  var activity: Activity {
    phase == .running ? .running : waitingSteps > 0 ? .stepping : .idle
  }

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
        stepAcks.removeAll { $0.client === client }
        changed = true
      case .start:
        changed = changed || phase != .running
        phase = .running
      case .stop:
        changed = changed || phase != .stopped
        phase = .stopped
      case .step(let count):
        if phase != .running { waitingSteps += count }
      case .stepFor(let client, let count, let id):
        guard phase != .running else {
          var refusal = ClientError(
            "running", "the session is running: send stop first (step advances a stopped session)")
          refusal.id = id
          perform(.send(.error(refusal), to: client))
          continue
        }
        waitingSteps += count
        if let id { stepAcks.append((model.tick + UInt64(waitingSteps), client, id)) }
      case .input(let input, let client):
        waitingInputs.append((input, client))
      case .query(let client, let query, let sender, let id):
        queries.append((client, query, sender, id))
      case .inspect(let reply):
        inspections.append(reply)
      case .renewSeats(let tokens):
        changed = renewSeats(tokens, perform: perform) || changed
      }
    }
    changed = pauseIfUnwatched(now: now) || changed

    for (client, role) in joined { greet(client, role: role, perform: perform) }

    var stepped = false
    if phase == .running {
      step(perform: perform)
      acknowledgeSteps(perform: perform)
      stepped = true
    } else if waitingSteps > 0 {
      // Asked-for steps run as fast as the time budget allows, not one per tick.
      repeat {
        waitingSteps -= 1
        step(perform: perform)
        acknowledgeSteps(perform: perform)
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
    // NB: hashing a big model's state costs milliseconds: only when someone asked.
    guard !inspections.isEmpty else { return }
    let state = SessionState(tick: model.tick, stateHash: model.stateHash, running: isRunning)
    for reply in inspections { perform(.reply(reply, state)) }
  }

  /// An on-demand session's work (off the tick): applies `commands` in order, running each
  /// `stepFor` at once (its frame to the client that asked, with its id, and to nobody else).
  mutating func drain(_ commands: [Command], now: Double, perform: (Action) -> Void) {
    var all = commands
    drain(&all, now: now, mayStep: { true }, perform: perform)
  }

  /// `drain` within a slice: each model step first asks `mayStep`; when it says no, the rest
  /// of that `stepFor` and the commands after it are left in `commands` for the next slice.
  mutating func drain(
    _ commands: inout [Command], now: Double, mayStep: () -> Bool, perform: (Action) -> Void
  ) {
    var changed = false
    var done = 0
    work: while done < commands.count {
      switch commands[done] {
      case .join(let client, let role):
        clients.append((client, role))
        greet(client, role: role, perform: perform)
        changed = true
      case .leave(let client):
        clients.removeAll { $0.client === client }
        askers.removeAll { $0 === client }
        changed = true
      case .start, .stop, .step:
        // NB: the socket handler refuses `start` and `step` for an on-demand session.
        break
      case .stepFor(let client, let count, let id):
        var left = count
        while left > 0 && mayStep() {
          step(broadcastingFrame: false, perform: perform)
          left -= 1
        }
        if left > 0 {
          commands[done] = .stepFor(client, count: left, id: id)
          break work
        }
        perform(.send(.stepped(model, id: id), to: client))
        if !askers.contains(where: { $0 === client }) { askers.append(client) }
      case .input(let input, let client):
        waitingInputs.append((input, client))
      case .query(let client, let query, let sender, let id):
        perform(.send(answer(query, sentBy: sender, id: id), to: client))
      case .inspect(let reply):
        perform(
          .reply(reply, SessionState(tick: model.tick, stateHash: model.stateHash, running: false)))
      case .renewSeats(let tokens):
        changed = renewSeats(tokens, perform: perform) || changed
      }
      done += 1
    }
    commands.removeFirst(done)
    changed = pauseIfUnwatched(now: now) || changed
    if changed && !clients.isEmpty {
      perform(.broadcast(.status(status), to: clients.map(\.client), .reliable))
    }
    if changed { publish(now: now, perform: perform) }
  }

  /// A batch step (`/ws/batch`, an on-demand session): `inputs` go to the next step, then up
  /// to `count` steps run while `mayStep` allows, their frames shown on the tick as any
  /// on-demand step's are (`show`). Returns how many of `count` are left for the next slice.
  mutating func stepBatch(
    _ inputs: [CheckedInput], count: Int, mayStep: () -> Bool, perform: (Action) -> Void
  ) -> Int {
    for input in inputs { waitingInputs.append((input, nil)) }
    var left = count
    while left > 0 && mayStep() {
      step(broadcastingFrame: false, perform: perform)
      left -= 1
    }
    return left
  }

  /// An on-demand session on the game loop's tick: the watchers get the latest frame (those
  /// who asked for steps since the last one have theirs), and listings and the store the tick.
  mutating func show(now: Double, perform: (Action) -> Void) {
    if model.tick != shownTick {
      shownTick = model.tick
      // NB: when no step changed the frame, what the watchers have is still the state.
      let watchers = clients.map(\.client).filter { client in
        frameNews && !askers.contains { $0 === client }
      }
      frameNews = false
      if !watchers.isEmpty { perform(.broadcast(.frame(model), to: watchers, .stream)) }
    }
    askers.removeAll()
    if model.tick != publishedTick { publish(now: now, perform: perform) }
  }

  private mutating func publish(now: Double, perform: (Action) -> Void) {
    publishedTick = model.tick
    perform(.publish(progress(now: now)))
  }

  /// Takes the tick budget's word on this session (`TickBudget.state(of:)`), for its status.
  mutating func budgeted(_ budget: SessionBudget) {
    self.budget = budget
  }

  /// The exact state, to store now (a clean shutdown).
  mutating func snapshotNow() -> (state: [UInt8], tick: UInt64) {
    lastSnapshotTick = model.tick
    inputsSinceSnapshot = 0
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

  private mutating func step(broadcastingFrame: Bool = true, perform: (Action) -> Void) {
    let waiting = waitingInputs
    waitingInputs.removeAll(keepingCapacity: true)
    var refused: [Int: String] = [:]
    let events = model.step(checked: waiting.map(\.input), refused: &refused)
    let tick = model.tick
    let changedFrame = model.lastStepChangedFrame
    if changedFrame { frameNews = true }
    // An input that would have changed nothing is refused to its sender and never logged.
    var inputs: [CheckedInput] = []
    inputs.reserveCapacity(waiting.count)
    for (index, (input, client)) in waiting.enumerated() {
      guard let reason = refused[index] else {
        inputs.append(input)
        continue
      }
      perform(.refused(reason: reason, from: client, bytes: input.loggedSize))
    }
    for event in events {
      if case .gameOver(let score, let level) = event.meaning {
        perform(.gameEnded(GameResult(tick: tick, score: score, level: level)))
      }
    }
    let senders = Self.senders(waiting, refused: refused)
    if !senders.isEmpty { perform(.applied(senders, tick: tick)) }
    if !inputs.isEmpty { perform(.journalInputs(inputs, tick: tick)) }
    inputsSinceSnapshot += inputs.count
    if tick - lastSnapshotTick >= configuration.snapshotInterval
      || configuration.clock == .onDemand && inputsSinceSnapshot >= configuration.snapshotInputs
    {
      lastSnapshotTick = tick
      inputsSinceSnapshot = 0
      perform(.snapshot(model.snapshot(), tick: tick))
    }
    guard !clients.isEmpty else { return }
    let everyone = clients.map(\.client)
    // Running, a frame a loop has not sent before the next one is stale, and a step that
    // changed nothing visible sends none; each asked-for step's frame is sent (the protocol
    // promises one per step).
    if broadcastingFrame && (changedFrame || !isRunning) {
      perform(.broadcast(.frame(model), to: everyone, isRunning ? .stream : .latestOnly))
    }
    let messages = ServerMessage.events(events, tick: tick, limit: configuration.maxEventsPerTick)
    for message in messages { perform(.broadcast(message, to: everyone, .reliable)) }
  }

  /// How many of each connection's `waiting` inputs were logged and `refused`, in the order
  /// the connections first appear.
  private static func senders(
    _ waiting: [(input: CheckedInput, from: Client?)], refused: [Int: String]
  ) -> [(client: Client, logged: Int, refused: Int)] {
    var senders: [(client: Client, logged: Int, refused: Int)] = []
    for (index, (_, client)) in waiting.enumerated() {
      guard let client else { continue }
      let slot =
        senders.firstIndex { $0.client === client }
        ?? {
          senders.append((client, 0, 0))
          return senders.count - 1
        }()
      if refused[index] == nil { senders[slot].logged += 1 } else { senders[slot].refused += 1 }
    }
    return senders
  }

  /// Acknowledges the asked-for steps whose last tick ran: after that tick's frame and events.
  private mutating func acknowledgeSteps(perform: (Action) -> Void) {
    while let first = stepAcks.first, first.tick <= model.tick {
      stepAcks.removeFirst()
      perform(.send(.ack(id: first.id), to: first.client))
    }
  }

  /// Takes the owner's new seat links and disconnects every guest who joined with an old one;
  /// whether anyone was disconnected.
  private mutating func renewSeats(
    _ tokens: [(seat: String, token: String)], perform: (Action) -> Void
  ) -> Bool {
    seatTokens = tokens
    let guests = clients.filter { $0.role.sender != .controller && $0.role != .spectator }
    clients.removeAll { $0.role.sender != .controller && $0.role != .spectator }
    for guest in guests {
      perform(
        .disconnect(guest.client, reason: "the owner replaced this link; ask for the new one"))
    }
    return !guests.isEmpty
  }

  /// The model's answer to a query, or the error that names what stops it.
  func answer(_ query: JSONValue, sentBy sender: Sender?, id: JSONValue?) -> ServerMessage {
    let name = query["type"]?.stringValue ?? ""
    do {
      return .answer(query: name, body: try model.answer(query, sentBy: sender), id: id)
    } catch {
      let code = error.kind == .refused ? "refused" : "bad-field"
      var refusal = ClientError(code, error.description, field: error.field)
      refusal.id = id
      return .error(refusal)
    }
  }

  private func count(_ role: SessionRole) -> Int { clients.count { $0.role == role } }
}
