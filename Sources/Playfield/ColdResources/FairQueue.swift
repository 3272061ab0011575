import Foundation

/// Admission for expensive work (tile renders, sphere packings, input-log pages): a few jobs
/// run at once, a bounded number wait, the waiting address that has had the least work of
/// late gets the next turn (and within it each of its clients in rotation), and nobody waits
/// past a deadline.
///
/// An address is charged the estimated seconds of each job it starts (an unknown cost counts
/// as `unknownSeconds`), and what it was charged halves every `usageHalfLife` seconds. So a
/// client that comes now and then goes ahead of addresses that keep work waiting, however
/// many they are (in rotation it waited for every one of them, past the deadline when they
/// were 30); addresses that keep work waiting share what is left evenly; and coming back
/// after each job earns a busy address nothing.
///
/// Charged by estimated cost, not only by count: a job may come with an estimate of its
/// seconds (and a job that took longer than its estimate charges its address the rest when it
/// ends). Cheap work (at most `cheapSeconds`) never waits for anyone's expensive work to end:
/// `cheapRunning` more slots than `running` take only cheap work, so expensive jobs can fill
/// `running` slots but never those. A freed slot goes by turns, addresses first (cheap work
/// does not pass an address that has had less), and in its turn a client's cheap work goes
/// before its expensive work. A client's running and waiting estimates together may not pass
/// `perClientSeconds` (429), unless it has nothing else: one job within the deadline is always
/// admitted. With `expensivePerAddress`, one address's expensive jobs hold at most that many
/// slots, so another address's expensive job finds one free instead of waiting out a job
/// already running (none is stopped once begun).
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
    /// Estimated seconds at or below which a job is cheap.
    var cheapSeconds = 0.25
    /// What a job of unknown cost is charged to its address's turns.
    var unknownSeconds = 1.0
    /// Seconds in which what an address was charged for its turns halves.
    var usageHalfLife = 30.0
    /// Slots beyond `running` that only cheap jobs may take.
    var cheapRunning = 1
    /// Most estimated seconds one client may have running and waiting together; nil:
    /// `running` times the deadline, what every slot does in one deadline.
    var perClientSeconds: Double?
    /// Most expensive jobs one address (all its clients) may have running at once; nil: as
    /// many as `running`.
    var expensivePerAddress: Int?

    /// Every slot, the cheap ones included.
    var slots: Int { running + cheapRunning }

    /// The bound on a client's estimated seconds.
    var clientSeconds: Double { perClientSeconds ?? Double(running) * deadline }

    /// Whether a job estimated at `cost` seconds is cheap (an unknown cost is not).
    func isCheap(_ cost: Double?) -> Bool { cost.map { $0 <= cheapSeconds } ?? false }
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
    var cost: Double?
  }

  let limits: Limits
  private var running: [ClientKey: Int] = [:]
  private var queues: [ClientKey: [Waiting]] = [:]
  /// Jobs running or waiting per address, all its clients together.
  private var byAddress: [String: Int] = [:]
  /// Addresses with waiting jobs, in the order they came (`usage` ties go by it).
  private var rotation: [String] = []
  /// Per address, the estimated seconds of the jobs it started, halved every
  /// `usageHalfLife`, as of a moment: the waiting address with the least has the next turn.
  private var usage: [String: (seconds: Double, at: Double)] = [:]
  /// `usage`'s size when it was last pruned of what has faded.
  private var usagePruned = 0
  /// Per address, its clients with waiting jobs, in the order they get the address's next turn.
  private var turns: [String: [ClientKey]] = [:]
  /// Estimated seconds of each client's running and waiting jobs.
  private var charged: [ClientKey: Double] = [:]
  private(set) var runningCount = 0
  /// Running jobs that are not cheap.
  private(set) var expensiveRunning = 0
  /// Running jobs that are not cheap, per address.
  private var expensiveByAddress: [String: Int] = [:]
  private(set) var waitingCount = 0
  /// Addresses whose charge for turns is still kept.
  var addressesCharged: Int { usage.count }

  init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Admits `job` from `client`, estimated at `cost` seconds (nil: unknown): start it now,
  /// queue it, or refuse it.
  mutating func submit(_ job: Job, client: ClientKey, cost: Double? = nil, now: Double)
    -> Admission
  {
    let mine = running[client, default: 0] + (queues[client]?.count ?? 0)
    let spent = charged[client, default: 0]
    guard mine < limits.perClient,
      byAddress[client.address, default: 0] < max(limits.perClient, limits.perAddress),
      mine == 0 || spent + (cost ?? 0) <= limits.clientSeconds
    else {
      let wait = mine < limits.perClient ? max(1, min(60, Int(spent.rounded(.up)))) : 1
      return .refuse(job, Refusal(tooManyFromClient: true, retryAfter: wait))
    }
    if canStart(cheap: limits.isCheap(cost), address: client.address) {
      charge(client, cost)
      use(client.address, cost: cost, now: now)
      begin(client, cost: cost)
      byAddress[client.address, default: 0] += 1
      return .start(job)
    }
    guard waitingCount < limits.waiting else {
      return .refuse(job, Refusal(tooManyFromClient: false, retryAfter: retryAfter))
    }
    if queues[client, default: []].isEmpty {
      if turns[client.address, default: []].isEmpty { rotation.append(client.address) }
      turns[client.address, default: []].append(client)
    }
    queues[client, default: []].append(Waiting(job: job, since: now, cost: cost))
    charge(client, cost)
    waitingCount += 1
    byAddress[client.address, default: 0] += 1
    return .wait
  }

  /// Marks one of `client`'s jobs, estimated at `cost` when it was submitted, done; returns
  /// the jobs to start in the freed slot and the waiting ones past their deadline, to refuse.
  /// `took`, the seconds the job held its slot, charges its address's turns what the job took
  /// beyond what it was charged at its start: work estimated too low (a body-less call that
  /// read a whole book) costs the address that caused it.
  mutating func finish(client: ClientKey, cost: Double? = nil, took: Double? = nil, now: Double)
    -> (start: [Job], expired: [(Job, Refusal)])
  {
    if let took, took > cost ?? limits.unknownSeconds {
      use(client.address, cost: took - (cost ?? limits.unknownSeconds), now: now)
    }
    runningCount -= 1
    if !limits.isCheap(cost) {
      expensiveRunning -= 1
      let left = expensiveByAddress[client.address, default: 1] - 1
      expensiveByAddress[client.address] = left > 0 ? left : nil
    }
    running[client, default: 1] -= 1
    if running[client] == 0 { running[client] = nil }
    charge(client, cost.map { -$0 })
    release(client.address, count: 1)
    let expired = expire(now: now)
    var start: [Job] = []
    while let next = nextInTurn(now: now) {
      begin(next.client, cost: next.cost)
      start.append(next.job)
    }
    return (start, expired)
  }

  /// Whether a new job, cheap or not, from `address` may take a free slot now.
  private func canStart(cheap: Bool, address: String) -> Bool {
    runningCount < limits.slots && (cheap || mayStartExpensive(address))
  }

  /// Whether a slot for expensive work is free, and `address` is not at its share of them.
  private func mayStartExpensive(_ address: String) -> Bool {
    expensiveRunning < limits.running
      && expensiveByAddress[address, default: 0] < (limits.expensivePerAddress ?? limits.running)
  }

  private mutating func begin(_ client: ClientKey, cost: Double?) {
    runningCount += 1
    if !limits.isCheap(cost) {
      expensiveRunning += 1
      expensiveByAddress[client.address, default: 0] += 1
    }
    running[client, default: 0] += 1
  }

  /// What `address` was charged for its turns, as of `now`.
  private func used(_ address: String, now: Double) -> Double {
    guard let (seconds, at) = usage[address] else { return 0 }
    return seconds * exp2(-max(0, now - at) / limits.usageHalfLife)
  }

  /// Charges `address`'s turns for a job it starts; forgets the addresses whose charge has
  /// faded to nothing once `usage` has doubled since it was last pruned.
  private mutating func use(_ address: String, cost: Double?, now: Double) {
    usage[address] = (used(address, now: now) + (cost ?? limits.unknownSeconds), now)
    guard usage.count > max(64, 2 * usagePruned) else { return }
    usage = usage.filter { address, _ in used(address, now: now) > 1e-3 }
    usagePruned = usage.count
  }

  private mutating func charge(_ client: ClientKey, _ seconds: Double?) {
    guard let seconds else { return }
    let left = charged[client, default: 0] + seconds
    charged[client] = left > 1e-9 ? left : nil
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
      for waiting in old { charge(client, waiting.cost.map { -$0 }) }
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

  /// The next job to start, if a slot is free for it. While a slot expensive work may take is
  /// free, turns decide: the least used address with a job that may start (a cheap one, or an
  /// expensive one while the address is below its share of expensive slots), its first client
  /// in turn with one, and that client's oldest cheap job, else its oldest. Otherwise only a
  /// slot kept for cheap work is free: the oldest cheap job of the least used address that has
  /// one. The client goes to the back of its address's rotation, and the address is charged.
  ///
  /// NB: cheap work does not pass other addresses' turns at the shared slots. It did, and an
  /// address sending short calls without pause kept every other address's expensive job
  /// waiting until its deadline.
  private mutating func nextInTurn(now: Double) -> (client: ClientKey, job: Job, cost: Double?)? {
    guard runningCount < limits.slots else { return nil }
    let limits = limits
    guard expensiveRunning < limits.running else {
      return take(now: now, where: { waiting, _ in limits.isCheap(waiting.cost) })
    }
    let share = limits.expensivePerAddress ?? limits.running
    let atShare = Set(expensiveByAddress.filter { $0.value >= share }.keys)
    return take(
      now: now,
      where: { waiting, address in limits.isCheap(waiting.cost) || !atShare.contains(address) },
      preferring: { limits.isCheap($0.cost) })
  }

  /// Removes and returns the first waiting job, in turn, that `matches` (given its address):
  /// of the least used address with one (the first to come among equals), of its first client
  /// in turn with one, the oldest that is also `preferred` if any, else its oldest.
  private mutating func take(
    now: Double,
    where matches: (Waiting, String) -> Bool,
    preferring preferred: (Waiting) -> Bool = { _ in true }
  ) -> (client: ClientKey, job: Job, cost: Double?)? {
    let spent = rotation.map { used($0, now: now) }
    for place in rotation.indices.sorted(by: { (spent[$0], $0) < (spent[$1], $1) }) {
      let address = rotation[place]
      var clients = turns[address] ?? []
      for (turn, client) in clients.enumerated() {
        var queue = queues[client] ?? []
        guard let first = queue.firstIndex(where: { matches($0, address) }) else { continue }
        let index = queue.firstIndex { matches($0, address) && preferred($0) } ?? first
        let next = queue.remove(at: index)
        waitingCount -= 1
        // The client goes to the back of its address's turns while it still waits; the
        // address is charged (and so goes after the others that have had less).
        clients.remove(at: turn)
        queues[client] = queue.isEmpty ? nil : queue
        if !queue.isEmpty { clients.append(client) }
        turns[address] = clients.isEmpty ? nil : clients
        rotation.remove(at: place)
        if !clients.isEmpty { rotation.append(address) }
        use(address, cost: next.cost, now: now)
        return (client, next.job, next.cost)
      }
    }
    return nil
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
