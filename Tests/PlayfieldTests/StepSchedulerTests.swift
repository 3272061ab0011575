import Foundation
import HTTP
import Synchronization
import Testing

@testable import Playfield

/// What the jobs of a test did, in order.
private final class Journal: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func add(_ line: String) { lines.withLock { $0.append(line) } }
}

/// A CPU clock the test's jobs move by what their slices are said to cost.
private final class CPU: Sendable {
  private let nanoseconds = Atomic<UInt64>(0)
  var now: MonotonicTime { MonotonicTime(nanoseconds: nanoseconds.load(ordering: .relaxed)) }
  func spend(_ cost: Duration) {
    nanoseconds.add(
      UInt64(cost.components.seconds) * 1_000_000_000
        + UInt64(cost.components.attoseconds / 1_000_000_000), ordering: .relaxed)
  }
}

/// A job of `client` named `name` that needs `slices` slices of up to `steps` steps each (a
/// model it steps forever when `steps` is nil), writing `name` and the steps of each slice.
private func job(
  _ name: String, client: ClientKey, slices: Int, journal: Journal,
  outcome: (@Sendable (StepJob.Outcome) -> Void)? = nil
) -> StepJob {
  var left = slices
  return StepJob(
    client: client, label: "test",
    work: { slice in
      var steps = 0
      while slice.mayStep() { steps += 1 }
      journal.add("\(name) \(steps)")
      left -= 1
      return left == 0 ? .done : .more
    },
    completion: { result in
      journal.add("\(name) \(result)")
      outcome?(result)
    })
}

@Suite("One scheduler for the game loop's CPU")
struct StepSchedulerTests {
  static func scheduler(steps: Int = 4, jobs: Int = 64) -> StepScheduler {
    StepScheduler(
      configuration: .init(
        maxStepsPerSlice: steps, sliceTime: .milliseconds(2), jobsPerClient: jobs),
      clock: { .zero }, cpuClock: { .zero })
  }

  /// A scheduler whose slices cost what the jobs say: `CPU.spend` moves its CPU clock.
  fileprivate static func costed(_ cpu: CPU) -> StepScheduler {
    StepScheduler(
      configuration: .init(maxStepsPerSlice: 1, sliceTime: .milliseconds(2)),
      clock: { .zero }, cpuClock: { cpu.now })
  }

  /// A job of `client` that runs forever, each slice costing `cost` of `cpu`, writing `name`.
  fileprivate static func costly(
    _ name: String, client: ClientKey, cost: Duration, cpu: CPU, journal: Journal
  ) -> StepJob {
    StepJob(
      client: client, label: "test",
      work: { slice in
        _ = slice.mayStep()
        cpu.spend(cost)
        journal.add(name)
        return .more
      })
  }

  @Test("turns go by time: a client whose slices cost ten times another's gets a tenth of them")
  func fairByTime() {
    let cpu = CPU()
    let journal = Journal()
    let scheduler = Self.costed(cpu)
    scheduler.submit(
      Self.costly("heavy", client: "a", cost: .milliseconds(10), cpu: cpu, journal: journal))
    scheduler.submit(
      Self.costly("light", client: "b", cost: .milliseconds(1), cpu: cpu, journal: journal))
    scheduler.runSlices(110)
    let heavy = journal.all.filter { $0 == "heavy" }.count
    let light = journal.all.filter { $0 == "light" }.count
    #expect(heavy == 10)
    #expect(light == 100)
    // Each had about the same CPU: 100 ms against 100 ms.
    #expect(scheduler.statistics.cpu == .milliseconds(200))
  }

  @Test("one 100 ms step (a 10,000-ball model's) costs its client 100 ms of others' turns")
  func heavyStepCostsItsTime() {
    let cpu = CPU()
    let journal = Journal()
    let scheduler = Self.costed(cpu)
    // One step of a's job takes 100 ms (the first step of a slice always runs).
    scheduler.submit(
      Self.costly("big", client: "a", cost: .milliseconds(100), cpu: cpu, journal: journal))
    scheduler.submit(
      Self.costly("small", client: "b", cost: .milliseconds(2), cpu: cpu, journal: journal))
    scheduler.runSlices(1)
    #expect(journal.all == ["big"])
    #expect(scheduler.owed(by: "a").address == .milliseconds(100))
    // b runs 50 slices of 2 ms before a's next turn; then they tie and a goes first.
    scheduler.runSlices(51)
    #expect(journal.all.dropFirst().prefix(50).allSatisfy { $0 == "small" })
    #expect(journal.all.last == "big")
    #expect(journal.all.count == 52)
  }

