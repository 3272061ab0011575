import Testing

@testable import Playfield

@Suite("Fair admission of expensive work")
struct FairQueueTests {
  typealias Queue = FairQueue<String>

  func started(_ admission: Queue.Admission) -> String? {
    if case .start(let job) = admission { return job }
    return nil
  }

  func refusal(_ admission: Queue.Admission) -> Queue.Refusal? {
    if case .refuse(_, let refusal) = admission { return refusal }
    return nil
  }

  @Test("two run, the rest wait, and a client over its share gets 429")
  func shares() {
    var queue = Queue(limits: .init(running: 2, waiting: 10, perClient: 3, deadline: 10))
    #expect(started(queue.submit("a1", client: "a", now: 0)) == "a1")
    #expect(started(queue.submit("a2", client: "a", now: 0)) == "a2")
    if case .wait = queue.submit("a3", client: "a", now: 0) {
    } else {
      Issue.record("a3 should wait")
    }
    let over = refusal(queue.submit("a4", client: "a", now: 0))
    #expect(over == Queue.Refusal(tooManyFromClient: true, retryAfter: 1))
    #expect(queue.runningCount == 2 && queue.waitingCount == 1)
  }

  @Test("a flooding client and a normal one take turns")
  func fairness() {
    var queue = Queue(limits: .init(running: 1, waiting: 100, perClient: 50, deadline: 100))
    _ = queue.submit("flood0", client: "flood", now: 0)
    for index in 1..<20 { _ = queue.submit("flood\(index)", client: "flood", now: 0) }
    _ = queue.submit("normal0", client: "normal", now: 1)
    _ = queue.submit("normal1", client: "normal", now: 1)
    var order: [String] = []
    var client: ClientKey = "flood"
    for _ in 0..<5 {
      let next = queue.finish(client: client, now: 2).start
      #expect(next.count == 1)
      order += next
      client = next.first?.hasPrefix("flood") == true ? "flood" : "normal"
    }
    // The normal client's first tile goes before the flood's next (the flood had one), not
    // after nineteen; then they take turns.
    #expect(order == ["normal0", "flood1", "normal1", "flood2", "flood3"])
  }

  @Test("the queue is bounded: past `waiting`, 503 with a Retry-After")
  func bounded() {
    var queue = Queue(limits: .init(running: 1, waiting: 2, perClient: 10, deadline: 10))
    _ = queue.submit("a", client: "a", now: 0)
    _ = queue.submit("b", client: "b", now: 0)
    _ = queue.submit("c", client: "c", now: 0)
    let full = refusal(queue.submit("d", client: "d", now: 0))
    #expect(full?.tooManyFromClient == false)
    #expect((full?.retryAfter ?? 0) >= 1)
  }

  @Test("a job that waited past the deadline is refused when a slot frees")
  func deadline() {
    var queue = Queue(limits: .init(running: 1, waiting: 10, perClient: 10, deadline: 10))
    _ = queue.submit("slow", client: "a", now: 0)
    _ = queue.submit("old", client: "b", now: 1)
    _ = queue.submit("young", client: "c", now: 9)
    let (start, expired) = queue.finish(client: "a", now: 12)
    #expect(expired.map(\.0) == ["old"])
    #expect(expired.first?.1.tooManyFromClient == false)
    #expect(start == ["young"])
    #expect(queue.waitingCount == 0 && queue.runningCount == 1)
  }

  @Test("finishing frees the client's share")
  func release() {
    var queue = Queue(limits: .init(running: 2, waiting: 10, perClient: 1, deadline: 10))
    _ = queue.submit("a1", client: "a", now: 0)
    #expect(refusal(queue.submit("a2", client: "a", now: 0)) != nil)
    _ = queue.finish(client: "a", now: 1)
    #expect(started(queue.submit("a3", client: "a", now: 1)) == "a3")
  }

