import Dispatch
import Foundation
import HTTP
import Server
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one scheduler that drives every session at a fixed 60 Hz: a thread sleeping until the
/// next tick is due on the monotonic clock, stepping all sessions (spread over the cores), and
/// measuring how late each tick starts.
final class GameLoop: @unchecked Sendable {
  /// Lateness and throughput, for `/healthz` and benchmarks. Percentiles and work cover the
  /// last full window of `windowTicks` ticks; the counts cover the whole run.
  struct Statistics: Sendable {
    var ticks: UInt64 = 0
    var droppedTicks: UInt64 = 0
    var sessions = 0
    var latenessP50: Double = 0
    var latenessP99: Double = 0
    var latenessMax: Double = 0
    /// Mean milliseconds spent stepping all sessions in a tick.
    var workMean: Double = 0
    /// Sessions over their share of the tick budget, and how many ticks apart they step.
    var throttled: [String: Int] = [:]
  }

  /// Ticks in one statistics window (ten seconds).
  static let windowTicks: UInt64 = 600

  private let sessions: @Sendable () -> [LiveSession]
  private let replays: @Sendable () -> [ReplaySession]
  /// Housekeeping (removing expired sessions), run once a minute of ticks.
  private let maintenance: @Sendable () -> Void
  static let maintenanceInterval: UInt64 = 3600
  private let wallClock: @Sendable () -> Double
  private let stopped = Atomic<Bool>(false)
  private let started = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private let published = Mutex(Statistics())
  private var lateness = LatencyHistogram()
  private var workTotal: Duration = .zero
  private var workCount: UInt64 = 0
  private let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// 10 ms of stepping per core each tick (a tick is 16.7 ms; the rest is for sending).
  private lazy var budget = TickBudget(budget: 10 * Double(workers))
  /// Where the sessions over their share step, off the tick (only with the loop's own thread;
  /// a manual loop steps them in its tick).
  private let offTick: OffTickSteps
  private var tickNumber: UInt64 = 0
  /// Every model step beyond the realtime tick, charged to the client that caused it.
  let scheduler: StepScheduler

  init(
    wallClock: @escaping @Sendable () -> Double,
    sessions: @escaping @Sendable () -> [LiveSession],
    replays: @escaping @Sendable () -> [ReplaySession],
    maintenance: @escaping @Sendable () -> Void
  ) {
    self.maintenance = maintenance
    self.wallClock = wallClock
    self.sessions = sessions
    self.replays = replays
    self.offTick = OffTickSteps(wallClock: wallClock)
    self.scheduler = StepScheduler()
  }

  func start() {
    started.store(true, ordering: .relaxed)
    offTick.start()
    scheduler.start()
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "playfield-game-loop"
    thread.qualityOfService = .userInteractive
    thread.start()
  }

  /// Stops after the current tick; blocks until the loop has ended.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // NB: a manual game loop never started a thread to wait for.
    if started.load(ordering: .relaxed) { finished.wait() }
    offTick.stop()
    scheduler.stop()
  }

  var statistics: Statistics { published.withLock { $0 } }

  private func run() {
    var schedule = TickSchedule(start: MonotonicTime.now())
    while !stopped.load(ordering: .relaxed) {
      let now = MonotonicTime.now()
      let due = schedule.ticksDue(at: now)
      for _ in 0..<due {
        lateness.record(MonotonicTime.now() - schedule.nextDue)
        tick()
        schedule.ran()
        if schedule.ticks % Self.maintenanceInterval == 0 { maintenance() }
      }
      if due > 0 { publish(schedule, windowEnded: schedule.ticks % Self.windowTicks < due) }
      sleep(until: schedule.nextDue)
    }
  }

  /// One tick, outside the thread (a `.manual` game loop).
  func tickOnce() {
    tick()
    scheduler.runSlices()
  }

  /// Advances every session once, on all cores when there are several.
  private func tick() {
    let started = MonotonicTime.now()
    tickNumber += 1
    for (id, cost) in offTick.takeCosts() {
      budget.record(id, milliseconds: Self.milliseconds(cost))
    }
    let everyone = sessions()
    let chosen = Set(budget.select(everyone.map(\.id), tick: tickNumber, busy: offTick.busy))
    var onTick: [(session: LiveSession, budget: SessionBudget)] = []
    let offloading = self.started.load(ordering: .relaxed)
    for session in everyone where chosen.contains(session.id) {
      let state = budget.state(of: session.id)
      // NB: a heavy step would hold up this tick for everyone; it runs beside the loop instead,
      // and so does a new session's first step, whose cost is not known yet (else creating and
      // deleting heavy sessions in a loop would stall the ticks).
      let unmeasured = !budget.isMeasured(session.id)
      if offloading && (state.throttled || unmeasured) {
        offTick.submit(session, budget: state, ahead: unmeasured)
      } else {
        onTick.append((session, state))
      }
    }
    let all = onTick.map(\.session)
    let states = onTick.map(\.budget)
    let now = wallClock()
    let costs = Mutex<[(String, Duration)]>([])
    let chunks = max(1, min(workers, all.count))
    DispatchQueue.concurrentPerform(iterations: all.isEmpty ? 0 : chunks) { chunk in
      var mine: [(String, Duration)] = []
      var index = chunk
      while index < all.count {
        let before = ThreadCPUTime.now()
        all[index].advance(now: now, budget: states[index])
        mine.append((all[index].id, ThreadCPUTime.now() - before))
        index += chunks
      }
      costs.withLock { $0 += mine }
    }
    for (id, cost) in costs.withLock({ $0 }) {
      budget.record(id, milliseconds: Self.milliseconds(cost))
    }
    for replay in replays() { replay.advance() }
    workTotal += MonotonicTime.now() - started
    workCount += 1
  }

  /// Updates the counts; at the end of a window also the percentiles, and starts a new window.
  private func publish(_ schedule: TickSchedule, windowEnded: Bool) {
    let count = sessions().count
    var window: (p50: Double, p99: Double, max: Double, work: Double)?
    if windowEnded {
      let milliseconds =
        Double(workTotal.components.seconds) * 1000
        + Double(workTotal.components.attoseconds) / 1e15
      window = (
        lateness.percentile(0.5), lateness.percentile(0.99), lateness.maximumMilliseconds,
        workCount == 0 ? 0 : milliseconds / Double(workCount)
      )
      lateness.reset()
      workTotal = .zero
      workCount = 0
    }
    published.withLock { statistics in
      statistics.ticks = schedule.ticks
      statistics.droppedTicks = schedule.dropped
      statistics.sessions = count
      statistics.throttled = budget.intervals.filter { $0.value > 1 }
      if let window {
        statistics.latenessP50 = window.p50
        statistics.latenessP99 = window.p99
        statistics.latenessMax = window.max
        statistics.workMean = window.work
      }
    }
  }

  private func sleep(until time: MonotonicTime) {
    var deadline = timespec(
      tv_sec: Int(time.nanoseconds / 1_000_000_000), tv_nsec: Int(time.nanoseconds % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}
