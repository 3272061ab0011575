import Dispatch
import HTTP
import Server
import Synchronization

/// Where work that reads or writes the store runs, off the event loops: every route marked
/// `RouteTraits.store` (or `.adopts`, for a session not live here) and a `/ws/batch` attach
/// that brings a session back. While the database stalls (PostgreSQL frozen, a SQLite file busy
/// or slow to sync) such a call waits seconds; on an event loop it would hold up every
/// connection of that loop (static files, the frames of live sessions).
///
/// Charged like other cold work (`FairQueue`): `running` calls at once (the store workers), at
/// most `--store-call-queue` waiting, each client at most `--store-calls-per-client` (its
/// address's clients together `--families-per-address` times that), addresses and then their
/// clients in turn. A call past a bound is refused at once (429 for a client over its share,
/// 503 for a full queue), and one that waited `--store-call-wait` seconds without a worker
/// gets 503; both say when to come back (`Retry-After`). A call already running cannot be
/// stopped (it is inside the database's client library, or reading a page) and holds its
/// worker until it ends.
///
/// Each call comes with an estimate of its seconds (`estimate(bodyBytes:)`: a request's body
/// is what can make a call long: a 1 MB recipe page is read for up to a third of a second; a
/// route whose answer may be long whatever it is sent says so, `Route.storeCost`). The
/// application's calls (`Application.storeCallLimits`) have a worker beyond `running` for
/// cheap calls only, and one address's expensive calls hold at most one worker: an address
/// that sends big pages waits for its own, and everyone else's short calls and big pages find
/// a worker free.
final class StoreCalls: Sendable {
  /// One call waiting for (or on) a worker.
  struct Job: Sendable {
    let client: ClientKey
    /// Estimated seconds (`FairQueue` tells cheap calls from expensive ones by it).
    let cost: Double
    let work: @Sendable () -> Void
    /// Told instead of running, when the call waited past the deadline: the seconds after
    /// which to come back.
    let expired: @Sendable (_ retryAfter: Int) -> Void
  }

  typealias Refusal = FairQueue<Job>.Refusal

  /// The bounds (`Limits.queue` makes them from the command line's).
  let limits: FairQueue<Job>.Limits
  private let queue: Mutex<FairQueue<Job>>
  private let workers = DispatchQueue(
    label: "playfield.store-calls", qos: .userInitiated, attributes: .concurrent)
  /// Monotonic seconds, for the deadline.
  private let clock: @Sendable () -> Double

