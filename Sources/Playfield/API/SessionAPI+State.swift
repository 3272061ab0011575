import Dispatch
import HTTP
import JSON
import Server
import Simulation
import Storage

extension SessionAPI {
  /// `GET /api/sessions/ID/state`: the exact tick and state hash, read on the game loop.
  func state(_ id: SessionID) -> Reply {
    let id = id.description
    let session: LiveSession
    do {
      session = try registry.lookup(id)
    } catch {
      return .response(error.response)
    }
    let pending = PendingResponse()
    let queued = session.send(
      .inspect { state in
        pending.succeed(
          .json(
            .object([
              "id": .string(id), "tick": .number(Double(state.tick)),
              "stateHash": .string(Self.hex(state.stateHash)), "running": .bool(state.running),
            ])))
      })
    guard queued else {
      return .response(APIError(.serviceUnavailable, "the session is busy; try again").response)
    }
    return .later(pending)
  }

  /// `GET /api/sessions/ID/replay?tick=N`: rebuilds the stored session at tick N from its
  /// nearest snapshot (or, with `&from=start`, from tick 0: its config, seed and logged inputs)
  /// and reports that state's hash. A compacted on-demand session's state before its log's
  /// start (`StoredSession.logStart`), and `from=start`, get 400. The stepping is a `StepJob`
  /// charged to `client`, run in slices below the realtime ticks, and cancelled when the asker's
  /// connection closes. Answers are kept; they are worked out in `ReplayStates`' places, a fair
  /// queue per address and client (429 past the asker's share, 503 when full or waited too
  /// long).
  func replayState(_ request: Request, id: SessionID, client: ClientKey) -> Reply {
    let id = id.description
    guard let journal = registry.journal as? StorageJournal else {
      return .response(APIError(.serviceUnavailable, "replays need the database").response)
    }
    let key: ReplayStates.Key
    do {
      let query = try QueryParameters(request.query)
      try query.requireDistinctNames()
      guard let text = query["tick"], let value = UInt64(text), value <= 100_000_000 else {
        throw APIError(.badRequest, "tick must be an integer from 0 to 100000000", field: "tick")
      }
      let from = query["from"] ?? "snapshot"
      guard from == "snapshot" || from == "start" else {
        throw APIError(.badRequest, "from must be snapshot or start", field: "from")
      }
      key = ReplayStates.Key(session: id, tick: value, fromStart: from == "start")
    } catch let error as APIError {
      return .response(error.response)
    } catch let error as HTTPError {
      return .response(APIError(error.status, error.message).response)
    } catch {
      return .response(APIError(.badRequest, "\(error)").response)
    }
    if let answer = replayStates.cached(key) { return .response(.json(answer)) }
    let pending = PendingResponse()
    let states = replayStates
    let scheduler = scheduler
    let refusal = states.admit(
      client: client,
      start: {
        // Reading the store may wait for the writer: not on the event loop, nor on the
        // scheduler's thread (a place freed there starts the next).
        DispatchQueue.global().async {
          Self.workOut(key, journal: journal, client: client, pending, states, scheduler)
        }
      },
      expired: { [refusals = registry.refusals] in
        refusals.note(Limit.replayStateWait.name)
        pending.succeed(ReplayStates.expired(retryAfter: $0).response)
      })
    if let refusal {
      registry.refusals.note(
        refusal.tooManyFromClient ? Limit.replayStatesPerClient.name : Limit.replayStateQueue.name)
      return .response(ReplayStates.refused(refusal).response)
    }
    return .later(pending)
  }

