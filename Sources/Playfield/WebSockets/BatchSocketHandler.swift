import JSON
import Server
import Simulation
import Storage
import Synchronization
import WebSocket

/// `/ws/batch`: one connection drives many on-demand sessions its client controls
/// (docs/protocol.md, "Batch stepping"). `attach` checks a session's control token once; then
/// each `step` message (JSON text, or for the plainest step binary: `BatchRequest.binary`)
/// carries every session's action and is answered by one binary message with every session's
/// values (`BatchReply`), or by an `error` naming what was wrong, in which case no session is
/// stepped.
///
/// A `step` is one `StepJob` charged to the connection's client, below the realtime ticks;
/// when the scheduler has nothing else to do, it runs at once on the event loop (at most four
/// slices; `StepScheduler.submitRunningHere`).
/// One step at a time per connection: the next waits for the reply.
///
/// A message of `bigMessageBytes` or more (`--batch-job-bytes`: a step of many inputs) is not
/// parsed on the event loop when it arrives: parsing, checking and admitting it is a job of its
/// own (`batch-message`), charged to the connection's client and run in turn with everyone's
/// steps (at once, on the loop, only while nothing else waits), and the connection's later
/// messages wait behind it, in order. Its bytes were charged to the client's read budget as
/// they were read.
///
/// An attach of a session that is not live here (parked, or on a shared store anyone's) reads
/// the store: it runs on a store worker (`StoreCalls`, charged to the client), and the
/// connection's later messages wait behind it, in order (at most `maxDeferred`).
final class BatchSocketHandler: WebSocketHandler {
  let registry: SessionRegistry
  /// Where attaches that read the store run.
  let storeCalls: StoreCalls
  /// Who pays for the steps.
  let client: ClientKey
  let sessionsPerConnection: Int
  let sessionsPerMessage: Int
  /// Most inputs per step message and per session of one (`--batch-inputs-per-message`,
  /// `--batch-inputs-per-session`).
  let inputBounds: BatchRequest.InputBounds
  /// Messages from this many bytes are parsed as a job of the client (`--batch-job-bytes`).
  let bigMessageBytes: Int
  private let state = Mutex(State())

  /// The sessions attached, in attach order (their slots), and what they share.
  private struct State {
    var slots: [LiveSession] = []
    var ids: Set<String> = []
    var kind: String?
    var fields: [String] = []
    var action: (type: String, fields: [String]) = ("", [])
    var model: (any BatchStepping.Type)?
    var job: StepJob?
    /// An attach is on a store worker: messages wait in `deferred` until it is answered.
    var attaching = false
    /// A big message is being parsed as a job: messages wait in `deferred` until it is done.
    var parsing: StepJob?
    var deferred: [WebSocketMessage] = []
    /// The connection closed: an attach finishing on a store worker attaches nothing.
    var closed = false
    /// Why the server cannot store inputs now (`SessionRegistry.storing`), nil while it can.
    var storageProblem: String?
    /// This connection was told `unstored` and not yet `stored` again.
    var toldUnstored = false
  }
  /// Held while a storage notice is made and sent, so that two are sent in the order made.
  private let noticing = Mutex(())

  /// Messages that may wait behind an attach on a store worker; past it, `busy`.
  static let maxDeferred = 64

  /// Milliseconds after which to attach again a session another process holds.
  static let heldRetryMs = 1000

  init(
    registry: SessionRegistry, storeCalls: StoreCalls, client: ClientKey,
    sessionsPerConnection: Int, sessionsPerMessage: Int,
    inputBounds: BatchRequest.InputBounds = BatchRequest.InputBounds(),
    bigMessageBytes: Int = Limit.batchJobBytes.defaultValue
  ) {
    self.registry = registry
    self.storeCalls = storeCalls
    self.client = client
    self.sessionsPerConnection = sessionsPerConnection
    self.sessionsPerMessage = sessionsPerMessage
    self.inputBounds = inputBounds
    self.bigMessageBytes = bigMessageBytes
  }

  func opened(_ socket: WebSocket) {
    registry.listenToStorage(ObjectIdentifier(self)) { [weak self] problem in
      self?.tellStorage(socket, problem: .some(problem))
    }
  }

