import CPosix
import Foundation
import HTTP

/// The one scheduler for model stepping beyond the realtime tick. Realtime ticks (running,
/// light sessions at 60 Hz) come first: they run on the game loop and no job slice starts while
/// a tick is under way. Everything else that steps a model is a `StepJob` charged to the client
/// that caused it and run here in bounded `StepSlice`s, one slice per turn, on a thread of its
/// own at a lower priority (nice 10). Turns go by time: each slice's CPU time (`cpuClock`, the
/// running thread's own) is charged to its client and address, and the next turn is the
/// address, then the client, that has used the least (`StepRotation`), so a slice that ran one
/// 100 ms step costs its client 100 ms of turns, not one turn.
///
/// A client's share depends only on how many clients have work waiting, never on how many
/// sessions anyone holds: idle sessions submit nothing. With nothing to do the thread sleeps
/// on a condition (no timer). Without `start()` (a manual game loop, tests) nothing runs until
/// `runSlices` is called, which makes the order and counts deterministic.
final class StepScheduler: @unchecked Sendable {
  /// The bounds of one slice and of the waiting jobs.
  struct Configuration: Sendable, Equatable {
    /// Most model steps in one slice.
    var maxStepsPerSlice = 64
    /// Most time one slice may take (checked before every step).
    var sliceTime: Duration = .milliseconds(2)
    /// Jobs one client may have waiting or running; more are refused.
    var jobsPerClient = 64
  }

  /// Counts since start, for `/healthz` and tests.
  struct Statistics: Sendable, Equatable {
    var waiting = 0
    var slices: UInt64 = 0
    var steps: UInt64 = 0
    var finished: UInt64 = 0
    var cancelled: UInt64 = 0
    var refused: UInt64 = 0
    /// CPU time the slices used, charged to their clients.
    var cpu: Duration = .zero
    /// Jobs admitted, by label (`replay`, `heavy-step`, ...).
    var submitted: [String: UInt64] = [:]
  }

  /// Most slices of one job another thread runs (`submitRunningHere`): an event
  /// loop's other connections wait at most this many slices (8 ms).
  static let slicesHere = 4

  /// Nice of the scheduler's thread, below the game loop and the event loops.
  static let niceness: Int32 = 10

  let configuration: Configuration
  private let clock: @Sendable () -> MonotonicTime
  /// The CPU time of the calling thread: what a slice cost its client.
  private let cpuClock: @Sendable () -> MonotonicTime
  /// Guards everything below, and wakes the thread.
  private let condition = NSCondition()
  private var rotation = StepRotation<StepJob>()
  /// Jobs taken for a slice right now, per client (they still count against the client).
  private var inFlight: [ClientKey: Int] = [:]
  private var tickRunning = false
  private var stopping = false
  private var started = false
  private var counts = Statistics()
  private let finished = DispatchSemaphore(value: 0)

  init(
    configuration: Configuration = Configuration(),
    clock: @escaping @Sendable () -> MonotonicTime = { MonotonicTime.now() },
    cpuClock: @escaping @Sendable () -> MonotonicTime = { ThreadCPUTime.now() }
  ) {
    self.configuration = configuration
    self.clock = clock
    self.cpuClock = cpuClock
  }

  /// Queues `job` behind its client's others. False (and `job` completes `.refused`) when its
  /// client already has `jobsPerClient` jobs.
  @discardableResult
  func submit(_ job: StepJob) -> Bool {
    condition.lock()
    let mine = rotation.count(of: job.client) + inFlight[job.client, default: 0]
    let admitted = mine < configuration.jobsPerClient && !stopping
    if admitted {
      rotation.add(job, client: job.client)
      counts.submitted[job.label, default: 0] += 1
      condition.broadcast()
    } else {
      counts.refused += 1
    }
    condition.unlock()
    if !admitted {
      job.end(.refused("too many jobs of this client are waiting; try again shortly"))
    }
    return admitted
  }

  /// Runs `job` on the calling thread when the scheduler has nothing else to do (started, no
  /// job waiting or in a slice, no tick under way), which saves two thread hand-offs; otherwise
  /// queues it as `submit` does. Its slices have the same bounds and are counted the same; the
  /// caller goes on slice after slice while nothing else waits and no tick runs, up to
  /// `slicesHere`, then leaves the rest to the scheduler's thread, in turn with the others.
  /// NB: the caller's thread is not niced: callers are event loops, whose other connections
  /// wait meanwhile (at most `slicesHere` slices).
  @discardableResult
  func submitRunningHere(_ job: StepJob) -> Bool {
    condition.lock()
    let idle = started && !stopping && !tickRunning && rotation.isEmpty && inFlight.isEmpty
    if idle {
      inFlight[job.client, default: 0] += 1
      counts.submitted[job.label, default: 0] += 1
    }
    condition.unlock()
    guard idle else { return submit(job) }
    runSlice(of: job, client: job.client, here: true)
    return true
  }

