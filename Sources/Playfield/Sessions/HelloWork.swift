import CPosix
import HTTP
import Synchronization
import Tiles

/// Big `hello`s (a canvas's whole picture is megabytes of JSON) encoded for their joiners with
/// the same admission as every other expensive answer: a `FairQueue` charged to the joining
/// client (a few at a time, each client at most `perClient` running or waiting, addresses and
/// then their clients in turn, a bounded wait list, a deadline), on the hello workers. A
/// joiner over its share, or one that waited past the deadline, is closed with 1013 (try again
/// later), so a joiner loop on a huge canvas costs that client and nobody else.
///
/// A session's `hello` counts as big once one of its hellos was at least `bigBytes`: the size
/// is known only after encoding, so the first big one is encoded as small ones are.
final class HelloWork: Sendable {
  /// One hello to encode and send, for whom, and what to do when refused.
  struct Job: Sendable {
    var client: ClientKey
    var encode: @Sendable () -> Void
    var refuse: @Sendable (String) -> Void
  }

  typealias Limits = FairQueue<Job>.Limits

  /// Bytes of JSON from which a session's hello is big.
  static let bigBytes = 256 << 10

  /// Counts since start, for `/healthz` and tests.
  struct Statistics: Sendable, Equatable {
    var encoded: UInt64 = 0
    var refused: UInt64 = 0
  }

  private let queue: Mutex<FairQueue<Job>>
  private let counts = Mutex(Statistics())
  /// Monotonic seconds, for the queue's deadline.
  private let clock: @Sendable () -> Double
  /// Where an admitted job runs (the hello workers; a test may run them itself).
  private let run: @Sendable (@escaping @Sendable () -> Void) -> Void

  /// The thread big hellos are encoded on: one, niced below the game loop and the event loops
  /// (as renders and off-tick steps are), so that joiners of a huge canvas take at most one
  /// core's spare time and never the ticks' or the sockets'.
  static let pool = RenderPool(
    threads: 1, name: "playfield-big-hellos",
    prepare: { _ = cposix_nice_this_thread(StepScheduler.niceness) })

  init(
    limits: Limits = Limits(running: 1, waiting: 64, perClient: 2, perAddress: 8, deadline: 10),
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 },
    run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = {
      HelloWork.pool.async($0)
    }
  ) {
    self.queue = Mutex(FairQueue(limits: limits))
    self.clock = clock
    self.run = run
  }

  var statistics: Statistics { counts.withLock { $0 } }

  /// Starts, queues or refuses `job`.
  func submit(_ job: Job) {
    switch queue.withLock({ $0.submit(job, client: job.client, now: clock()) }) {
    case .start(let job):
      start(job)
    case .wait:
      break
    case .refuse(let job, let refusal):
      refuse(job, refusal)
    }
  }

  private func start(_ job: Job) {
    run { [self] in
      job.encode()
      counts.withLock { $0.encoded += 1 }
      let (next, expired) = queue.withLock { $0.finish(client: job.client, now: clock()) }
      for (late, refusal) in expired { refuse(late, refusal) }
      for waiting in next { start(waiting) }
    }
  }

  private func refuse(_ job: Job, _ refusal: FairQueue<Job>.Refusal) {
    counts.withLock { $0.refused += 1 }
    job.refuse(
      refusal.tooManyFromClient
        ? "too many of your joins are being prepared; try again shortly"
        : "joins are busy; try again shortly")
  }
}
