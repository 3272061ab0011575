/// Admission for expensive work (tile renders, sphere packings): a few jobs run at once, a
/// bounded number wait, each address gets its turn in rotation (and within it each of its
/// clients), and nobody waits past a deadline.
///
/// Pure: the caller passes `now` (monotonic seconds) and starts or refuses the jobs this
/// returns. A client (an address, or a browser family of it) or an address over its share gets
/// 429; a full queue or an expired wait gets 503; both say when to come back (RFC 9110 §10.2.3
/// `Retry-After`). Turns go by address first, so minting browser families never earns an
/// address more turns.
struct FairQueue<Job> {
  /// The bounds; the defaults suit tile renders on two cores.
  struct Limits: Sendable, Equatable {
    /// Jobs running at once.
    var running = 2
    /// Jobs waiting, across all clients.
    var waiting = 256
    /// Jobs one client may have running or waiting.
    var perClient = 32
    /// Jobs all clients of one address may have running or waiting together.
    var perAddress = 128
    /// Seconds a job may wait before it is refused.
    var deadline = 10.0
  }

  /// Why a job was not done.
  struct Refusal: Equatable, Sendable {
    /// 429 (this client or address is over its share) or 503 (the queue is full or the wait too long).
    var tooManyFromClient: Bool
    /// Seconds after which to try again.
    var retryAfter: Int
  }

  /// What to do with a new job.
  enum Admission {
    case start(Job)
    case wait
    case refuse(Job, Refusal)
  }

  private struct Waiting {
    var job: Job
    var since: Double
  }

  let limits: Limits
  private var running: [ClientKey: Int] = [:]
  private var queues: [ClientKey: [Waiting]] = [:]
  /// Jobs running or waiting per address, all its clients together.
  private var byAddress: [String: Int] = [:]
  /// Addresses with waiting jobs, in the order they get their next turn.
  private var rotation: [String] = []
  /// Per address, its clients with waiting jobs, in the order they get the address's next turn.
  private var turns: [String: [ClientKey]] = [:]
  private(set) var runningCount = 0
  private(set) var waitingCount = 0

  init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Admits `job` from `client`: start it now, queue it, or refuse it.
  mutating func submit(_ job: Job, client: ClientKey, now: Double) -> Admission {
    let mine = running[client, default: 0] + (queues[client]?.count ?? 0)
    guard mine < limits.perClient,
      byAddress[client.address, default: 0] < max(limits.perClient, limits.perAddress)
    else {
      return .refuse(job, Refusal(tooManyFromClient: true, retryAfter: 1))
    }
    if runningCount < limits.running {
      runningCount += 1
      byAddress[client.address, default: 0] += 1
      running[client, default: 0] += 1
      return .start(job)
    }
    guard waitingCount < limits.waiting else {
      return .refuse(job, Refusal(tooManyFromClient: false, retryAfter: retryAfter))
    }
    if queues[client, default: []].isEmpty {
      if turns[client.address, default: []].isEmpty { rotation.append(client.address) }
      turns[client.address, default: []].append(client)
    }
    queues[client, default: []].append(Waiting(job: job, since: now))
    waitingCount += 1
    byAddress[client.address, default: 0] += 1
    return .wait
  }

  /// Marks one of `client`'s jobs done; returns the jobs to start in the freed slot and the
  /// waiting ones past their deadline, to refuse.
  mutating func finish(client: ClientKey, now: Double) -> (
    start: [Job], expired: [(Job, Refusal)]
  ) {
    runningCount -= 1
    running[client, default: 1] -= 1
    if running[client] == 0 { running[client] = nil }
    release(client.address, count: 1)
    let expired = expire(now: now)
    var start: [Job] = []
    while runningCount < limits.running, let next = nextInTurn() {
      runningCount += 1
      running[next.client, default: 0] += 1
      start.append(next.job)
    }
    return (start, expired)
  }

  /// Removes and returns the waiting jobs older than the deadline.
  mutating func expire(now: Double) -> [(Job, Refusal)] {
    var expired: [(Job, Refusal)] = []
    for client in rotation.flatMap({ turns[$0] ?? [] }) {
      guard let queue = queues[client] else { continue }
      let (old, fresh) = (
        queue.filter { now - $0.since > limits.deadline },
        queue.filter { now - $0.since <= limits.deadline }
      )
      guard !old.isEmpty else { continue }
      waitingCount -= old.count
      release(client.address, count: old.count)
      queues[client] = fresh
      expired += old.map { ($0.job, Refusal(tooManyFromClient: false, retryAfter: retryAfter)) }
    }
    for client in queues.keys where queues[client]!.isEmpty { queues[client] = nil }
    for address in rotation {
      turns[address]?.removeAll { queues[$0] == nil }
      if turns[address]?.isEmpty == true { turns[address] = nil }
    }
    rotation.removeAll { turns[$0] == nil }
    return expired
  }

  /// The oldest job of the client whose turn it is within the address whose turn it is; both
  /// go to the back of their rotations.
  private mutating func nextInTurn() -> (client: ClientKey, job: Job)? {
    guard !rotation.isEmpty else { return nil }
    let address = rotation.removeFirst()
    var clients = turns[address] ?? []
    let client = clients.removeFirst()
    var queue = queues[client] ?? []
    let next = queue.removeFirst()
    waitingCount -= 1
    if queue.isEmpty {
      queues[client] = nil
    } else {
      queues[client] = queue
      clients.append(client)
    }
    if clients.isEmpty {
      turns[address] = nil
    } else {
      turns[address] = clients
      rotation.append(address)
    }
    return (client, next.job)
  }

  private mutating func release(_ address: String, count: Int) {
    let left = byAddress[address, default: count] - count
    byAddress[address] = left > 0 ? left : nil
  }

  /// A guess at when a slot frees: a second per job ahead of a newcomer, per slot.
  private var retryAfter: Int {
    max(1, min(60, (waitingCount + limits.running) / limits.running))
  }
}