  /// How far `client`'s address and `client` have used more than the others waiting (what
  /// they owe before their next turn), for tests.
  func owed(by client: ClientKey) -> (address: Duration, client: Duration) {
    condition.lock()
    defer { condition.unlock() }
    let owed = rotation.owed(by: client)
    return (.nanoseconds(owed.address), .nanoseconds(owed.client))
  }

  var statistics: Statistics {
    condition.lock()
    defer { condition.unlock() }
    var counts = counts
    counts.waiting = rotation.count + inFlight.values.reduce(0, +)
    return counts
  }

  // MARK: Realtime first

  /// The game loop starts a tick: no new slice starts until `tickEnded()`.
  func tickBegins() {
    condition.lock()
    tickRunning = true
    condition.unlock()
  }

  /// The game loop's tick is over: slices may run until the next one.
  func tickEnded() {
    condition.lock()
    tickRunning = false
    condition.broadcast()
    condition.unlock()
  }

  // MARK: Running

  /// Starts the scheduler's own thread.
  func start() {
    condition.lock()
    started = true
    condition.unlock()
    let thread = Thread { [self] in
      _ = cposix_nice_this_thread(Self.niceness)
      while let (job, client) = waitForTurn() {
        runSlice(of: job, client: client)
      }
      finished.signal()
    }
    thread.name = "playfield-step-scheduler"
    thread.start()
  }

  /// Stops after the slice under way; waiting jobs complete `.cancelled`. Blocks until then.
  func stop() {
    condition.lock()
    let wasStarted = started
    stopping = true
    let dropped = rotation.removeAll { _ in true }
    condition.broadcast()
    condition.unlock()
    for job in dropped { job.end(.cancelled) }
    if wasStarted { finished.wait() }
  }

  /// Runs up to `limit` slices now, in turn, on the calling thread (a manual game loop and
  /// tests); returns how many ran. By default, one slice for each job waiting when called.
  @discardableResult
  func runSlices(_ limit: Int? = nil) -> Int {
    condition.lock()
    let budget = limit ?? rotation.count
    condition.unlock()
    var ran = 0
    while ran < budget, let (job, client) = take() {
      runSlice(of: job, client: client)
      ran += 1
    }
    return ran
  }

  /// The next job whose turn it is, marked in flight; nil when none waits.
  private func take() -> (StepJob, ClientKey)? {
    condition.lock()
    defer { condition.unlock() }
    guard let (client, job) = rotation.next() else { return nil }
    inFlight[client, default: 0] += 1
    return (job, client)
  }

  /// Blocks until a job waits and no tick runs; nil when stopping.
  private func waitForTurn() -> (StepJob, ClientKey)? {
    condition.lock()
    defer { condition.unlock() }
    while !stopping && (rotation.isEmpty || tickRunning) { condition.wait() }
    guard !stopping, let (client, job) = rotation.next() else { return nil }
    inFlight[client, default: 0] += 1
    return (job, client)
  }

  /// Runs one slice of `job` (in flight for `client`), then puts it back when it has more to
  /// do, or reports how it ended. `here`: run by another thread than the scheduler's
  /// (`submitRunningHere`), which goes on with the next slice itself as long as
  /// nothing else waits and no tick runs.
  private func runSlice(of job: StepJob, client: ClientKey, here: Bool = false) {
    var slicesHere = 0
    while true {
      slicesHere += 1
      var progress = StepJob.Progress.done
      var steps = 0
      var cost = Duration.zero
      let cancelled = job.isCancelled
      if !cancelled {
        var slice = StepSlice(
          maxSteps: configuration.maxStepsPerSlice, deadline: clock() + configuration.sliceTime,
          clock: clock)
        let before = cpuClock()
        progress = job.run(&slice)
        cost = cpuClock() - before
        steps = slice.steps
      }
      condition.lock()
      rotation.charge(client, cost)
      counts.cpu += cost
      counts.slices += cancelled ? 0 : 1
      counts.steps += UInt64(steps)
      let again = progress == .more && !job.isCancelled && !stopping
      if again && here && slicesHere < Self.slicesHere && !tickRunning && rotation.isEmpty
        && inFlight.count == 1
      {
        // Still alone: the next slice here too, the job staying in flight.
        condition.unlock()
        continue
      }
      inFlight[client, default: 1] -= 1
      if inFlight[client] == 0 { inFlight[client] = nil }
      if again {
        rotation.add(job, client: client)
        // NB: a slice run by another thread leaves its job to the scheduler's thread, which
        // may be waiting.
        condition.broadcast()
      } else if job.isCancelled || progress == .more {
        counts.cancelled += 1
      } else {
        counts.finished += 1
      }
      condition.unlock()
      guard !again else { return }
      job.end(job.isCancelled || progress == .more ? .cancelled : .finished)
      return
    }
  }
}
