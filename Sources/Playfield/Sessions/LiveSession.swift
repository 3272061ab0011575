import Dispatch
import HTTP
import JSON
import Server
import Simulation
import Synchronization
import WebSocket

/// One running simulation: the commands waiting for it, and the I/O around its
/// `SessionMachine` (sockets, the journal, the published summary).
///
/// One owner at a time: the machine and what goes with it (`machine`, `encoder`, `writer`,
/// `leftover`) are touched only by the thread that holds the session's turn (`turn`): the game
/// loop's tick or show, a job of the step scheduler (a heavy or asked-for step, an on-demand
/// slice, a batch part), or briefly a snapshot, a restore or a shutdown. Every other thread
/// only posts to the `mailbox`: commands, and a close (delete, park, lost lease), which the
/// turn under way carries out before it ends, or the poster itself when no turn is under way
/// (`afterTurn`). Any thread may `send` commands or read `summary`.
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
  /// When an on-demand session was last shown (`clock`, nanoseconds).
  private let lastShown = Atomic<UInt64>(0)

  /// Most commands waiting for one tick; a client sending faster is told to slow down.
  static let maxPendingCommands = 512
  /// Most events sent in one tick; the rest are counted in a `dropped` event.
  static let maxEventsPerTick = 32
  /// Commands and orders waiting for the session's turn.
  private let mailbox: Mutex<SessionMailbox>
  /// Which of each connection's inputs are stored (`LiveSession+Stored`).
  let watermarks = Mutex(StoredWatermarks<WebSocket>())
  /// The watermark notices, sent in the order `watermarks` decided them (`notify`).
  let notices = OrderedOutbox<StoredWatermarks<WebSocket>.Notice>()
  /// The last tick whose inputs went to the journal, and the last the writer committed.
  let loggedThrough = Atomic<UInt64>(0)
  let storedThrough = Atomic<UInt64>(0)
  /// Connections joined or joining: counted when the join is sent, not when the next tick
  /// applies it, so that nothing reads a watched session as unwatched in between.
  private let connections = Atomic<Int>(0)
  /// The machine's `Activity` after its last tick.
  private let activity: Atomic<UInt8>
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

  /// Held by the session's one owner: whoever holds it alone touches the fields below.
  private let turn = Mutex(())

  // Used only under `turn`.
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
    self.mailbox = Mutex(SessionMailbox(restoring: restoring))
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

  /// Queues a command for the next tick; false when too many are waiting. A join to a
  /// session closed meanwhile (deleted, parked, lost) is closed with the close's reason.
  @discardableResult
  func send(_ command: SessionCommand) -> Bool {
    if case .query(let socket, let query, let sender, let id) = command,
      answerNow(query, sentBy: sender, id: id, to: socket)
    {
      answered([command], left: [])
      return true
    }
    let (queued, close) = mailbox.withLock {
      box -> (Bool, (code: WebSocketCloseCode, reason: String)?) in
      if let close = box.close { return (false, close) }
      guard box.commands.count < Self.maxPendingCommands || command.isMembership else {
        return (false, nil)
      }
      box.commands.append(command)
      return (true, nil)
    }
    switch command {
    case .join where queued: connections.add(1, ordering: .relaxed)
    case .leave(let socket):
      // NB: a leave is never refused for numbers. Once closed nothing is counted: the session
      // is out of the registry, and a join that came after the close was never counted.
      if queued { connections.subtract(1, ordering: .relaxed) }
      watermarks.withLock { $0.left(socket) }
      joiners.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(socket)) }
    default: break
    }
    if let (code, reason) = close {
      if case .join(let socket, _) = command { socket.close(code, reason: reason) }
      answered([command], left: [])
      return true
    }
    guard queued else { return false }
    guard onDemand == nil else {
      submitDrain()
      return true
    }
    wake()
    return true
  }

  /// Answers a query at once, on the caller's thread (microseconds of reading the model),
  /// when a realtime session's turn is free and nothing waits before the query in its
  /// mailbox, so the answer is the state after everything sent before it; else false, and it
  /// waits for the next tick like any command. NB: never waits for a turn under way.
  private func answerNow(
    _ query: JSONValue, sentBy sender: Sender?, id: JSONValue?, to socket: WebSocket
  ) -> Bool {
    guard onDemand == nil else { return false }
    let answer: ServerMessage?? = tryTurn {
      guard mailbox.withLock({ $0.commands.isEmpty && !$0.restoring && $0.close == nil }) else {
        return nil
      }
      return machine.answer(query, sentBy: sender, id: id)
    }
    guard let answer = answer ?? nil else { return false }
    perform(.send(answer, to: socket))
    return true
  }

  /// An on-demand session: submits a job to drain the mailbox unless one is submitted.
  private func submitDrain() {
    guard let onDemand,
      mailbox.withLock({ box in
        guard !box.drainSubmitted else { return false }
        box.drainSubmitted = true
        return true
      })
    else { return }
    onDemand.submit(
      id, work: { [self] now, slice in drain(now: now, slice: &slice) },
      completion: { [self] outcome in
        guard outcome != .finished else { return }
        // NB: refused (the owner has too many jobs) or cancelled: the commands wait in the
        // mailbox, and the game loop's next show of this session submits the job again.
        mailbox.withLock { box in
          box.drainSubmitted = false
          box.unshown = true
        }
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
  /// would go on stepping beside the copy brought back from storage). False, and not counted,
  /// when the session was closed (parked, deleted) first: its driver asks the registry again.
  /// NB: counted under the mailbox's lock, as `tryPark` checks, so the two never cross.
  func attached() -> Bool {
    mailbox.withLock { box in
      guard box.close == nil else { return false }
      connections.add(1, ordering: .relaxed)
      return true
    }
  }

  /// The `/ws/batch` connection that drove the session closed.
  func detached() { connections.subtract(1, ordering: .relaxed) }

  /// Whether the next tick has anything to do: it runs, steps were asked for, or a command
  /// waits. False for a stopped or paused session left alone: it is not advanced at all.
  var wantsTick: Bool {
    let (restoring, closed, unshown, waiting) = mailbox.withLock { box in
      (box.restoring, box.close != nil, box.unshown, !box.commands.isEmpty)
    }
    // NB: joins and commands wait until the model is where it was; a closed one is done.
    if restoring || closed { return false }
    // An on-demand session wants a tick only to show what its steps did: every tick while
    // someone watches, else (listings and the store's tick) at most every
    // `unwatchedShowInterval`, so that sessions stepped flat out cost the tick nothing.
    if onDemand != nil {
      guard unshown else { return false }
      return isWatched
        || clock().nanoseconds >= lastShown.load(ordering: .relaxed) &+ Self.unwatchedShowInterval
    }
    return activity.load(ordering: .relaxed) != SessionMachine<WebSocket>.Activity.idle.rawValue
      || waiting
  }

  /// An on-demand session whose steps are not shown yet (`wantsTick` may still say not now):
  /// the game loop must not sleep. Their tick is neither listed nor stored until they are
  /// shown (or the session parked: `tryPark(now:)` publishes it), and steps without inputs
  /// leave nothing in the log.
  var waitsToShow: Bool { onDemand != nil && mailbox.withLock { $0.unshown && $0.close == nil } }

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
  var isRestoring: Bool { mailbox.withLock { $0.restoring } }

  /// The rebuilt model takes the stand-in's place (a `SessionCatchUp` finished): the session
  /// is where it was stored, paused until someone joins, and the joiners that waited get their
  /// `hello` on the next tick.
  func restored(_ model: any Simulation, running: Bool) {
    withTurn {
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
    // NB: after the machine is in place, under the lock a drain job reads it with.
    let waiting = mailbox.withLock { box in
      box.restoring = false
      return !box.commands.isEmpty
    }
    if onDemand != nil, waiting { submitDrain() }
    wake()
  }

  /// Listings show the tick a session being rebuilt was stored at, not its stand-in's.
  func restoring(to tick: UInt64) {
    published.withLock { $0.tick = tick }
  }

  /// The rebuild failed: whoever waited to join is closed with `reason`.
  func restoreFailed(_ code: WebSocketCloseCode, reason: String) {
    disconnectAll(code, reason: reason)
  }

  /// Whether its next step is heavy (`Simulation.nextStepIsHeavy`, or inputs wait and the
  /// model says they may make it heavy): the game loop runs it as a job of the step scheduler,
  /// off the realtime tick.
  var nextStepIsHeavy: Bool {
    heavyNext.load(ordering: .relaxed)
      || (heavyInputs.load(ordering: .relaxed)
        && mailbox.withLock { $0.commands.contains(where: \.isInput) })
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

  // MARK: The turn

  /// Runs `body` as the session's one owner, waiting for the turn; what was asked meanwhile
  /// (a close) is carried out before the turn ends.
  private func withTurn<T: Sendable>(_ body: () -> T) -> T {
    let result = turn.withLock { _ in
      let result = body()
      carryOutOrders()
      return result
    }
    afterTurn()
    return result
  }

  /// `withTurn` if no turn is under way, else nil (the turn under way carries out the orders).
  private func tryTurn<T: Sendable>(_ body: () -> T) -> T? {
    let result = turn.withLockIfAvailable { _ in
      let result = body()
      carryOutOrders()
      return result
    }
    afterTurn()
    return result
  }

  /// An order posted while a turn was ending (after its `carryOutOrders`, before it let go)
  /// found the turn taken: the turn that ended carries it out now, unless a new one is under
  /// way (which will, when it ends).
  private func afterTurn() {
    while mailbox.withLock({ $0.closePending }) {
      guard turn.withLockIfAvailable({ _ in carryOutOrders() }) != nil else { return }
    }
  }

  /// Under `turn`: a close asked for is carried out: every client is closed, the joiners and
  /// commands still waiting too (their questions given back), and nothing applies after it.
  private func carryOutOrders() {
    let order = mailbox.withLock { box -> (WebSocketCloseCode, String, [SessionCommand])? in
      guard let close = box.close, !box.closed else { return nil }
      box.closed = true
      defer { box.commands.removeAll() }
      return (close.code, close.reason, box.commands)
    }
    guard let (code, reason, waiting) = order else { return }
    for socket in machine.removeAllClients() { socket.close(code, reason: reason) }
    for case .join(let socket, _) in waiting { socket.close(code, reason: reason) }
    answered(waiting, left: [])
  }

  /// Whether a close was asked for: nothing more applies.
  private var isClosing: Bool { mailbox.withLock { $0.close != nil } }

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
    if onDemand != nil { return show(now: now, budget: budget) }
    // NB: fenced before anything applies: commands wait in the mailbox meanwhile.
    guard journal?.mayApply(sessionID: id) ?? true else { return afterTurn() }
    withTurn {
      guard !isClosing else { return }
      machine.budgeted(budget)
      let holdInputs = !offTick && heavyInputs.load(ordering: .relaxed)
      let commands = mailbox.withLock { box in
        // NB: in order: commands sent after an input wait with it.
        let end =
          holdInputs
          ? box.commands.firstIndex(where: \.isInput) ?? box.commands.count : box.commands.count
        let taken = Array(box.commands[..<end])
        box.commands.removeFirst(end)
        return taken
      }
      machine.tick(commands, now: now, mayStepAgain: mayStepAgain, perform: { perform($0) })
      answered(commands, left: [])
      activity.store(machine.activity.rawValue, ordering: .relaxed)
      heavyNext.store(machine.model.nextStepIsHeavy, ordering: .relaxed)
    }
  }

  /// An on-demand session's tick: shows what its steps did (never a model step), unless a
  /// turn is under way (never waited for on the tick: the next tick shows it).
  private func show(now: Double, budget: SessionBudget) {
    mailbox.withLock { $0.unshown = false }
    lastShown.store(clock().nanoseconds, ordering: .relaxed)
    let shown: Bool? = tryTurn {
      guard !isClosing else { return false }
      machine.budgeted(budget)
      machine.show(now: now, perform: { perform($0) })
      return true
    }
    if shown == nil { mailbox.withLock { $0.unshown = true } }
    if mailbox.withLock({ !$0.commands.isEmpty }) { submitDrain() }
  }

  /// One slice of an on-demand session's job (`OnDemandSteps`): what the last slice left and
  /// everything its clients sent since, in order, each `step` run while `slice` allows; then
  /// the game loop is woken to show it. `.more` while commands are left.
  private func drain(now: Double, slice: inout StepSlice) -> StepJob.Progress {
    // NB: commands wait until the model is where it was stored (`restored` drains them
    // then); a closed session takes none.
    let idle = mailbox.withLock { box in
      guard box.restoring || box.close != nil else { return false }
      box.drainSubmitted = false
      return true
    }
    if idle { return .done }
    guard journal?.mayApply(sessionID: id) ?? true else {
      // Fenced (see `advance`): the commands wait, those a slice left first; the game loop's
      // next show submits the job again (`unshown` makes it look).
      withTurn {
        mailbox.withLock { box in
          box.commands.insert(contentsOf: leftover, at: 0)
          box.drainSubmitted = false
          box.unshown = true
        }
        leftover.removeAll()
      }
      return .done
    }
    var held = false
    let left = withTurn { () -> Bool in
      guard !isClosing else { return false }
      leftover += mailbox.withLock { box in
        defer { box.commands.removeAll(keepingCapacity: true) }
        return box.commands
      }
      guard !leftover.isEmpty else { return false }
      let taken = leftover
      machine.drain(
        &leftover, now: now,
        mayStep: {
          guard slice.mayStep() else { return false }
          held = !writerTakesStep()
          return !held
        }, perform: { perform($0) })
      answered(taken, left: leftover)
      return !leftover.isEmpty
    }
    // One job per session: a command that came after the mailbox was read is this job's too.
    let more = mailbox.withLock { box in
      box.unshown = true
      // NB: held back by the writer: the flush that makes room submits the job again.
      if held { return false }
      guard box.close == nil, left || !box.commands.isEmpty else {
        box.drainSubmitted = false
        return false
      }
      return true
    }
    wake()
    return more ? .more : .done
  }

  /// Whether the writer takes an on-demand session's next step now. Back-pressure for its
  /// own sockets, as for batch steps: while the writes waiting for the database are at their
  /// bound (or past half of it, for the owner filling it most), the step and everything after
  /// it wait in the mailbox, in order, and their frames come later; the flush that makes room
  /// submits the job again (`drainSubmitted` stays set meanwhile, so nothing else does).
  /// Joins, leaves and questions never wait. A database that cannot be written is not waited
  /// for here: its inputs are refused as they come (`InputLogCap.admit`, `storage-backlog`).
  private func writerTakesStep() -> Bool {
    guard let journal, let onDemand, journal.storageRefusal() == nil else { return true }
    return journal.whenWritable(payer: onDemand.payer(of: id), sessions: [id]) { [self] _ in
      mailbox.withLock { $0.drainSubmitted = false }
      submitDrain()
    }
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
    /// Still being rebuilt from storage: nothing applied yet; ask again in a later slice.
    case waiting
  }

  /// One session's part of a batch step (`BatchStep`, on the step scheduler's thread or an
  /// event loop): applies `inputs`, steps up to `count` ticks while `mayStep` allows, and when
  /// none is left appends the model's values (`BatchStepping`) to `values`.
  func stepBatch(
    _ inputs: [CheckedInput], count: Int, mayStep: () -> Bool, values: inout BatchValues
  ) -> BatchPart {
    let (closing, restoring) = mailbox.withLock { ($0.close != nil, $0.restoring) }
    guard !closing else { return .deleted }
    // NB: the stand-in of a session being rebuilt takes no step: the part waits for it.
    guard !restoring else { return .waiting }
    // NB: fenced before anything applies, as `advance` and `drain`.
    guard journal?.mayApply(sessionID: id) ?? true else {
      for input in inputs { inputLog?.refund(id, bytes: input.loggedSize) }
      return .fenced(tick: withTurn { machine.model.tick })
    }
    let result = withTurn { () -> BatchPart in
      guard !isClosing else { return .deleted }
      let left = machine.stepBatch(inputs, count: count, mayStep: mayStep) { perform($0) }
      if left == 0 { _ = machine.model.appendBatchValues(into: &values) }
      return .stepped(left: left, tick: machine.model.tick)
    }
    guard case .stepped = result else { return result }
    mailbox.withLock { $0.unshown = true }
    wake()
    return result
  }

  /// The names of the model's batch values (`BatchStepping`); empty for a model without.
  var batchFields: [String] {
    withTurn { (machine.model as? any BatchStepping)?.batchFields ?? [] }
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
    withTurn { (machine.model.tick, machine.isRunning) }
  }

  /// Takes a snapshot now (for a clean shutdown).
  func snapshotNow() {
    // NB: a session still being rebuilt is stored further on than its stand-in model.
    guard !isRestoring else { return }
    let (state, tick) = withTurn { machine.snapshotNow() }
    journal?.snapshot(sessionID: id, tick: tick, state: state)
  }

  /// Closes every client connection (the session is deleted, parked or lost): now, or at the
  /// end of the turn under way, so that a delete never waits for a heavy step. Nothing applies
  /// after it.
  func disconnectAll(_ code: WebSocketCloseCode, reason: String) {
    mailbox.withLock { box in
      if box.close == nil { box.close = (code, reason) }
    }
    afterTurn()
  }

  /// Parks the session (its registry let it go, to bring it back from storage later): closed
  /// as `disconnectAll`, and once the turn under way (a bounded slice) has ended, so that
  /// nothing of it is applied or logged after its lease is given up. The tick it parks at is
  /// queued for the store first (`now`, seconds since 1970, its time).
  /// False, and nothing done, when someone is connected or a batch attached it meanwhile
  /// (checked under the mailbox's lock, where `attached` counts).
  func tryPark(now: Double) -> Bool {
    let closing = mailbox.withLock { box in
      guard box.close == nil, connections.load(ordering: .relaxed) == 0 else { return false }
      box.close = (.tryAgainLater, "the session was parked to make room; reconnect")
      return true
    }
    guard closing else { return false }
    afterTurn()
    withTurn {
      // NB: an on-demand session's last steps reach the store with the game loop's next show,
      // which the close stops (a show that had cleared `unshown` but not yet taken its turn
      // published nothing, and the session came back from the store older than its clients
      // had been told). Its clients are gone here, so this only publishes.
      guard onDemand != nil, !isRestoring else { return }
      machine.show(now: now, perform: { perform($0) })
    }
    return true
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
    case .applied(let senders, let tick):
      guard journal != nil else { break }
      notify { marks in
        senders.flatMap {
          marks.applied(logged: $0.logged, refused: $0.refused, by: $0.client, at: tick)
        }
      }
    case .journalInputs(let inputs, let tick):
      // NB: before the journal has them, so a commit of them is never older than this.
      loggedThrough.store(tick, ordering: .sequentiallyConsistent)
      journal?.inputs(sessionID: id, tick: tick, inputs: inputs)
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
  /// Every one is charged to its joiner (`HelloWork.charge`, settled at its real size once
  /// encoded); a big one, or one past the joiner's recent hello bytes, takes a turn of
  /// `helloWork`.
  private func greet(_ socket: WebSocket, _ hello: ServerMessage.Hello) {
    let estimate = hello.model.helloBytesEstimate
    let hello = ServerMessage.hello(hello)
    let key = ObjectIdentifier(socket)
    joining.withLock { $0[key] = [] }
    let client = joiners.withLock { $0.removeValue(forKey: key) }
    let work = helloWork
    let charge = client.flatMap { client in
      work?.charge(client, estimate: estimate, lastBytes: lastHelloBytes.load(ordering: .relaxed))
    }
    let encode: @Sendable () -> Void = { [self] in
      var writer = JSONWriter(capacity: 1 << 16)
      hello.write(into: &writer)
      lastHelloBytes.store(writer.bytes.count, ordering: .relaxed)
      if let charge { work?.settle(charge, realBytes: writer.bytes.count) }
      let encoder = FanOutEncoder(level: 1)
      let windows = socket.compressionWindowBits.map { Set([$0]) } ?? []
      socket.send(encoder.encode(utf8: writer.bytes, windows: windows))
      // NB: under the lock, so that the game loop sends nothing newer before these.
      joining.withLock { table in
        for message in table.removeValue(forKey: key) ?? [] { socket.send(message) }
      }
    }
    guard let charge, charge.isBig, let work else {
      return Self.helloWorkers.async(execute: encode)
    }
    work.submit(
      HelloWork.Job(
        client: charge.client, encode: encode,
        refuse: { [self] reason in
          joining.withLock { _ = $0.removeValue(forKey: key) }
          socket.close(.tryAgainLater, reason: reason)
        }))
  }

  /// Sends `stored` and `unstored` notices, after the `hello` of a socket still joining.
  func tell(_ notices: [StoredWatermarks<WebSocket>.Notice]) {
    for notice in notices {
      let message: ServerMessage =
        if let why = notice.unstored {
          .unstored(inputs: notice.inputs, why: why, id: notice.id)
        } else {
          .stored(inputs: notice.inputs, tick: notice.tick, id: notice.id)
        }
      if !ready(message, for: [notice.client]).isEmpty { notice.client.send(message) }
    }
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