  @Test("cheap work never waits for expensive work to end: it has a slot of its own")
  func cheapSlot() {
    var queue = Queue(limits: .init(running: 2, waiting: 10, perClient: 4, deadline: 10))
    #expect(started(queue.submit("deep1", client: "a", cost: 6, now: 0)) == "deep1")
    #expect(started(queue.submit("deep2", client: "b", cost: 6, now: 0)) == "deep2")
    // Expensive work fills `running` slots, never the cheap one.
    if case .wait = queue.submit("deep3", client: "c", cost: 6, now: 0) {
    } else {
      Issue.record("a third deep job should wait")
    }
    #expect(started(queue.submit("cheap", client: "d", cost: 0.01, now: 0)) == "cheap")
    #expect(queue.runningCount == 3 && queue.expensiveRunning == 2)
    if case .wait = queue.submit("cheap2", client: "e", cost: 0.01, now: 1) {
    } else {
      Issue.record("a second cheap job should wait")
    }
    // A freed shared slot goes by turns: c's deep job was first. The cheap slot, freed, takes
    // the cheap job.
    #expect(queue.finish(client: "a", cost: 6, now: 2).start == ["deep3"])
    #expect(queue.finish(client: "d", cost: 0.01, now: 2).start == ["cheap2"])
    #expect(queue.expensiveRunning == 2 && queue.waitingCount == 0)
  }

  @Test("an address sending cheap work without pause does not keep another's expensive job waiting")
  func cheapFloodKeepsTurns() {
    var queue = Queue(
      limits: .init(running: 2, waiting: 100, perClient: 50, perAddress: 50, deadline: 10))
    let flood = ClientKey(address: "10.0.0.9")
    for index in 0..<3 {
      #expect(started(queue.submit("short\(index)", client: flood, cost: 0.01, now: 0)) != nil)
    }
    for index in 3..<20 { _ = queue.submit("short\(index)", client: flood, cost: 0.01, now: 0) }
    _ = queue.submit("page", client: "10.0.0.1", cost: 1, now: 0.5)
    // The page goes first (its address has had nothing, the flood's three short jobs), not
    // after the flood's seventeen; then the flood's, charged 0.01 s each, until they add up.
    #expect(queue.finish(client: flood, cost: 0.01, now: 1).start == ["page"])
    #expect(queue.finish(client: flood, cost: 0.01, now: 1).start == ["short3"])
    #expect(queue.finish(client: flood, cost: 0.01, now: 1).start == ["short4"])
  }

  @Test("a client that comes now and then goes ahead of thirty addresses that keep work waiting")
  func newcomerAmongMany() {
    // Attack 8's shape: 30 addresses read input-log pages (unknown cost) on one slot, each
    // sending its next as soon as one is answered. In rotation a newcomer waited for all 30.
    var queue = Queue(
      limits: .init(running: 1, waiting: 256, perClient: 4, deadline: 100, cheapRunning: 0))
    let busy = (0..<30).map { ClientKey(address: "10.0.0.\($0)") }
    for client in busy {
      _ = queue.submit("\(client.address) a", client: client, now: 0)
      _ = queue.submit("\(client.address) b", client: client, now: 0)
    }
    var now = 0.0
    var runningFor = busy[0]
    func finishOne() -> String {
      now += 0.5
      let started = queue.finish(client: runningFor, now: now).start
      _ = queue.submit("\(runningFor.address) again", client: runningFor, now: now)
      let job = started.first ?? ""
      runningFor = ClientKey(address: String(job.split(separator: " ")[0]))
      return job
    }
    var served: [String: Int] = [:]
    for _ in 0..<75 { served[String(finishOne().split(separator: " ")[0]), default: 0] += 1 }
    #expect(served.count == 30 && served.values.allSatisfy { (2...3).contains($0) }, "\(served)")
    _ = queue.submit("good", client: "10.0.1.1", now: now)
    #expect(finishOne() == "good", "the next freed slot is the newcomer's")
  }