  /// Runs calls within `limits`; with its `cheapRunning` 0, no worker is kept for cheap calls.
  init(
    limits: FairQueue<Job>.Limits,
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 }
  ) {
    self.limits = limits
    self.queue = Mutex(FairQueue(limits: limits))
    self.clock = clock
  }

  /// Bounds for tests: `workers` at once, `capacity` waiting, `perClient` per client.
  convenience init(workers: Int = 2, capacity: Int, perClient: Int = 8, wait: Double = 10) {
    self.init(
      limits: FairQueue<Job>.Limits(
        running: workers, waiting: capacity, perClient: perClient, perAddress: perClient * 4,
        deadline: wait, cheapRunning: 0))
  }

  /// Estimated seconds of a call whose request has a body of `bodyBytes`: a short database
  /// call, and the body read at the slowest rate measured for recipe pages (0.3 s a MB, a
  /// page of 150,000 lines; real pages read at 30 to 230 ms a MB; docs/benchmarks.md).
  static func estimate(bodyBytes: Int) -> Double {
    0.001 + Double(bodyBytes) * 0.3e-6
  }

  /// Estimated seconds of a call that may take long whatever its body (a book's export: a full
  /// book of 2,000 recipes, 59 MB, takes 0.6 s of a worker, docs/benchmarks.md; a comparison,
  /// which waits up to 5 s for each recording's queued rows): what `FairQueue` charges a job
  /// of unknown cost.
  static let costlyEstimate = 1.0

  /// `costlyEstimate`, whatever the request: a `Route.storeCost` for such calls.
  @Sendable static func costly(_ request: Request) -> Double { costlyEstimate }

  /// Most calls waiting (`--store-call-queue`).
  var capacity: Int { limits.waiting }

  /// Calls waiting or running now.
  var count: Int { queue.withLock { $0.runningCount + $0.waitingCount } }

  /// Answers with what `work` replies, worked out on a store worker for `client`; refused at
  /// once past a bound, and 503 when it waited too long. A request whose connection closed
  /// while it waited is not worked out.
  func answer(
    client: ClientKey, cost: Double = estimate(bodyBytes: 0), style: ErrorStyle = .json,
    _ work: @escaping @Sendable () -> Reply
  ) -> Reply {
    let pending = PendingResponse()
    let refusal = run(
      client: client, cost: cost,
      {
        guard !pending.isAbandoned else { return }
        Self.finish(pending, with: work())
      },
      expired: { pending.succeed(Self.expired(retryAfter: $0, style: style)) })
    if let refusal { return .response(Self.refused(refusal, style: style)) }
    return .later(pending)
  }

  /// Runs `work` on a store worker for `client`, estimated at `cost` seconds, now or in its
  /// turn; the refusal, running nothing, when a bound is reached. `expired` is told instead if
  /// it waits too long.
  @discardableResult
  func run(
    client: ClientKey, cost: Double = estimate(bodyBytes: 0),
    _ work: @escaping @Sendable () -> Void,
    expired: @escaping @Sendable (_ retryAfter: Int) -> Void = { _ in }
  ) -> Refusal? {
    let job = Job(client: client, cost: cost, work: work, expired: expired)
    switch queue.withLock({ $0.submit(job, client: client, cost: cost, now: clock()) }) {
    case .start(let job):
      start(job)
    case .wait:
      // NB: workers held by a stalled database finish nothing, so waiting calls are expired
      // by the clock, not only when a worker frees.
      workers.asyncAfter(deadline: .now() + limits.deadline + 0.05) { [self] in
        let expired = queue.withLock { $0.expire(now: clock()) }
        for (late, refusal) in expired { late.expired(refusal.retryAfter) }
      }
    case .refuse(_, let refusal):
      return refusal
    }
    return nil
  }

  private func start(_ job: Job) {
    workers.async { [self] in
      let began = clock()
      job.work()
      let (next, expired) = queue.withLock {
        let now = clock()
        return $0.finish(client: job.client, cost: job.cost, took: now - began, now: now)
      }
      for (late, refusal) in expired { late.expired(refusal.retryAfter) }
      for job in next { start(job) }
    }
  }

  /// 429 for a client over its share, 503 for a full queue, with `Retry-After`.
  static func refused(_ refusal: Refusal, style: ErrorStyle = .json) -> Response {
    style.response(
      refusal.tooManyFromClient ? .tooManyRequests : .serviceUnavailable,
      refusal.tooManyFromClient
        ? "this client has too many requests waiting for the database "
          + "(--store-calls-per-client); ask again"
        : "too many requests are waiting for the database (--store-call-queue); ask again",
      headers: ["Retry-After": String(refusal.retryAfter), "Cache-Control": "no-store"])
  }

  /// 503 for a call that found no free worker within the deadline: the database is slow.
  static func expired(retryAfter: Int, style: ErrorStyle = .json) -> Response {
    style.response(
      .serviceUnavailable,
      "the database is not answering in time (--store-call-wait); ask again",
      headers: ["Retry-After": String(retryAfter), "Cache-Control": "no-store"])
  }

  private static func finish(_ pending: PendingResponse, with reply: Reply) {
    switch reply {
    case .response(let response):
      pending.succeed(response)
    case .later(let inner):
      // NB: the mapped response is kept by `inner`'s callback until `inner` finishes.
      _ = inner.map { response in
        pending.succeed(response)
        return response
      }
    case .webSocket(let accepted, let handler):
      // An upgrade request for a session adopted here: the event loop sends the 101 and
      // switches the connection.
      pending.succeed(upgradingTo: accepted, handler)
    }
  }
}
