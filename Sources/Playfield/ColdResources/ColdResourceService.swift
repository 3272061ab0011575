import Dispatch
import HTTP
import Server
import Synchronization
import Tiles

/// Serves one `ColdResource`: parse, preconditions and ETag, the cache, the fair queue by
/// address then client (charged by estimated seconds, with a slot for cheap work only), a
/// worker, and `Retry-After` on refusals. Every expensive answer goes through one of these:
/// tiles, sphere packings and input-log pages (uncached: `cacheBytes` 0, no ETag).
///
/// A cached body is answered at once and never waits; a cold one takes a place in a
/// `FairQueue` (a few at a time, addresses and then their clients in turn, a bounded wait list,
/// a deadline), is computed once however many ask for it at the same time (`ResultCache`), and
/// is answered with the `Server-Timing` of its computation. A client over its share gets 429, a
/// full queue or a wait past the deadline 503, both with `Retry-After` (RFC 9110 §10.2.3).
final class ColdResourceService<Resource: ColdResource>: Sendable {
  /// A request waiting for its turn: what, for whom, and where the answer goes.
  struct Job: Sendable {
    var key: Resource.Key
    var client: ClientKey
    /// The estimated seconds, as charged to `client`.
    var cost: Double?
    var headers: HTTPHeaders
    var pending: PendingResponse
  }

  typealias Limits = FairQueue<Job>.Limits

  let resource: Resource
  let cache: ResultCache<Resource.Key>
  private let queue: Mutex<FairQueue<Job>>
  /// The `Server-Timing` of each body just computed, for the first response that takes it.
  private let timings = Mutex<[Resource.Key: String]>([:])
  /// Monotonic seconds, for the queue's deadline.
  private let clock: @Sendable () -> Double
  /// Seconds a computation may take once started (the queue's wait deadline); past it, it is
  /// cancelled and answered 503.
  private let deadline: Double
  /// For each key computing now: how many requests still wait for it, and its cancellation,
  /// which fires when the last of them goes away (its connection closed).
  private let interest = Mutex<[Resource.Key: (waiting: Int, cancellation: RenderCancellation)]>(
    [:])
  /// Whether a cost is cheap for the queue.
  private let limits: Limits
  /// Requests refused since start, by why: `client` (over its share, 429), `busy` (the queue
  /// full or the wait past the deadline, 503), `costly` (more work than the deadline allows).
  let refusals = RefusalCounts()