  @Test("coming back after each job earns an address nothing over one that keeps work waiting")
  func comingBackEarnsNothing() {
    var queue = Queue(
      limits: .init(running: 1, waiting: 64, perClient: 16, deadline: 100, cheapRunning: 0))
    _ = queue.submit("back", client: "a", now: 0)
    for index in 0..<12 { _ = queue.submit("wait\(index)", client: "b", now: 0) }
    var counts: [String: Int] = [:]
    var runningFor: ClientKey = "a"
    for step in 1...12 {
      let job = queue.finish(client: runningFor, now: Double(step)).start.first ?? ""
      if runningFor == "a" { _ = queue.submit("back", client: "a", now: Double(step)) }
      runningFor = job == "back" ? "a" : "b"
      counts[runningFor.address, default: 0] += 1
    }
    #expect(counts == ["a": 6, "b": 6], "they take turns")
  }

  @Test("what an address was charged halves every `usageHalfLife`: lately counts more")
  func usageFades() {
    var queue = Queue(
      limits: .init(running: 1, waiting: 10, perClient: 4, deadline: 100, cheapRunning: 0))
    // a's 8 s at 0 count 1 s at 90; b's 2 s at 89 count about 2 s.
    _ = queue.submit("a deep", client: "a", cost: 8, now: 0)
    _ = queue.finish(client: "a", cost: 8, now: 8)
    _ = queue.submit("b deep", client: "b", cost: 2, now: 89)
    _ = queue.submit("b next", client: "b", cost: 2, now: 90)
    _ = queue.submit("a next", client: "a", cost: 2, now: 90)
    #expect(queue.finish(client: "b", cost: 2, now: 91).start == ["a next"])
    #expect(queue.finish(client: "a", cost: 2, now: 100).start == ["b next"])
    _ = queue.finish(client: "b", cost: 2, now: 100)
    // Only what has not faded to nothing is kept: thousands of addresses, each once a
    // second, leave a few hundred (about 10 half-lives of them).
    var previous: ClientKey?
    var startedAtOnce = 0
    for index in 0..<5_000 {
      let now = 100 + Double(index)
      if let previous { _ = queue.finish(client: previous, cost: 1, now: now) }
      let client = ClientKey(address: "10.1.\(index / 256).\(index % 256)")
      if started(queue.submit("once", client: client, cost: 1, now: now)) != nil {
        startedAtOnce += 1
      }
      previous = client
    }
    #expect(startedAtOnce == 5_000)
    #expect(queue.addressesCharged < 1_000, "\(queue.addressesCharged)")
  }

  @Test("a job that held its slot longer than estimated charges its address what it took")
  func chargedWhatItTook() {
    var queue = Queue(
      limits: .init(running: 1, waiting: 10, perClient: 4, deadline: 100, cheapRunning: 0))
    // a's call was estimated at 1 ms and held the slot 3 s; b's was estimated at 1 s, true.
    _ = queue.submit("a list", client: "a", cost: 0.001, now: 0)
    _ = queue.finish(client: "a", cost: 0.001, took: 3, now: 3)
    _ = queue.submit("b page", client: "b", cost: 1, now: 3)
    _ = queue.submit("a next", client: "a", cost: 0.001, now: 4)
    _ = queue.submit("b next", client: "b", cost: 0.001, now: 4)
    #expect(queue.finish(client: "b", cost: 1, took: 1, now: 4).start == ["b next"])
    // Shorter than estimated earns nothing back: the estimate was charged at the start.
    #expect(queue.finish(client: "b", cost: 0.001, took: 0, now: 4).start == ["a next"])
  }

  @Test("in its turn, a client's cheap work goes before its own expensive work")
  func cheapFirstWithinAClient() {
    var queue = Queue(
      limits: .init(running: 1, waiting: 10, perClient: 8, deadline: 10, cheapRunning: 0))
    _ = queue.submit("busy", client: "b", cost: 5, now: 0)
    _ = queue.submit("deep", client: "a", cost: 5, now: 0)
    _ = queue.submit("quick", client: "a", cost: 0.01, now: 1)
    #expect(queue.runningCount == 1 && queue.waitingCount == 2)
    #expect(queue.finish(client: "b", cost: 5, now: 2).start == ["quick"])
    #expect(queue.finish(client: "a", cost: 0.01, now: 2).start == ["deep"])
  }

