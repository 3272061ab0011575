import Dispatch
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
/// at a time, on the tick or off it (a `StepJob` of the `StepScheduler`), never both at once;
/// `using` still guards the machine, because a delete or a shutdown comes from other threads.
///
/// A session with nothing to do (`wantsTick` false: stopped or paused, no command waiting)
/// is not advanced at all, so it costs nothing.
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
  /// Whether an on-demand session has a job submitted to `onDemand` (one at a time).
  private let drainWaiting = Atomic<Bool>(false)
  /// Whether an on-demand session stepped since the game loop last showed it.
  private let news = Atomic<Bool>(false)
  /// When an on-demand session was last shown (`clock`, nanoseconds).
  private let lastShown = Atomic<UInt64>(0)

  /// Most commands waiting for one tick; a client sending faster is told to slow down.
  static let maxPendingCommands = 512
  /// Most events sent in one tick; the rest are counted in a `dropped` event.
  static let maxEventsPerTick = 32
  private let inbox = Mutex<[SessionCommand]>([])
  /// Connections joined or joining: counted when the join is sent, not when the next tick
  /// applies it, so that nothing reads a watched session as unwatched in between.
  private let connections = Atomic<Int>(0)
  /// The machine's `Activity` after its last tick.
  private let activity: Atomic<UInt8>
  /// Whether its model is still being rebuilt from storage (`SessionCatchUp`): until then it
  /// takes no tick, and joiners wait in the inbox for their `hello`.
  private let restoring: Atomic<Bool>
  /// The model's `nextStepIsHeavy` after its last tick.
  private let heavyNext: Atomic<Bool>
  /// The model's `inputsMayMakeNextStepHeavy`: a step with inputs is then never on the tick.
  private let heavyInputs: Atomic<Bool>
  /// Ticks run (`advance` calls), for tests and statistics.
  private let advances = Atomic<UInt64>(0)
  /// Called when a command is queued, to wake a game loop that sleeps for lack of work.
  private let wake: @Sendable () -> Void
  /// Numbers the frames, so that an event loop that falls behind skips stale ones.
  private let frameStream = BroadcastStream()
  private let published: Mutex<SessionSummary>
  /// Which seat links are valid (`SeatToken`): raised each time the owner replaces them.
  private let seatLinks: Mutex<Int64>
  /// The bound on the session's log that admitted its inputs, given back an input's room when
  /// the input is refused unlogged.
  var inputLog: InputLogCap? {
    get { inputLogCap.withLock { $0 } }
    set { inputLogCap.withLock { $0 = newValue } }
  }
  private let inputLogCap = Mutex<InputLogCap?>(nil)
  /// Where big hellos take their turn, charged to their joiners (set on adoption).
  var helloWork: HelloWork? {
    get { helloWorkCap.withLock { $0 } }
    set { helloWorkCap.withLock { $0 = newValue } }
  }
  private let helloWorkCap = Mutex<HelloWork?>(nil)
  /// Where the questions this session answers are given back to their askers (set on adoption).
  var queryLimiter: QueryLimiter? {
    get { queryLimiterCap.withLock { $0 } }
    set { queryLimiterCap.withLock { $0 = newValue } }
  }
  private let queryLimiterCap = Mutex<QueryLimiter?>(nil)
  /// Who each joining socket is (`joins(_:as:)`), until its hello is on its way.
  private let joiners = Mutex<[ObjectIdentifier: ClientKey]>([:])
  /// Bytes of JSON of the last hello encoded: with the model's estimate, what tells whether the
  /// next is big (`HelloWork.isBig`).
  private let lastHelloBytes = Atomic<Int>(0)
  /// Sockets whose `hello` a worker is encoding, with what was sent them meanwhile, in order:
  /// it goes out after the `hello`.
  private let joining = Mutex<[ObjectIdentifier: [ServerMessage]]>([:])

  /// Where hellos are encoded and compressed: off the game loop and the event loops, since a
  /// big canvas's whole picture is megabytes of JSON.
  static let helloWorkers = DispatchQueue(
    label: "playfield.hellos", qos: .utility, attributes: .concurrent)

  /// Held while the machine is used: a step (on the tick, or off it for a heavy session) and
  /// a delete or shutdown from another thread never overlap.
  private let using = Mutex(())
  /// A close asked for by a delete; done by whoever next holds the machine.
  private let closing = Mutex<(code: WebSocketCloseCode, reason: String)?>(nil)

  // Used under `using`, by the step and by a delete or shutdown.
  private var machine: SessionMachine<WebSocket>
  private var encoder = FanOutEncoder(level: 1)
  private var writer = JSONWriter(capacity: 1024)
  /// On demand: commands a slice left for the next (a step longer than one slice).
  private var leftover: [SessionCommand] = []

  var kind: String { type.kind }

  /// What advances the session.
  var sessionClock: SessionClock { onDemand == nil ? .realtime : .onDemand }

  init(
    id: String, model: any Simulation, seed: UInt64, tokenHash: String, createdAt: Double,
    running: Bool, journal: SessionJournal?, idlePause: Double,
    clock: @escaping @Sendable () -> MonotonicTime, isShowcase: Bool = false,
    seatGeneration: Int64 = 0, paused: Bool = false, wake: @escaping @Sendable () -> Void = {},
    onDemand: OnDemandSteps? = nil, restoring: Bool = false, snapshotInputs: Int = .max
  ) {
    self.restoring = Atomic(restoring)
    self.seatLinks = Mutex(seatGeneration)
    self.clock = clock
    self.wake = wake
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
    configuration.snapshotInputs = snapshotInputs
    self.machine = SessionMachine(
      id: id, model: model, running: running, paused: paused, configuration: configuration)
    self.activity = Atomic(machine.activity.rawValue)
    self.heavyNext = Atomic(model.nextStepIsHeavy)
    self.heavyInputs = Atomic(model.inputsMayMakeNextStepHeavy)
    machine.seatTokens = SeatToken.tokens(
      of: type, tokenHash: tokenHash, generation: seatGeneration
    ).map { ($0.seat.name, $0.token) }
    var summary = SessionSummary(
      id: id, kind: Swift.type(of: model).kind, running: running && !paused, tick: model.tick,
      spectators: 0, controllers: 0, createdAt: createdAt, updatedAt: createdAt,
      config: model.config,
      lastGame: model.finishedGame.map {
        GameResult(tick: model.tick, score: $0.score, level: $0.level)
      }, clock: onDemand == nil ? .realtime : .onDemand)
    summary.paused = running && paused
    self.published = Mutex(summary)
  }

  // MARK: Any thread

  /// Queues a command for the next tick; false when too many are waiting.
  @discardableResult
  func send(_ command: SessionCommand) -> Bool {
    if case .query(let socket, let query, let sender, let id) = command,
      answerNow(query, sentBy: sender, id: id, to: socket)
    {
      answered([command], left: [])
      return true
    }
    let queued = inbox.withLock { commands in
      guard commands.count < Self.maxPendingCommands || command.isMembership else { return false }
      commands.append(command)
      return true
    }
    guard queued else { return false }
    switch command {
    case .join: connections.add(1, ordering: .relaxed)
    case .leave(let socket):
      connections.subtract(1, ordering: .relaxed)
      joiners.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(socket)) }
    default: break
    }
    guard onDemand == nil else {
      submitDrain()
      return true
    }
    wake()
    return true
  }

  /// Answers a query at once, on the caller's thread (microseconds of reading the model),
  /// when a realtime session's machine is free and nothing waits before the query in its
  /// inbox, so the answer is the state after everything sent before it; else false, and it
  /// waits for the next tick like any command. NB: never waits for a tick under way.
  private func answerNow(
    _ query: JSONValue, sentBy sender: Sender?, id: JSONValue?, to socket: WebSocket
  ) -> Bool {
    guard onDemand == nil, !isRestoring else { return false }
    let answer: ServerMessage?? = using.withLockIfAvailable { _ in
      guard inbox.withLock({ $0.isEmpty }) else { return nil }
      return machine.answer(query, sentBy: sender, id: id)
    }
    guard let answer = answer ?? nil else { return false }
    perform(.send(answer, to: socket))
    return true
  }

  /// An on-demand session: submits a job to drain the inbox unless one is waiting to.
  private func submitDrain() {
    guard let onDemand, !drainWaiting.exchange(true, ordering: .acquiringAndReleasing) else {
      return
    }
    onDemand.submit(
      id, work: { [self] now, slice in drain(now: now, slice: &slice) },
      completion: { [self] outcome in
        guard outcome != .finished else { return }
        // NB: refused (the owner has too many jobs) or cancelled: the commands wait in the
        // inbox, and the game loop's next tick of this session submits the job again.
        drainWaiting.store(false, ordering: .sequentiallyConsistent)
        news.store(true, ordering: .sequentiallyConsistent)
        wake()
      })
  }

  /// Records who `socket` is before it joins, so that a big `hello` is charged to `client`.
  func joins(_ socket: WebSocket, as client: ClientKey) {
    joiners.withLock { $0[ObjectIdentifier(socket)] = client }
  }

  /// Whether anyone is connected or joining (the park-idle check).
  var isWatched: Bool { connections.load(ordering: .relaxed) > 0 }

  /// A `/ws/batch` connection drives the session from now until `detached()`: it counts as a
  /// connection, so the session is not parked under its driver (a parked session left attached
  /// would go on stepping beside the copy brought back from storage).
  func attached() { connections.add(1, ordering: .relaxed) }

  /// The `/ws/batch` connection that drove the session closed.
  func detached() { connections.subtract(1, ordering: .relaxed) }

  /// Whether the next tick has anything to do: it runs, steps were asked for, or a command
  /// waits. False for a stopped or paused session left alone: it is not advanced at all.
  var wantsTick: Bool {
    // NB: joins and commands wait until the model is where it was.
    if isRestoring { return false }
    // An on-demand session wants a tick only to show what its steps did: every tick while
    // someone watches, else (listings and the store's tick) at most every
    // `unwatchedShowInterval`, so that sessions stepped flat out cost the tick nothing.
    if onDemand != nil {
      guard news.load(ordering: .relaxed) else { return false }
      return isWatched
        || clock().nanoseconds >= lastShown.load(ordering: .relaxed) &+ Self.unwatchedShowInterval
    }
    return activity.load(ordering: .relaxed) != SessionMachine<WebSocket>.Activity.idle.rawValue
      || inbox.withLock { !$0.isEmpty }
  }

  /// An on-demand session whose steps are not shown yet (`wantsTick` may still say not now):
  /// the game loop must not sleep. Nor is it parked meanwhile: its steps' tick is neither
  /// listed nor stored until they are shown, and steps without inputs leave nothing in the
  /// log, so parked now it would come back without them.
  var waitsToShow: Bool { onDemand != nil && news.load(ordering: .relaxed) }

  /// How often an on-demand session nobody watches is shown at most (nanoseconds): its
  /// listing's and the store's tick; the store writes every 250 ms anyway.
  static let unwatchedShowInterval: UInt64 = 250_000_000

  /// Whether its next tick steps without being asked each time (running), as opposed to
  /// asked-for steps, which are jobs of the step scheduler.
  var isRunning: Bool {
    // NB: an on-demand session's tick only shows it (cheap, and never a model step), so it
    // runs on the tick rather than as a job that would take one of its owner's places.
    if onDemand != nil { return true }
    return activity.load(ordering: .relaxed) == SessionMachine<WebSocket>.Activity.running.rawValue
  }

  /// Whether its model is still being rebuilt from storage.
  var isRestoring: Bool { restoring.load(ordering: .acquiring) }

  /// The rebuilt model takes the stand-in's place (a `SessionCatchUp` finished): the session
  /// is where it was stored, paused until someone joins, and the joiners that waited get their
  /// `hello` on the next tick.
  func restored(_ model: any Simulation, running: Bool) {
    using.withLock { _ in
      let configuration = machine.configuration
      let seats = machine.seatTokens
      machine = SessionMachine(
        id: id, model: model, running: running, paused: running, configuration: configuration)
      machine.seatTokens = seats
      activity.store(machine.activity.rawValue, ordering: .relaxed)
      heavyNext.store(model.nextStepIsHeavy, ordering: .relaxed)
      heavyInputs.store(model.inputsMayMakeNextStepHeavy, ordering: .relaxed)
      published.withLock { summary in
        summary.tick = model.tick
        summary.lastGame = model.finishedGame.map {
          GameResult(tick: model.tick, score: $0.score, level: $0.level)
        }
      }
    }
    restoring.store(false, ordering: .releasing)
    if onDemand != nil, inbox.withLock({ !$0.isEmpty }) { submitDrain() }
    wake()
  }

  /// Listings show the tick a session being rebuilt was stored at, not its stand-in's.
  func restoring(to tick: UInt64) {
    published.withLock { $0.tick = tick }
  }

  /// The rebuild failed: whoever waited to join is closed with `reason`.
  func restoreFailed(_ code: WebSocketCloseCode, reason: String) {
    let waiting = inbox.withLock { commands in
      defer { commands.removeAll() }
      return commands
    }
    for case .join(let socket, _) in waiting { socket.close(code, reason: reason) }
  }

  /// Whether its next step is heavy (`Simulation.nextStepIsHeavy`, or inputs wait and the
  /// model says they may make it heavy): the game loop runs it as a job of the step scheduler,
  /// off the realtime tick.
  var nextStepIsHeavy: Bool {
    heavyNext.load(ordering: .relaxed)
      || (heavyInputs.load(ordering: .relaxed) && inbox.withLock { $0.contains(where: \.isInput) })
  }

  /// How many ticks it has run.
  var advanceCount: UInt64 { advances.load(ordering: .relaxed) }

  /// The latest published state, for listings.
  var summary: SessionSummary { published.withLock { $0 } }

  /// The generation of seat links now valid.
  var seatGeneration: Int64 { seatLinks.withLock { $0 } }

  /// The seat links now valid, with their tokens.
  var seatTokens: [(seat: Seat, token: String)] {
    SeatToken.tokens(of: type, tokenHash: tokenHash, generation: seatGeneration)
  }

  /// Replaces the seat links: stores the new generation (throws, changing nothing, if it
  /// cannot), then refuses the old links and disconnects the guests who used them.
  func renewSeatLinks() throws -> [(seat: Seat, token: String)] {
    let tokens = try seatLinks.withLock { generation in
      let next = try journal?.renewSeatLinks(sessionID: id) ?? generation + 1
      generation = max(next, generation + 1)
      return SeatToken.tokens(of: type, tokenHash: tokenHash, generation: generation)
    }
    send(.renewSeats(tokens.map { ($0.seat.name, $0.token) }))
    return tokens
  }

  // MARK: Game loop

  /// Runs one tick of the session's machine at `now` (seconds since 1970), under what the tick
  /// budget says of it, and carries out what it asks; asked-for steps go on while
  /// `mayStepAgain` says so (a `StepSlice`). On the tick (`offTick` false), a model whose
  /// inputs may make a step heavy takes none: they and what follows them wait for a job.
  func advance(
    now: Double, budget: SessionBudget, offTick: Bool = false,
    mayStepAgain: () -> Bool = { false }
  ) {
    advances.add(1, ordering: .relaxed)
    if onDemand != nil {
      news.store(false, ordering: .sequentiallyConsistent)
      lastShown.store(clock().nanoseconds, ordering: .relaxed)
      // NB: never waits on the tick for a slice under way; the next tick shows it.
      let shown: Void? = using.withLockIfAvailable { _ in
        machine.budgeted(budget)
        machine.show(now: now, perform: { perform($0) })
      }
      if shown == nil { news.store(true, ordering: .sequentiallyConsistent) }
      closeIfAsked()
      if inbox.withLock({ !$0.isEmpty }) { submitDrain() }
      return
    }
    // NB: fenced before anything applies: commands wait in the inbox meanwhile.
    guard journal?.mayApply(sessionID: id) ?? true else {
      closeIfAsked()
      return
    }
    using.withLock { _ in
      machine.budgeted(budget)
      let holdInputs = !offTick && heavyInputs.load(ordering: .relaxed)
      let commands = inbox.withLock { commands in
        // NB: in order: commands sent after an input wait with it.
        let end =
          holdInputs ? commands.firstIndex(where: \.isInput) ?? commands.count : commands.count
        let taken = Array(commands[..<end])
        commands.removeFirst(end)
        return taken
      }
      machine.tick(commands, now: now, mayStepAgain: mayStepAgain, perform: { perform($0) })
      answered(commands, left: [])
      activity.store(machine.activity.rawValue, ordering: .relaxed)
      heavyNext.store(machine.model.nextStepIsHeavy, ordering: .relaxed)
    }
    closeIfAsked()
  }

  /// One slice of an on-demand session's job (`OnDemandSteps`): what the last slice left and
  /// everything its clients sent since, in order, each `step` run while `slice` allows; then
  /// the game loop is woken to show it. `.more` while commands are left.
  private func drain(now: Double, slice: inout StepSlice) -> StepJob.Progress {
    // NB: commands wait until the model is where it was stored; `restored` drains them then.
    if isRestoring {
      drainWaiting.store(false, ordering: .sequentiallyConsistent)
      // Restored meanwhile: its own submit may have found this job still waiting.
      guard !isRestoring, inbox.withLock({ !$0.isEmpty }) else { return .done }
      return drainWaiting.exchange(true, ordering: .acquiringAndReleasing) ? .done : .more
    }
    guard journal?.mayApply(sessionID: id) ?? true else {
      // Fenced (see `advance`): the commands wait, those a slice left first; the game loop's
      // next tick submits the job again (`news` makes it look).
      using.withLock { _ in
        inbox.withLock { $0.insert(contentsOf: leftover, at: 0) }
        leftover.removeAll()
      }
      drainWaiting.store(false, ordering: .sequentiallyConsistent)
      news.store(true, ordering: .sequentiallyConsistent)
      return .done
    }
    let left = using.withLock { _ -> Bool in
      leftover += inbox.withLock { commands in
        let taken = commands
        commands.removeAll(keepingCapacity: true)
        return taken
      }
      guard !leftover.isEmpty else { return false }
      let taken = leftover
      machine.drain(
        &leftover, now: now, mayStep: { slice.mayStep() }, perform: { perform($0) })
      answered(taken, left: leftover)
      return !leftover.isEmpty
    }
    closeIfAsked()
    news.store(true, ordering: .sequentiallyConsistent)
    wake()
    if left { return .more }
    // One job per session: a command that came after the inbox was taken is this job's too.
    drainWaiting.store(false, ordering: .sequentiallyConsistent)
    guard inbox.withLock({ !$0.isEmpty }) else { return .done }
    return drainWaiting.exchange(true, ordering: .acquiringAndReleasing) ? .done : .more
  }

  /// What one session's part of a batch step did.
  enum BatchPart: Equatable {
    /// Stepped; `left` ticks of the count remain for the next slice.
    case stepped(left: Int, tick: UInt64)
    /// Deleted: nothing applied.
    case deleted
    /// This process may not apply anything to it now (its lease, `SessionJournal.mayApply`):
    /// nothing applied this time, its inputs given back to the log's bound.
    case fenced(tick: UInt64)
  }

  /// One session's part of a batch step (`BatchStep`, on the step scheduler's thread or an
  /// event loop): applies `inputs`, steps up to `count` ticks while `mayStep` allows, and when
  /// none is left appends the model's values (`BatchStepping`) to `values`.
  func stepBatch(
    _ inputs: [CheckedInput], count: Int, mayStep: () -> Bool, values: inout BatchValues
  ) -> BatchPart {
    guard closing.withLock({ $0 == nil }) else { return .deleted }
    // NB: fenced before anything applies, as `advance` and `drain`.
    guard journal?.mayApply(sessionID: id) ?? true else {
      for input in inputs { inputLog?.refund(id, bytes: input.loggedSize) }
      return .fenced(tick: using.withLock { _ in machine.model.tick })
    }
    let result = using.withLock { _ -> BatchPart in
      let left = machine.stepBatch(inputs, count: count, mayStep: mayStep) { perform($0) }
      if left == 0, let model = machine.model as? any BatchStepping {
        model.writeBatchValues(into: &values)
      }
      return .stepped(left: left, tick: machine.model.tick)
    }
    news.store(true, ordering: .sequentiallyConsistent)
    wake()
    closeIfAsked()
    return result
  }

  /// The names of the model's batch values (`BatchStepping`); empty for a model without.
  var batchFields: [String] {
    using.withLock { _ in (machine.model as? any BatchStepping)?.batchFields ?? [] }
  }

  /// Gives back to their askers the questions of `commands` answered (those not still `left`).
  private func answered(_ commands: [SessionCommand], left: [SessionCommand]) {
    guard let queryLimiter else { return }
    var counts: [ObjectIdentifier: Int] = [:]
    for case .query(let socket, _, _, _) in commands {
      counts[ObjectIdentifier(socket), default: 0] += 1
    }
    for case .query(let socket, _, _, _) in left {
      counts[ObjectIdentifier(socket), default: 0] -= 1
    }
    for (socket, count) in counts where count > 0 { queryLimiter.end(socket: socket, count: count) }
  }

  /// The state the journal saves to end a session for good.
  func endForShutdown() -> (tick: UInt64, running: Bool) {
    using.withLock { _ in (machine.model.tick, machine.isRunning) }
  }

  /// Takes a snapshot now (for a clean shutdown).
  func snapshotNow() {
    // NB: a session still being rebuilt is stored further on than its stand-in model.
    guard !isRestoring else { return }
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
    case .send(.hello(let hello), let socket):
      greet(socket, hello)
    case .send(let message, let socket):
      if !ready(message, for: [socket]).isEmpty { socket.send(message) }
    case .broadcast(let message, let sockets, let delivery):
      broadcast(message, to: ready(message, for: sockets), delivery)
    case .journalInputs(let inputs, let tick):
      journal?.inputs(sessionID: id, tick: tick, inputs: inputs, packed: onDemand != nil)
    case .snapshot(let state, let tick):
      journal?.snapshot(sessionID: id, tick: tick, state: state)
      // NB: the store compacts an on-demand session's log behind its snapshots (one kept in
      // memory only stores nothing, and is bounded the same way).
      if onDemand != nil { inputLog?.snapshotted(id) }
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
    case .disconnect(let socket, let reason):
      socket.close(.policyViolation, reason: reason)
    case .refused(let reason, let socket, let bytes):
      inputLog?.refund(id, bytes: bytes)
      if let socket { perform(.send(.error(ClientError("refused", reason)), to: socket)) }
    }
  }

  /// Sends a joining socket its `hello` from a worker: encoded and compressed there (the event
  /// loop only writes the bytes), then whatever the game loop sent it meanwhile, in order.
  /// Every one is charged to its joiner (`HelloWork.charge`); a big one, or one past the
  /// joiner's recent hello bytes, takes a turn of `helloWork`.
  private func greet(_ socket: WebSocket, _ hello: ServerMessage.Hello) {
    let estimate = hello.model.helloBytesEstimate
    let hello = ServerMessage.hello(hello)
    let key = ObjectIdentifier(socket)
    joining.withLock { $0[key] = [] }
    let client = joiners.withLock { $0.removeValue(forKey: key) }
    let encode: @Sendable () -> Void = { [self] in
      var writer = JSONWriter(capacity: 1 << 16)
      hello.write(into: &writer)
      lastHelloBytes.store(writer.bytes.count, ordering: .relaxed)
      let encoder = FanOutEncoder(level: 1)
      let windows = socket.compressionWindowBits.map { Set([$0]) } ?? []
      socket.send(encoder.encode(utf8: writer.bytes, windows: windows))
      // NB: under the lock, so that the game loop sends nothing newer before these.
      joining.withLock { table in
        for message in table.removeValue(forKey: key) ?? [] { socket.send(message) }
      }
    }
    guard let client, let helloWork,
      helloWork.charge(
        client, estimate: estimate, lastBytes: lastHelloBytes.load(ordering: .relaxed))
    else { return Self.helloWorkers.async(execute: encode) }
    helloWork.submit(
      HelloWork.Job(
        client: client, encode: encode,
        refuse: { [self] reason in
          joining.withLock { _ = $0.removeValue(forKey: key) }
          socket.close(.tryAgainLater, reason: reason)
        }))
  }

  /// Keeps `message` for those of `sockets` still waiting for their `hello`, and returns the
  /// others, to send it now.
  ///
  /// NB: one lock for all of them, and `sockets` itself when nobody is joining (nearly every
  /// tick): a frame to 2,500 spectators is then not copied, and no socket is looked up.
  private func ready(_ message: ServerMessage, for sockets: [WebSocket]) -> [WebSocket] {
    joining.withLock { table in
      guard !table.isEmpty else { return sockets }
      return sockets.filter { socket in
        let key = ObjectIdentifier(socket)
        guard table[key] != nil else { return true }
        table[key]!.append(message)
        return false
      }
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
