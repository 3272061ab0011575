/// Whose turn it is among the clients with off-tick jobs: addresses by the time their slices
/// have used (`FairTurns`), within an address its clients by their time, within a client its
/// jobs in rotation. Each turn is one slice of one job, charged afterwards with what it cost
/// (`charge`), so a client whose slices cost ten times another's gets about a tenth of the
/// slices, a client's many jobs share that client's time, and minting browser families never
/// earns an address more time (as in `FairQueue`). With equal costs it is plain rotation.
///
/// Pure: the scheduler adds jobs, takes the next one, charges its slice, and puts it back when
/// it has more to do.
struct StepRotation<Job> {
  private var addresses = FairTurns<String>()
  private var clients: [String: FairTurns<ClientKey>] = [:]
  private var jobs: [ClientKey: [Job]] = [:]
  private(set) var count = 0

  /// Jobs `client` has waiting.
  func count(of client: ClientKey) -> Int { jobs[client]?.count ?? 0 }

  var isEmpty: Bool { count == 0 }

  /// Adds `job` at the back of `client`'s own queue.
  mutating func add(_ job: Job, client: ClientKey) {
    if jobs[client, default: []].isEmpty {
      clients[client.address, default: FairTurns()].wait(client)
      addresses.wait(client.address)
    }
    jobs[client, default: []].append(job)
    count += 1
  }

  /// Takes the job whose turn it is. Charge its slice with `charge`, then give it back with
  /// `add` if it has more to do (it then waits behind its client's others).
  mutating func next() -> (client: ClientKey, job: Job)? {
    guard let address = addresses.next(), let client = clients[address]?.next() else {
      return nil
    }
    var mine = jobs[client] ?? []
    let job = mine.removeFirst()
    count -= 1
    if mine.isEmpty {
      jobs[client] = nil
      clients[address]?.leave(client)
      if clients[address]?.isEmpty == true { addresses.leave(address) }
    } else {
      jobs[client] = mine
    }
    return (client, job)
  }

  /// Charges `client` (and its address) with the CPU a slice of its job used.
  mutating func charge(_ client: ClientKey, _ cost: Duration) {
    let nanoseconds =
      UInt64(clamping: cost.components.seconds) * 1_000_000_000
      + UInt64(clamping: cost.components.attoseconds / 1_000_000_000)
    addresses.charge(client.address, nanoseconds: nanoseconds)
    clients[client.address, default: FairTurns()].charge(client, nanoseconds: nanoseconds)
    forgetIdle()
  }

  /// How far `client`'s address and `client` are ahead of the others' time, in nanoseconds
  /// (what they owe before their next turn), for tests and statistics.
  func owed(by client: ClientKey) -> (address: UInt64, client: UInt64) {
    (addresses.owed(by: client.address), clients[client.address]?.owed(by: client) ?? 0)
  }

  /// Removes and returns every job for which `drop` holds (cancelled ones).
  mutating func removeAll(where drop: (Job) -> Bool) -> [Job] {
    var removed: [Job] = []
    for (client, queue) in jobs {
      let gone = queue.filter(drop)
      guard !gone.isEmpty else { continue }
      removed += gone
      count -= gone.count
      let kept = queue.filter { !drop($0) }
      jobs[client] = kept.isEmpty ? nil : kept
      guard kept.isEmpty else { continue }
      clients[client.address]?.leave(client)
      if clients[client.address]?.isEmpty == true { addresses.leave(client.address) }
    }
    forgetIdle()
    return removed
  }

  /// Drops the clients' turns of addresses where nobody waits or owes time.
  private mutating func forgetIdle() {
    guard clients.count > addresses.waiting.count + 64 else { return }
    clients = clients.filter { !$0.value.isEmpty || $0.value.owesTime }
    if clients.count > addresses.waiting.count + FairTurns<String>.idleBound {
      clients = clients.filter { !$0.value.isEmpty }
    }
  }
}