  @Test("families of one address share its time; an address's time is not another's")
  func familiesShareTime() {
    let cpu = CPU()
    let journal = Journal()
    let scheduler = Self.costed(cpu)
    // Two families of one address, one of them heavy, against another address.
    scheduler.submit(
      Self.costly(
        "f1", client: ClientKey(address: "10.0.0.1", family: "f1"), cost: .milliseconds(3),
        cpu: cpu, journal: journal))
    scheduler.submit(
      Self.costly(
        "f2", client: ClientKey(address: "10.0.0.1", family: "f2"), cost: .milliseconds(1),
        cpu: cpu, journal: journal))
    scheduler.submit(
      Self.costly("other", client: "10.0.0.2", cost: .milliseconds(1), cpu: cpu, journal: journal))
    scheduler.runSlices(160)
    let count = { (name: String) in journal.all.filter { $0 == name }.count }
    // The other address gets half the time, the families a quarter each: in 192 ms, 96
    // slices of 1 ms, 16 of 3 ms (f1) and 48 of 1 ms (f2).
    #expect((94...98).contains(count("other")))
    #expect((15...17).contains(count("f1")))
    #expect((46...50).contains(count("f2")))
  }

  @Test("an address that was idle is not owed the time it did not use")
  func idleEarnsNothing() {
    let cpu = CPU()
    let journal = Journal()
    let scheduler = Self.costed(cpu)
    let busy = Self.costly("busy", client: "a", cost: .milliseconds(1), cpu: cpu, journal: journal)
    scheduler.submit(busy)
    scheduler.runSlices(100)
    // b comes after a has used 100 ms: they alternate, b does not get 100 slices in a row.
    scheduler.submit(
      Self.costly("late", client: "b", cost: .milliseconds(1), cpu: cpu, journal: journal))
    scheduler.runSlices(10)
    #expect(journal.all.suffix(10).filter { $0 == "late" }.count == 5)
  }