  /// Sends the storage notice due, if any (docs/protocol.md, section 5b): with `problem`, the
  /// server's word changed first. A connection with sessions attached is told `unstored` once
  /// per failure, when it starts or at its first step during one, and `stored` when storing
  /// works again; each carries every slot's stored tick (`LiveSession.storedTick`).
  private func tellStorage(_ socket: WebSocket, problem: String?? = nil) {
    noticing.withLock { _ in
      let notice = state.withLock { state -> WebSocketMessage? in
        if let problem { state.storageProblem = problem }
        guard !state.closed, !state.slots.isEmpty else { return nil }
        switch (state.storageProblem, state.toldUnstored) {
        case (.some, false): state.toldUnstored = true
        case (nil, true): state.toldUnstored = false
        default: return nil
        }
        var body: [String: JSONValue] = [
          "type": state.toldUnstored ? "unstored" : "stored",
          "stored": .array(state.slots.map { .number(Double($0.storedTick)) }),
        ]
        if let why = state.storageProblem { body["reason"] = .string(why) }
        return .text(String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
      }
      if let notice { socket.send(notice) }
    }
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    registry.stopListeningToStorage(ObjectIdentifier(self))
    let (jobs, sessions) = state.withLock { state in
      defer {
        state.slots.removeAll()
        state.closed = true
      }
      return ([state.job, state.parsing], state.slots)
    }
    for job in jobs { job?.cancel() }
    for session in sessions { session.detached() }
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    let waits = state.withLock { state -> Bool? in
      guard state.attaching || state.parsing != nil else { return false }
      guard state.deferred.count < Self.maxDeferred else { return nil }
      state.deferred.append(message)
      return true
    }
    switch waits {
    case false?: route(message, on: socket)
    case true?: break
    case nil:
      var error = ClientError(
        "busy",
        "too many messages sent while an earlier one waits (an attach for the database, a big "
          + "message for its turn): wait for its answer")
      error.retryAfterMs = Self.heldRetryMs
      socket.send(.error(error))
    }
  }

  /// Handles `message` now, or when it is big, as a job of the client (`bigMessageBytes`).
  private func route(_ message: WebSocketMessage, on socket: WebSocket) {
    let size =
      switch message {
      case .text(let text): text.utf8.count
      case .binary(let bytes): bytes.count
      }
    guard size >= bigMessageBytes else { return handle(message, on: socket) }
    let job = registry.onDemand.job(
      charging: client, label: "batch-message",
      work: { [self] _, _ in
        handle(message, on: socket)
        return .done
      },
      completion: { [self] outcome in
        if case .refused(let why) = outcome { socket.send(.error(ClientError("too-many", why))) }
        // NB: what waited behind it is handled on the connection's event loop, in order.
        socket.execute { [self] in
          state.withLock { $0.parsing = nil }
          handleDeferred(on: socket)
        }
      })
    state.withLock { $0.parsing = job }
    // NB: with nothing else waiting, it runs right here (counted as the scheduler's).
    registry.onDemand.submit(job, here: true)
  }

  /// Handles the messages that waited behind an attach or a big message, in order, until one
  /// of them waits again.
  private func handleDeferred(on socket: WebSocket) {
    while let next = state.withLock({ state -> WebSocketMessage? in
      guard !state.closed, !state.attaching, state.parsing == nil, !state.deferred.isEmpty
      else { return nil }
      return state.deferred.removeFirst()
    }) {
      route(next, on: socket)
    }
  }

  private func handle(_ message: WebSocketMessage, on socket: WebSocket) {
    let text: String
    switch message {
    case .text(let value): text = value
    case .binary(let bytes):
      // A binary message is a step (`BatchRequest.binary`); its id, when it has one, comes back
      // with an error.
      let request = BatchRequest.binaryID(bytes)
      if case .failure(var error) = binaryStep(bytes, request: request, socket: socket) {
        if let request { error.id = .number(Double(request)) }
        socket.send(.error(error))
      }
      return
    }
    let fields: [String: JSONValue]
    do {
      guard case .object(let object) = try JSONValue.parse(text, maxDepth: 16) else {
        return socket.send(
          .error(ClientError("not-an-object", "a message must be a JSON object with a type")))
      }
      fields = object
    } catch {
      return socket.send(
        .error(ClientError("bad-json", "the message is not valid JSON: \(error)")))
    }
    let id = fields["id"]
    let outcome: Result<WebSocketMessage?, ClientError>
    switch fields["type"]?.stringValue {
    case "attach": outcome = attach(fields, id: id, socket: socket)
    case "step": outcome = step(fields, id: id, socket: socket).map { nil }
    case nil:
      outcome = .failure(
        ClientError("missing-type", "a message needs a \"type\" string", field: "type"))
    case let type?:
      outcome = .failure(
        ClientError(
          "unknown-type", "unknown message type \"\(type)\"; send attach or step", field: "type"))
    }
    switch outcome {
    case .success(let reply?): socket.send(reply)
    case .success(nil): break
    case .failure(var error):
      if let id, SessionSocketHandler.isRequestID(id) { error.id = id }
      socket.send(.error(error))
    }
  }

  // MARK: attach

  /// `{"type": "attach", "session": ID, "token": T}`: the session joins this connection's
  /// slots once its token is checked; on a store worker when that reads the store.
  private func attach(_ fields: [String: JSONValue], id: JSONValue?, socket: WebSocket)
    -> Result<WebSocketMessage?, ClientError>
  {
    guard let sessionID = fields["session"]?.stringValue else {
      return .failure(
        ClientError("bad-field", "session must be a session id string", field: "session"))
    }
    guard let token = fields["token"]?.stringValue else {
      return .failure(
        ClientError("bad-field", "token must be the session's control token", field: "token"))
    }
    guard registry.mayBringBack(sessionID) else { return join(sessionID, token: token, id: id) }
    state.withLock { $0.attaching = true }
    let refusal = storeCalls.run(
      client: client,
      { [self] in answer(join(sessionID, token: token, id: id), id: id, on: socket) },
      expired: { [self] wait in
        answer(.failure(Self.busy(retryAfter: wait)), id: id, on: socket)
      })
    guard let refusal else { return .success(nil) }
    state.withLock { $0.attaching = false }
    return .failure(Self.busy(retryAfter: refusal.retryAfter))
  }

  /// `busy`: the database's workers are taken; try again after `retryAfter` seconds.
  private static func busy(retryAfter: Int) -> ClientError {
    var error = ClientError(
      "busy",
      "too many requests are waiting for the database (--store-call-queue, "
        + "--store-calls-per-client): attach again after retryAfterMs")
    error.retryAfterMs = retryAfter * 1000
    return error
  }

  /// Sends an attach's answer worked out on a store worker, then, on the connection's event
  /// loop, handles what waited behind it, until another attach goes to a store worker.
  private func answer(
    _ outcome: Result<WebSocketMessage?, ClientError>, id: JSONValue?, on socket: WebSocket
  ) {
    let message: WebSocketMessage
    switch outcome {
    case .success(let reply?): message = reply
    case .success(nil): return
    case .failure(var error):
      if let id, SessionSocketHandler.isRequestID(id) { error.id = id }
      message = .text(String(decoding: ServerMessage.error(error).bytes, as: UTF8.self))
    }
    socket.send(message) { [self] in
      state.withLock { $0.attaching = false }
      handleDeferred(on: socket)
    }
  }

  /// Attaches session `sessionID` with `token`, after bringing it back from the store if it
  /// is not live here (on a store worker, then). A session another process holds is
  /// `held-elsewhere`, with when to try again.
  private func join(_ sessionID: String, token: String, id: JSONValue?)
    -> Result<WebSocketMessage?, ClientError>
  {
    guard let session = try? registry.lookup(sessionID) else {
      return .failure(absent(sessionID))
    }
    guard TokenHash.matches(token: token, storedHash: session.tokenHash) else {
      return .failure(
        ClientError(
          "not-controller", "the token does not control session \(sessionID)", field: "token"))
    }
    guard session.sessionClock == .onDemand else {
      return .failure(
        ClientError(
          "realtime",
          "session \(sessionID) steps on the 60 Hz clock; only sessions created with "
            + "\"clock\": \"on-demand\" step in a batch", field: "session"))
    }
    guard let model = session.type as? any BatchStepping.Type else {
      return .failure(
        ClientError(
          "no-batch",
          "\(session.kind) sessions have no batch stepping (holes and maze have)",
          field: "session"))
    }
    let fieldNames = session.batchFields
    return state.withLock { state -> Result<WebSocketMessage?, ClientError> in
      guard !state.closed else { return .success(nil) }
      guard !state.ids.contains(sessionID) else {
        return .failure(
          ClientError(
            "already-attached", "session \(sessionID) is attached already", field: "session"))
      }
      guard state.slots.count < sessionsPerConnection else {
        return .failure(
          ClientError(
            "too-many",
            "a connection drives at most \(sessionsPerConnection) sessions "
              + "(--batch-sessions-per-connection)"))
      }
      if let kind = state.kind, kind != session.kind || state.fields != fieldNames {
        return .failure(
          ClientError(
            "mixed-kinds",
            "this connection drives \(kind) sessions with \(state.fields.count) values each; "
              + "attach session \(sessionID) on another connection", field: "session"))
      }
      guard session.attached() else {
        // NB: parked (or deleted) to make room between the lookup and now: nothing attached.
        var error = ClientError(
          "parked", "session \(sessionID) was parked to make room just now: attach it again",
          field: "session")
        error.retryAfterMs = 100
        return .failure(error)
      }
      state.kind = session.kind
      state.fields = fieldNames
      state.action = model.batchAction
      state.model = model
      state.slots.append(session)
      state.ids.insert(sessionID)
      var reply: [String: JSONValue] = [
        "type": "attached", "session": .string(sessionID),
        "slot": .number(Double(state.slots.count - 1)),
        "fields": .array(fieldNames.map { .string($0) }),
        "action": [
          "type": .string(model.batchAction.type),
          "fields": .array(model.batchAction.fields.map { .string($0) }),
        ],
      ]
      if let id { reply["id"] = id }
      return .success(.text(String(decoding: JSONValue.object(reply).serialized(), as: UTF8.self)))
    }
  }

  /// Why `sessionID` cannot be attached here: another process holds it, the database cannot
  /// be asked now, or there is no such session.
  private func absent(_ sessionID: String) -> ClientError {
    if let shard = registry.heldElsewhere.withLock({ $0[sessionID] }) {
      let which = shard.isEmpty ? "" : " (shard \(shard))"
      var error = ClientError(
        "held-elsewhere",
        "session \(sessionID) is held by another Playfield process\(which); attach it there, or "
          + "here again after retryAfterMs (it moves here once that process lets it go)",
        field: "session")
      error.retryAfterMs = Self.heldRetryMs
      return error
    }
    if let refusal = registry.notBack.withLock({ $0[sessionID] }) {
      // NB: 503 passes (the server is full, or the session's last inputs are not stored yet).
      let code = refusal.status == .serviceUnavailable ? "busy" : "too-many"
      var error = ClientError(code, refusal.message, field: "session")
      error.retryAfterMs = Self.heldRetryMs
      return error
    }
    if registry.unreachable.withLock({ $0.contains(sessionID) }) {
      var error = ClientError(
        "busy",
        "session \(sessionID) cannot be brought back now: the database cannot be reached; "
          + "attach again after retryAfterMs", field: "session")
      error.retryAfterMs = Self.heldRetryMs
      return error
    }
    return ClientError("unknown-session", "no session \(sessionID)", field: "session")
  }

  // MARK: step

  /// Checks a `step` message whole, then submits its job; the reply is binary.
  private func step(_ fields: [String: JSONValue], id: JSONValue?, socket: WebSocket)
    -> Result<Void, ClientError>
  {
    var request: UInt32 = 0
    if let id {
      guard let n = id.intValue, (0...Int(UInt32.max)).contains(n) else {
        return .failure(
          ClientError(
            "bad-field", "a step's id must be an integer from 0 to \(UInt32.max)", field: "id"))
      }
      request = UInt32(n)
    }
    return submit(request: request, id: id, socket: socket) { state, model in
      BatchRequest.slots(fields["slots"], attached: state.slots.count, limit: sessionsPerMessage)
        .flatMap { slots in
          BatchRequest.entries(
            fields, slots: slots, sessions: state.slots, model: model, action: state.action,
            maxCount: registry.limits.maxStepTicks, bounds: inputBounds)
        }
    }
  }

  /// Checks a binary `step` (`BatchRequest.binary`) whole, then submits its job.
  private func binaryStep(_ bytes: [UInt8], request: UInt32?, socket: WebSocket)
    -> Result<Void, ClientError>
  {
    submit(request: request ?? 0, id: request.map { .number(Double($0)) }, socket: socket) {
      state, model in
      BatchRequest.binary(
        bytes, sessions: state.slots, model: model, width: state.action.fields.count,
        limit: sessionsPerMessage, maxCount: registry.limits.maxStepTicks
      ).map(\.entries)
    }
  }

  /// Submits the job of a step whose entries `read` gives (checked whole: an error and
  /// nothing stepped, or every entry admitted to the log's bounds).
  private func submit(
    request: UInt32, id: JSONValue?, socket: WebSocket,
    entries read: (State, any BatchStepping.Type) -> Result<[BatchStep.Entry], ClientError>
  ) -> Result<Void, ClientError> {
    tellStorage(socket)
    // NB: the job is marked in flight before it is submitted, and submitted outside the lock:
    // a refusal completes it at once, and a short job may finish before `submit` returns.
    let prepared = state.withLock { state -> Result<(StepJob, [BatchStep.Entry]), ClientError> in
      guard state.job == nil else {
        return .failure(
          ClientError("busy", "one step at a time on a connection: wait for the last one's reply"))
      }
      guard let model = state.model else {
        return .failure(ClientError("no-sessions", "attach sessions before stepping them"))
      }
      let entries: [BatchStep.Entry]
      switch read(state, model) {
      case .success(let checked): entries = checked
      case .failure(let error): return .failure(error)
      }
      if let refusal = BatchRequest.admit(entries, to: registry.inputLog) {
        return .failure(refusal)
      }
      let work = BatchStep(entries, request: request, width: state.fields.count)
      let job = registry.onDemand.job(
        charging: client, label: "batch",
        work: { _, slice in work.run(&slice) },
        completion: { [self] outcome in
          // NB: the connection may start its next step only once this answer is queued on its
          // event loop, where a next step's answer may be sent at once: replies stay in the
          // order of their steps for a client that sends ahead.
          let done: @Sendable () -> Void = { self.state.withLock { $0.job = nil } }
          switch outcome {
          case .finished: socket.send(.binary(work.reply.bytes), then: done)
          case .cancelled: done()
          case .refused(let why):
            var error = ClientError("too-many", why)
            if let id { error.id = id }
            socket.send(.error(error), then: done)
          }
        })
      state.job = job
      return .success((job, entries))
    }
    return prepared.map { job, entries in
      // Back-pressure: while the writes waiting for the database are at their bound, the step
      // waits (its reply comes later) rather than fail; refused only when it cannot be written.
      let now =
        registry.journal?.whenWritable(
          payer: client.description, sessions: entries.map(\.session.id)
        ) { [self] refusal in
          guard let refusal else { return registry.onDemand.submit(job) }
          BatchRequest.refund(entries, to: registry.inputLog)
          var error = ClientError(
            InputLogCap.Bound.storageBacklog.code,
            refusal + "; the writes waiting for it have reached their bound (--pending-bytes): "
              + "the step is refused whole, try again later")
          if let id { error.id = id }
          socket.send(.error(error), then: { self.state.withLock { $0.job = nil } })
        } ?? true
      // NB: with nothing else waiting, the step runs right here on the event loop (bounded
      // slices, counted as the scheduler's): no hand-off to its thread and back.
      if now { registry.onDemand.submit(job, here: true) }
    }
  }
}
