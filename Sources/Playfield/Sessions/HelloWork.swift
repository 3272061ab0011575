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
/// A hello counts as big when the model's estimate of it (`Simulation.helloBytesEstimate`,
/// worked out without encoding) or the size of the session's last hello is at least `bigBytes`
/// (`--big-hello-bytes`). The estimate is what charges the first big hello of a session, and
/// every joiner of a burst that arrives before any big one was encoded.
///
/// Every hello, whatever its size, is charged its bytes to its joiner (`charge` before it is
/// encoded, at its estimate or the session's last size; `settle` once it is, at its real
/// size): a client's recent hellos, which drain at `bigBytes` a second, count as big once
/// together they reach `burst` bigBytes (a few joins at once, a page's reloads, stay small),
/// so that many joins of a hello just under the bound (a canvas of 235 KB, 120 times a
/// second) take turns of this queue, charged to that client, rather than the shared hello
/// workers. The charge is also kept per address, for all its clients (browser families)
/// together, which may have the share of `perAddress / perClient` clients
/// (`--families-per-address`): minting families cannot multiply an address's small hellos.
///
/// One hello is encoded at a time server-wide, a design constant rather than a limit: the
/// thread is niced below the game loop and the event loops, so a second one would only take
/// their spare core from the ticks and sockets of everyone else, and the queue's turns across
/// addresses and clients already share the one thread out. The wait list
/// (`--big-hello-queue`), the per-client share (`--big-hellos-per-client`) and the deadline
/// (`--big-hello-wait`) are limits; each refusal names the one reached.
final class HelloWork: Sendable {
  /// One hello to encode and send, for whom, and what to do when refused.
  struct Job: Sendable {
    var client: ClientKey
    var encode: @Sendable () -> Void
    var refuse: @Sendable (String) -> Void
  }

  typealias Limits = FairQueue<Job>.Limits

  /// Bytes of JSON from which a session's hello is big.
  let bigBytes: Int

  /// Counts since start, for `/healthz` and tests.
  struct Statistics: Sendable, Equatable {
    var encoded: UInt64 = 0
    var refused: UInt64 = 0
  }

  private let queue: Mutex<FairQueue<Job>>
  /// Each client's recent hello bytes: they drain at `bigBytes` a second, and count at most
  /// `burst` times `bigBytes`, so that a client's hellos are small again soon after its burst.
  private let recent = Mutex(Recents())
  /// How many clients' charge an address's clients together may have (`perAddress` over
  /// `perClient` of the queue's limits: `--families-per-address`).
  private let addressShare: Double

  /// The recent hello bytes of each client and of each address (all its clients).
  private struct Recents {
    var clients: [ClientKey: Recent] = [:]
    var addresses: [String: Recent] = [:]
  }

  /// A client's charged hello bytes, as of `at` (monotonic seconds).
  private struct Recent {
    var bytes: Double
    var at: Double
  }

  /// How many times `bigBytes` one client's recent hellos may add up to before they count as
  /// big: a design constant beside `--big-hello-bytes`.
  static let burst = 4