  /// Works out `key` in the place `replayStates` gave it: reads the stored session, steps it
  /// as a `StepJob` charged to `client`, answers `pending` and frees the place.
  private static func workOut(
    _ key: ReplayStates.Key, journal: StorageJournal, client: ClientKey,
    _ pending: PendingResponse, _ states: ReplayStates, _ scheduler: StepScheduler
  ) {
    // NB: an asker who left while waiting costs nothing more.
    guard !pending.isAbandoned else { return states.end(key, client: client, answer: nil) }
    let job: ReplayStateJob
    switch Self.replayStart(journal: journal, key: key) {
    case .success(let started):
      job = started
    case .failure(let error):
      states.end(key, client: client, answer: nil)
      return pending.succeed(error.response)
    }
    // The log's first chunk is read here, with the rest of the start: a log that fits in one
    // chunk is stepped by one job.
    job.readNextChunk()
    // NB: an asker who leaves stops the job: nothing more is charged to them.
    pending.onAbandoned { job.stepping.withLock { $0 }?.cancel() }
    step(job, client: client, pending, states, scheduler)
  }

  /// Steps `job` as a `StepJob` charged to `client` until it has its answer, or needs the next
  /// chunk of its log: that is read on another thread (never the scheduler's, which a stalled
  /// store would hold up for everyone), and a new step job goes on from there.
  private static func step(
    _ job: ReplayStateJob, client: ClientKey, _ pending: PendingResponse,
    _ states: ReplayStates, _ scheduler: StepScheduler
  ) {
    let key = job.key
    let stepJob = StepJob(
      client: client, label: "replay-state", work: { job.work(&$0) },
      completion: { outcome in
        if outcome == .finished, job.answer == nil {
          return DispatchQueue.global().async {
            guard !pending.isAbandoned else { return states.end(key, client: client, answer: nil) }
            job.readNextChunk()
            step(job, client: client, pending, states, scheduler)
          }
        }
        let answer = job.answer
        states.end(key, client: client, answer: try? answer?.get())
        switch (outcome, answer) {
        case (.finished, .success(let json)?):
          pending.succeed(.json(json))
        case (.finished, .failure(let error)?):
          pending.succeed(error.response)
        case (.refused(let reason), _):
          var error = APIError(.tooManyRequests, reason)
          error.headers.set("Retry-After", "1")
          pending.succeed(error.response)
        default:
          pending.succeed(APIError(.serviceUnavailable, "the replay was cancelled").response)
        }
      })
    job.stepping.withLock { $0 = stepJob }
    scheduler.submit(stepJob)
    // NB: an asker who left before the job was known cancels it here.
    if pending.isAbandoned { stepJob.cancel() }
  }

  /// The stored session checked against `key` and its model at the starting point.
  private static func replayStart(journal: StorageJournal, key: ReplayStates.Key) -> Result<
    ReplayStateJob, APIError
  > {
    let id = key.session
    do {
      try journal.stored(sessionID: id, timeout: 5)
    } catch {
      return .failure(error.refusal)
    }
    do {
      guard let stored = try journal.store.session(id: id) else {
        return .failure(APIError(.notFound, "no stored session \(id)"))
      }
      guard key.tick <= UInt64(max(0, stored.tick)) else {
        return .failure(
          APIError(
            .badRequest, "tick must not pass the session's stored tick \(stored.tick)",
            field: "tick"))
      }
      // An on-demand session's log is compacted behind its snapshots: nothing before its
      // earliest kept snapshot can be rebuilt.
      if stored.logStart > 0 && (key.fromStart || key.tick < UInt64(stored.logStart)) {
        let what = key.fromStart ? "from=start is not possible" : "tick \(key.tick) is too early"
        return .failure(
          APIError(
            .badRequest,
            "\(what): this on-demand session keeps its log only from tick \(stored.logStart), "
              + "its earliest kept snapshot (its older inputs were compacted)",
            field: key.fromStart ? "from" : "tick"))
      }
      let (model, reader) = try SessionRestorer.start(
        stored, at: key.tick, fromStart: key.fromStart, store: journal.store)
      return .success(ReplayStateJob(key: key, model: model, reader: reader))
    } catch {
      return .failure(APIError(.serviceUnavailable, "the replay failed: \(APIError.told(error))"))
    }
  }

  /// A 64-bit hash as 16 hex digits (JSON numbers cannot hold 64 bits exactly).
  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