  /// - Parameters:
  ///   - name: names the worker threads, `playfield.NAME`.
  ///   - cacheBytes: most bytes of bodies kept (0: none, for answers that read fresh state).
  ///   - pool: where computations run (niced threads), else the service's own queue.
  init(
    _ resource: Resource, name: String, cacheBytes: Int, limits: Limits, pool: RenderPool? = nil,
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 }
  ) {
    self.resource = resource
    self.cache = ResultCache(
      capacity: cacheBytes, maxConcurrentComputations: limits.slots,
      queue: DispatchQueue(
        label: "playfield.\(name)", qos: .userInitiated, attributes: .concurrent),
      pool: pool)
    self.queue = Mutex(FairQueue(limits: limits))
    self.clock = clock
    self.deadline = limits.deadline
    self.limits = limits
  }

  /// Jobs running now and waiting now.
  var counts: (running: Int, waiting: Int) {
    queue.withLock { ($0.runningCount, $0.waitingCount) }
  }

  /// The cache's and the queue's figures now, for `/metrics`.
  var figures: Meters.ColdFigures {
    let cached = cache.statistics
    let (running, waiting) = counts
    return Meters.ColdFigures(
      entries: cached.entries, bytes: cached.bytes, hits: cached.hits, computed: cached.misses,
      running: running, waiting: waiting)
  }

  /// Answers a GET (or HEAD) of the body named by `path` and `request`, for `client`.
  func respond(to request: Request, path: ArraySlice<String>, client: ClientKey) -> Reply {
    let key: Resource.Key
    do {
      key = try resource.key(path: path, request: request)
    } catch {
      return .response(error.response(resource.errorStyle))
    }
    let headers = resource.headers(for: key)
    if let etag = headers["ETag"],
      let answer = Preconditions.answer(request, etag: etag, headers: headers)
    {
      return .response(answer)
    }
    if let body = cache.cachedValue(for: key) {
      return .response(Response(status: .ok, headers: headers, body: body))
    }
    // NB: what would certainly pass the deadline is refused before it takes anyone's turn.
    let cost = resource.estimatedSeconds(key)
    if let seconds = cost, seconds > deadline {
      refusals.note("costly")
      return .response(
        resource.errorStyle.response(
          .serviceUnavailable,
          "\(resource.wording.tooCostly) (about \(Int(seconds.rounded(.up))) s of work, more than "
            + "the \(Int(deadline)) s one may take)",
          headers: ["Retry-After": "60", "Cache-Control": "no-store"]))
    }
    let job = Job(
      key: key, client: client, cost: cost, headers: headers, pending: PendingResponse())
    switch queue.withLock({ $0.submit(job, client: client, cost: cost, now: clock()) }) {
    case .start(let job):
      run(job)
    case .wait:
      break
    case .refuse(_, let refusal):
      return .response(refused(refusal))
    }
    return .later(job.pending)
  }

  /// Computes (or joins a computation of) the body, answers, and hands the freed slot on. A
  /// job whose client went away while it waited is skipped; a computation whose clients all
  /// went away, or that passes the deadline, is cancelled.
  private func run(_ job: Job) {
    let key = job.key
    guard !job.pending.isAbandoned else {
      let (start, expired) = queue.withLock {
        $0.finish(client: job.client, cost: job.cost, now: clock())
      }
      for (late, refusal) in expired { late.pending.succeed(refused(refusal)) }
      for next in start { run(next) }
      return
    }
    let cancellation = interest.withLock { table in
      if var entry = table[key] {
        entry.waiting += 1
        table[key] = entry
        return entry.cancellation
      }
      let made = RenderCancellation(deadline: clock() + deadline, clock: clock)
      table[key] = (1, made)
      return made
    }
    let released = Once()
    let release: @Sendable () -> Void = { [self] in
      guard released.first() else { return }
      interest.withLock { table in
        guard var entry = table[key], entry.cancellation === cancellation else { return }
        entry.waiting -= 1
        if entry.waiting > 0 {
          table[key] = entry
          return
        }
        table[key] = nil
        // NB: cancelling a finished computation does nothing.
        entry.cancellation.cancel()
      }
    }
    job.pending.onAbandoned(release)
    let cheap = limits.isCheap(job.cost)
    cache.fetch(
      key,
      compute: { [self] in
        var work = ColdWork(cancellation: cancellation, cheap: cheap)
        let body = try resource.compute(key, work: &work)
        if let timing = work.serverTiming { timings.withLock { $0[key] = timing } }
        return body
      },
      completion: { [self] result in
        release()
        let response: Response
        switch result {
        case .success(let body):
          var headers = job.headers
          if let timing = timings.withLock({ $0.removeValue(forKey: key) }) {
            headers.add("Server-Timing", timing)
          }
          response = Response(status: .ok, headers: headers, body: body)
        case .failure(let stopped as RenderStopped):
          response = resource.errorStyle.response(
            .serviceUnavailable,
            stopped == .deadlinePassed
              ? "\(resource.wording.failed) within \(Int(deadline)) s; try again shortly"
              : "\(resource.wording.failed): nobody was waiting for it any more",
            headers: ["Retry-After": "5", "Cache-Control": "no-store"])
        case .failure(let error as ColdResourceError):
          response = error.response(resource.errorStyle)
        case .failure(let error):
          response = resource.errorStyle.response(
            .internalServerError, "\(resource.wording.failed): \(error)")
        }
        // NB: the slot is handed on before the answer goes, so a client that has its answer
        // never finds its own computation still counted.
        let (start, expired) = queue.withLock {
          $0.finish(client: job.client, cost: job.cost, now: clock())
        }
        job.pending.succeed(response)
        for (late, refusal) in expired { late.pending.succeed(refused(refusal)) }
        for next in start { run(next) }
      })
  }

  /// 429 for a client over its share, 503 when the queue is full or the wait too long.
  func refused(_ refusal: FairQueue<Job>.Refusal) -> Response {
    refusals.note(refusal.tooManyFromClient ? "client" : "busy")
    return resource.errorStyle.response(
      refusal.tooManyFromClient ? .tooManyRequests : .serviceUnavailable,
      refusal.tooManyFromClient ? resource.wording.tooManyFromClient : resource.wording.busy,
      headers: ["Retry-After": String(refusal.retryAfter), "Cache-Control": "no-store"])
  }
}

/// True the first time it is asked, false ever after: a job lets go of its computation once,
/// whether it finished or its client went away first.
private final class Once: Sendable {
  private let asked = Atomic(false)

  func first() -> Bool { !asked.exchange(true, ordering: .relaxed) }
}