  /// Clients kept in `recent` before those drained to nothing are forgotten.
  static let recentClients = 1024
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
    bigBytes: Int = Limit.bigHelloBytes.defaultValue,
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 },
    run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = {
      HelloWork.pool.async($0)
    }
  ) {
    self.queue = Mutex(FairQueue(limits: limits))
    self.addressShare = Double(max(1, limits.perAddress / max(1, limits.perClient)))
    self.bigBytes = bigBytes
    self.clock = clock
    self.run = run
  }

  var statistics: Statistics { counts.withLock { $0 } }

  /// Whether a hello estimated at `estimate` bytes, of a session whose last hello had
  /// `lastBytes`, is big: charged to its joiner here.
  func isBig(estimate: Int, lastBytes: Int) -> Bool {
    max(estimate, lastBytes) >= bigBytes
  }

  /// Charges a hello estimated at `estimate` bytes (`lastBytes`: the session's last one) to
  /// `client` and its address, and says whether it is big: big by itself, or with the client's
  /// recent hellos (which drain at `bigBytes` a second) it reaches `burst` times `bigBytes`, or
  /// with its address's (all its clients') it reaches `addressShare` times that. The charge is
  /// settled against the hello's real size once it is encoded (`settle`).
  func charge(_ client: ClientKey, estimate: Int, lastBytes: Int) -> HelloCharge {
    let bytes = max(estimate, lastBytes)
    var charge = HelloCharge(
      client: client, bytes: bytes, clientAdded: 0, addressAdded: 0, isBig: true)
    if bytes >= bigBytes { return charge }
    let now = clock()
    let drain = Double(bigBytes)
    let limit = Double(Self.burst) * drain
    let share = addressShare
    recent.withLock { recent in
      let mine = Self.add(
        Double(bytes), to: &recent.clients, client, now: now, drain: drain, limit: limit)
      let address = Self.add(
        Double(bytes), to: &recent.addresses, client.address, now: now, drain: drain * share,
        limit: limit * share)
      charge.clientAdded = mine.added
      charge.addressAdded = address.added
      charge.isBig = mine.reached || address.reached
    }
    return charge
  }

  /// The hello of `charge` was encoded to `realBytes`: the client's and its address's recent
  /// bytes keep that instead of what was counted before encoding (its estimate, or the
  /// session's last size). A hello bigger than counted adds the rest.
  func settle(_ charge: HelloCharge, realBytes: Int) {
    guard charge.bytes < bigBytes, realBytes != charge.bytes else { return }
    let now = clock()
    let drain = Double(bigBytes)
    let limit = Double(Self.burst) * drain
    let share = addressShare
    let real = Double(realBytes)
    recent.withLock { recent in
      Self.settle(
        &recent.clients, charge.client, counted: Double(charge.bytes), added: charge.clientAdded,
        real: real, now: now, drain: drain, limit: limit)
      Self.settle(
        &recent.addresses, charge.client.address, counted: Double(charge.bytes),
        added: charge.addressAdded, real: real, now: now, drain: drain * share,
        limit: limit * share)
    }
  }

  /// Makes what a hello counted at `counted` bytes added to `key`'s recent bytes (`added`, less
  /// than `counted` when they reached `limit`) what it really was (`real`): a hello bigger than
  /// counted adds the rest, a smaller one gives back what it added beyond its real size.
  private static func settle<Key: Hashable>(
    _ table: inout [Key: Recent], _ key: Key, counted: Double, added: Double, real: Double,
    now: Double, drain: Double, limit: Double
  ) {
    if real > counted {
      _ = add(real - counted, to: &table, key, now: now, drain: drain, limit: limit)
      return
    }
    guard real < added, var entry = table[key] else { return }
    entry.bytes = max(0, entry.bytes - max(0, now - entry.at) * drain - (added - real))
    entry.at = now
    table[key] = entry
  }

  /// Adds `bytes` to `key`'s recent hello bytes, drained at `drain` a second and counted up to
  /// `limit`: whether they reach it, and how much of `bytes` was counted.
  private static func add<Key: Hashable>(
    _ bytes: Double, to table: inout [Key: Recent], _ key: Key, now: Double, drain: Double,
    limit: Double
  ) -> (reached: Bool, added: Double) {
    if table.count >= recentClients {
      table = table.filter { $0.value.bytes - (now - $0.value.at) * drain > 0 }
    }
    var entry = table[key] ?? Recent(bytes: 0, at: now)
    entry.bytes = max(0, entry.bytes - max(0, now - entry.at) * drain)
    entry.at = now
    let big = entry.bytes + bytes >= limit
    let before = entry.bytes
    entry.bytes = min(limit, entry.bytes + bytes)
    table[key] = entry
    return (big, entry.bytes - before)
  }

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
        ? "too many of your joins are being prepared (--big-hellos-per-client); try again shortly"
        : "joins are busy (--big-hello-queue, --big-hello-wait); try again shortly")
  }
}