  @Test("two clients' jobs alternate; one client's many jobs share its turn")
  func clientsAlternate() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    scheduler.submit(job("a1", client: "a", slices: 3, journal: journal))
    scheduler.submit(job("a2", client: "a", slices: 3, journal: journal))
    scheduler.submit(job("b1", client: "b", slices: 3, journal: journal))
    while scheduler.runSlices() > 0 {}
    let slices = journal.all.filter { $0.hasSuffix(" 4") }.map { String($0.prefix(2)) }
    #expect(slices == ["a1", "b1", "a2", "b1", "a1", "b1", "a2", "a1", "a2"])
    #expect(journal.all.filter { $0.hasSuffix("finished") }.count == 3)
    #expect(scheduler.statistics.slices == 9)
    #expect(scheduler.statistics.steps == 36)
    #expect(scheduler.statistics.waiting == 0)
  }

  @Test("a client with ten jobs gets no more turns than a client with one")
  func manyJobsDoNotDilute() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    for n in 0..<10 { scheduler.submit(job("a\(n)", client: "a", slices: 5, journal: journal)) }
    scheduler.submit(job("b", client: "b", slices: 5, journal: journal))
    // Ten slices: b has had one every other turn.
    scheduler.runSlices(10)
    let owners = journal.all.filter { $0.hasSuffix(" 4") }.map { $0.hasPrefix("b") ? "b" : "a" }
    #expect(owners == ["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"])
  }

  @Test("browser families of one address share that address's turn")
  func familiesShareTheAddress() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    for family in ["f1", "f2", "f3"] {
      scheduler.submit(
        job(
          family, client: ClientKey(address: "10.0.0.1", family: family), slices: 9,
          journal: journal))
    }
    scheduler.submit(job("other", client: "10.0.0.2", slices: 9, journal: journal))
    scheduler.runSlices(6)
    #expect(
      journal.all.map { String($0.split(separator: " ")[0]) } == [
        "f1", "other", "f2", "other", "f3", "other",
      ])
  }

  @Test("a slice never runs more model steps than its bound, however long the job")
  func sliceStepBound() {
    let journal = Journal()
    let scheduler = Self.scheduler(steps: 7)
    scheduler.submit(job("long", client: "a", slices: 1000, journal: journal))
    scheduler.runSlices(20)
    #expect(journal.all.count == 20)
    #expect(journal.all.allSatisfy { $0 == "long 7" })
  }

  @Test("a slice stops at its deadline, read before every step, after at least one step")
  func sliceTimeBound() {
    // Each clock read moves 1 ms; slices may take 2 ms.
    let reads = Atomic<UInt64>(0)
    let scheduler = StepScheduler(
      configuration: .init(maxStepsPerSlice: 1000, sliceTime: .milliseconds(2)),
      clock: {
        MonotonicTime(nanoseconds: reads.add(1_000_000, ordering: .relaxed).newValue)
      })
    let journal = Journal()
    scheduler.submit(job("timed", client: "a", slices: 3, journal: journal))
    while scheduler.runSlices() > 0 {}
    // The deadline is read at 1 ms (so 3 ms); the first step is not checked, the second reads
    // 2 ms, the third 3 ms: too late. Two steps a slice.
    #expect(journal.all.prefix(3) == ["timed 2", "timed 2", "timed 2"])
  }

  @Test("a client past its job bound is refused, and told so")
  func refusal() {
    let journal = Journal()
    let scheduler = Self.scheduler(jobs: 2)
    #expect(scheduler.submit(job("a1", client: "a", slices: 1, journal: journal)))
    #expect(scheduler.submit(job("a2", client: "a", slices: 1, journal: journal)))
    #expect(!scheduler.submit(job("a3", client: "a", slices: 1, journal: journal)))
    #expect(scheduler.submit(job("b1", client: "b", slices: 1, journal: journal)))
    #expect(journal.all.count == 1)
    #expect(journal.all[0].hasPrefix("a3 refused"))
    #expect(scheduler.statistics.refused == 1)
    #expect(scheduler.statistics.waiting == 3)
  }

  @Test("a cancelled job runs no further slice and completes cancelled, once")
  func cancel() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    let doomed = job("x", client: "a", slices: 100, journal: journal)
    scheduler.submit(doomed)
    scheduler.runSlices(1)
    doomed.cancel()
    scheduler.runSlices(5)
    #expect(journal.all == ["x 4", "x cancelled"])
    #expect(scheduler.statistics.cancelled == 1)
    #expect(scheduler.statistics.waiting == 0)
  }

  @Test("no slice starts while a tick runs; the thread sleeps with nothing to do")
  func ticksFirst() throws {
    let journal = Journal()
    let done = Mutex<Bool>(false)
    let scheduler = StepScheduler(configuration: .init(maxStepsPerSlice: 1))
    scheduler.tickBegins()
    scheduler.start()
    defer { scheduler.stop() }
    scheduler.submit(
      job(
        "j", client: "a", slices: 1, journal: journal, outcome: { _ in done.withLock { $0 = true } }
      ))
    // The thread is free to run it, but the tick holds it: nothing may have happened.
    usleep(50_000)
    #expect(journal.all.isEmpty)
    scheduler.tickEnded()
    let deadline = ContinuousClock.now + .seconds(30)
    while !done.withLock({ $0 }) && ContinuousClock.now < deadline { usleep(1_000) }
    #expect(journal.all == ["j 1", "j finished"])
  }

  @Test(
    "with nothing else to do, a job's first slices run on the caller's thread; the rest on the scheduler's"
  )
  func firstSliceHere() {
    let journal = Journal()
    let done = Mutex<Bool>(false)
    let scheduler = Self.scheduler()
    scheduler.start()
    defer { scheduler.stop() }
    let caller = Thread.current
    let threads = Mutex<[Bool]>([])
    var left = StepScheduler.slicesHere + 2
    let job = StepJob(
      client: "a", label: "test",
      work: { slice in
        threads.withLock { $0.append(Thread.current == caller) }
        while slice.mayStep() {}
        left -= 1
        return left == 0 ? .done : .more
      },
      completion: { result in
        journal.add("\(result)")
        done.withLock { $0 = true }
      })
    scheduler.submitRunningHere(job)
    // Alone, its first `slicesHere` slices ran before the call returned, here (the scheduler's
    // thread may already have run more since).
    let here = [Bool](repeating: true, count: StepScheduler.slicesHere)
    #expect(Array(threads.withLock { $0 }.prefix(StepScheduler.slicesHere)) == here)
    let deadline = ContinuousClock.now + .seconds(30)
    while !done.withLock({ $0 }) && ContinuousClock.now < deadline { usleep(1_000) }
    #expect(threads.withLock { $0 } == here + [false, false])
    #expect(journal.all == ["finished"])
    #expect(scheduler.statistics.slices == UInt64(StepScheduler.slicesHere + 2))
    #expect(scheduler.statistics.steps == UInt64(4 * (StepScheduler.slicesHere + 2)))
  }

  @Test("a job submitted while another waits, or during a tick, is queued, not run here")
  func queuedWhenBusy() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    // Not started (a manual loop): always queued.
    scheduler.submitRunningHere(job("m", client: "a", slices: 1, journal: journal))
    #expect(journal.all.isEmpty)
    #expect(scheduler.runSlices() == 1)
    #expect(journal.all == ["m 4", "m finished"])
    let started = StepScheduler(configuration: .init(maxStepsPerSlice: 4), clock: { .zero })
    started.tickBegins()
    started.start()
    defer { started.stop() }
    let ticking = Journal()
    started.submitRunningHere(job("t", client: "b", slices: 1, journal: ticking))
    #expect(ticking.all.isEmpty, "a tick runs: the job waits for the scheduler's thread")
    started.tickEnded()
  }

  @Test("stopping cancels what waits")
  func stopCancels() {
    let journal = Journal()
    let scheduler = Self.scheduler()
    scheduler.submit(job("w", client: "a", slices: 2, journal: journal))
    scheduler.stop()
    #expect(journal.all == ["w cancelled"])
    #expect(!scheduler.submit(job("late", client: "a", slices: 1, journal: journal)))
  }
}
