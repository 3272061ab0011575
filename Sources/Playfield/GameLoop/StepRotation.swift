/// Whose turn it is among the clients with off-tick jobs: addresses in rotation, within an
/// address its clients in rotation, within a client its jobs in rotation. Each turn is one
/// slice of one job, so a client's many jobs share that client's turn, and minting browser
/// families never earns an address more turns (as in `FairQueue`).
///
/// Pure: the scheduler adds jobs, takes the next one, and puts it back when it has more to do.
struct StepRotation<Job> {
  private var addresses: [String] = []
  private var clients: [String: [ClientKey]] = [:]
  private var jobs: [ClientKey: [Job]] = [:]
  private(set) var count = 0

  /// Jobs `client` has waiting.
  func count(of client: ClientKey) -> Int { jobs[client]?.count ?? 0 }

  var isEmpty: Bool { count == 0 }

  /// Adds `job` at the back of `client`'s own queue.
  mutating func add(_ job: Job, client: ClientKey) {
    if jobs[client, default: []].isEmpty {
      if clients[client.address, default: []].isEmpty { addresses.append(client.address) }
      clients[client.address, default: []].append(client)
    }
    jobs[client, default: []].append(job)
    count += 1
  }

  /// Takes the job whose turn it is; its client and address go to the back of their rotations.
  /// Give it back with `add` if it has more to do (it then waits behind its client's others).
  mutating func next() -> (client: ClientKey, job: Job)? {
    guard !addresses.isEmpty else { return nil }
    let address = addresses.removeFirst()
    var queue = clients[address] ?? []
    let client = queue.removeFirst()
    var mine = jobs[client] ?? []
    let job = mine.removeFirst()
    count -= 1
    if mine.isEmpty {
      jobs[client] = nil
    } else {
      jobs[client] = mine
      queue.append(client)
    }
    if queue.isEmpty {
      clients[address] = nil
    } else {
      clients[address] = queue
      addresses.append(address)
    }
    return (client, job)
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
    }
    for address in addresses {
      clients[address]?.removeAll { jobs[$0] == nil }
      if clients[address]?.isEmpty == true { clients[address] = nil }
    }
    addresses.removeAll { clients[$0] == nil }
    return removed
  }
}