  @Test("one address's expensive jobs hold at most its share of slots; others find one free")
  func expensiveShareOfAnAddress() {
    var queue = Queue(
      limits: .init(
        running: 2, waiting: 10, perClient: 8, perAddress: 16, deadline: 10, cheapSeconds: 0.05,
        cheapRunning: 1, expensivePerAddress: 1))
    let flood = ClientKey(address: "10.0.0.9")
    let floodFamily = ClientKey(address: "10.0.0.9", family: "f")
    #expect(started(queue.submit("big1", client: flood, cost: 0.3, now: 0)) == "big1")
    // Its second big page waits with a slot free, from any of its address's clients.
    if case .wait = queue.submit("big2", client: flood, cost: 0.3, now: 0) {
    } else {
      Issue.record("an address's second expensive job should wait")
    }
    if case .wait = queue.submit("big3", client: floodFamily, cost: 0.3, now: 0) {
    } else {
      Issue.record("another family of the address should wait too")
    }
    // Another address's big page takes the free slot at once, and small calls the cheap one.
    #expect(started(queue.submit("page", client: "10.0.0.1", cost: 0.1, now: 0)) == "page")
    #expect(started(queue.submit("get", client: "10.0.0.1", cost: 0.001, now: 0)) == "get")
    #expect(queue.runningCount == 3 && queue.expensiveRunning == 2)
    // The other address finishing frees a slot its share does not let the flood take.
    #expect(queue.finish(client: "10.0.0.1", cost: 0.1, now: 1).start.isEmpty)
    // Its own finishing lets the next of its waiting jobs go.
    #expect(queue.finish(client: flood, cost: 0.3, now: 1).start == ["big2"])
    #expect(queue.finish(client: flood, cost: 0.3, now: 2).start == ["big3"])
    #expect(queue.waitingCount == 0 && queue.expensiveRunning == 1)
  }

  @Test("a client's estimated seconds are bounded: past them 429, but one job always goes")
  func chargedByCost() {
    var queue = Queue(
      limits: .init(running: 2, waiting: 10, perClient: 32, deadline: 10, perClientSeconds: 15))
    #expect(started(queue.submit("big", client: "a", cost: 9, now: 0)) == "big")
    let over = refusal(queue.submit("big2", client: "a", cost: 9, now: 0))
    #expect(over?.tooManyFromClient == true && (over?.retryAfter ?? 0) >= 9)
    // Cheap work still fits beside it, and other clients are not charged for a's.
    #expect(started(queue.submit("small", client: "a", cost: 0.1, now: 0)) == "small")
    #expect(started(queue.submit("other", client: "b", cost: 9, now: 0)) == "other")
    // Its charge is given back when the job ends.
    _ = queue.finish(client: "a", cost: 9, now: 1)
    #expect(started(queue.submit("big3", client: "a", cost: 9, now: 1)) == "big3")
    // Alone, a job costlier than the bound is admitted (the service refuses past the deadline).
    var empty = Queue(
      limits: .init(running: 1, waiting: 10, perClient: 4, deadline: 10, perClientSeconds: 5))
    #expect(started(empty.submit("huge", client: "c", cost: 8, now: 0)) == "huge")
  }
}

@Suite("Iteration steps")
struct IterationStepsTests {
  @Test(
    "iter rounds up to a step; cheap values stay",
    arguments: [
      (1, 1), (100, 100), (101, 120), (200, 200), (210, 250), (1000, 1000), (1001, 1200),
      (99901, 100_000), (100_000, 100_000), (81_000, 100_000), (7000, 8000), (350, 400),
    ])
  func snaps(iterations: Int, step: Int) {
    #expect(IterationSteps.snap(iterations) == step)
  }

  @Test("every value from 1 to 100,000 snaps to at most 140 distinct steps, never below")
  func few() {
    var steps = Set<Int>()
    for iterations in 1...100_000 {
      let step = IterationSteps.snap(iterations)
      #expect(step >= iterations && step <= 100_000)
      steps.insert(step)
    }
    #expect(steps.count <= 140)
  }
}
