import CPosix
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

/// The one thread that drives every running session at a fixed 60 Hz: it sleeps until the
/// next tick is due on the monotonic clock, steps the running sessions that are within their
/// share of the tick (spread over the cores), and measures how late each tick starts.
///
/// Realtime ticks come first. Every other model step (a session over its share, a new
/// session's first step, asked-for steps, replays) becomes a `StepJob` of the `scheduler`,
/// charged to the session's owner or the replay's viewer, and runs off the tick in bounded
/// slices. Sessions with nothing to do are not looked at beyond `wantsTick`; with no session
/// or replay wanting a tick, the loop sleeps until woken (`GameLoopWake`), at most a minute
/// (housekeeping, handed to its own queue).
final class GameLoop: @unchecked Sendable {
  /// Lateness and throughput, for `/healthz` and benchmarks. Percentiles and work cover the
  /// last full window of `windowTicks` ticks; the counts cover the whole run.
  struct Statistics: Sendable {
    var ticks: UInt64 = 0
    var droppedTicks: UInt64 = 0
    var sessions = 0
    /// Sessions that wanted the last tick (running, asked to step, or sent a command).
    var activeSessions = 0
    var latenessP50: Double = 0
    var latenessP99: Double = 0
    var latenessMax: Double = 0
    /// Mean milliseconds spent stepping all sessions in a tick.
    var workMean: Double = 0
    /// Sessions over their share of the tick budget, and how many ticks apart they step.
    var throttled: [String: Int] = [:]
    /// Times the loop went to sleep for lack of work.
    var sleeps: UInt64 = 0
  }

  /// Ticks in one statistics window (ten seconds).
  static let windowTicks: UInt64 = 600

  private let sessions: @Sendable () -> [LiveSession]
  /// Replays and compare groups: each one's tick is a job of its viewer.
  private let replays: @Sendable () -> [any ViewerWork]
  /// Who a session's steps are charged to (its creator); nil for sessions nobody owns
  /// (restored, gallery previews), which are then clients of their own.
  private let owner: @Sendable (String) -> ClientKey?
  /// Housekeeping (removing expired sessions, which deletes them from the store), run once a
  /// minute of ticks on `housekeeping`, never on the loop's thread: a slow store never holds up
  /// a tick. One at a time: while one is under way (a store that hangs) the next is skipped.
  private let maintenance: @Sendable () -> Void
  private let housekeeping = DispatchQueue(label: "playfield.housekeeping", qos: .utility)
  private let maintaining = Atomic<Bool>(false)
  static let maintenanceInterval: UInt64 = 3600
  private let wallClock: @Sendable () -> Double
  private let stopped = Atomic<Bool>(false)
  private let started = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private let published = Mutex(Statistics())
  private var lateness = LatencyHistogram()
  private var workTotal: Duration = .zero
  private var workCount: UInt64 = 0
  private var sleeps: UInt64 = 0
  private var activeCount = 0
  private let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// 10 ms of stepping per core each tick (a tick is 16.7 ms; the rest is for sending).
  private lazy var budget = TickBudget(budget: 10 * Double(workers))
  private var tickNumber: UInt64 = 0
  /// Every model step beyond the realtime tick, charged to the client that caused it.
  let scheduler: StepScheduler
  /// Wakes the loop when it sleeps for lack of work.
  let wake: GameLoopWake
  /// Sessions and replays with a job at the scheduler: never on the tick at the same time.
  private let inFlight = Mutex<Set<String>>([])
  private let replaysInFlight = Mutex<Set<ObjectIdentifier>>([])
  /// What the sessions' jobs cost, for the tick budget.
  private let jobCosts = Mutex<[(String, Duration)]>([])

  init(
    wallClock: @escaping @Sendable () -> Double,
    sessions: @escaping @Sendable () -> [LiveSession],
    replays: @escaping @Sendable () -> [any ViewerWork],
    owner: @escaping @Sendable (String) -> ClientKey? = { _ in nil },
    maintenance: @escaping @Sendable () -> Void,
    scheduler: StepScheduler = StepScheduler(),
    wake: GameLoopWake = GameLoopWake()
  ) {
    self.maintenance = maintenance
    self.wallClock = wallClock
    self.sessions = sessions
    self.replays = replays
    self.owner = owner
    self.scheduler = scheduler
    self.wake = wake
  }

  /// Nice added to the game loop's thread when allowed: above the event loops (0) and the
  /// niced scheduler (`StepScheduler.niceness`).
  static let niceness: Int32 = -5

  func start() {
    started.store(true, ordering: .relaxed)
    scheduler.start()
    let thread = Thread { [self] in
      // Realtime ticks first, against other programs on the machine too where the system
      // lets a thread ask for more than the default share (CAP_SYS_NICE); else it stays as is.
      _ = cposix_nice_this_thread(Self.niceness)
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
    wake.signal()
    // NB: a manual game loop never started a thread to wait for.
    if started.load(ordering: .relaxed) { finished.wait() }
    scheduler.stop()
  }

  var statistics: Statistics { published.withLock { $0 } }

  private func run() {
    var schedule = TickSchedule(start: MonotonicTime.now())
    while !stopped.load(ordering: .relaxed) {
      let now = MonotonicTime.now()
      let due = schedule.ticksDue(at: now)
      var busy = true
      for _ in 0..<due {
        lateness.record(MonotonicTime.now() - schedule.nextDue)
        busy = tick()
        schedule.ran()
        if schedule.ticks % Self.maintenanceInterval == 0 { startMaintenance() }
      }
      if due > 0 { publish(schedule, windowEnded: schedule.ticks % Self.windowTicks < due) }
      if !busy {
        // Nothing runs: no timer until someone sends a command, or housekeeping is due.
        sleeps += 1
        publish(schedule, windowEnded: false)
        if !wake.wait(timeout: .now() + .seconds(Int(Self.maintenanceInterval / 60))) {
          startMaintenance()
        }
        schedule.restart(at: MonotonicTime.now())
        continue
      }
      sleep(until: schedule.nextDue)
    }
  }

  /// Starts housekeeping off the loop's thread, unless the last one is still under way.
  private func startMaintenance() {
    guard !maintaining.exchange(true, ordering: .acquiringAndReleasing) else { return }
    housekeeping.async { [self] in
      maintenance()
      maintaining.store(false, ordering: .releasing)
    }
  }

  /// One tick, outside the thread (a `.manual` game loop), then one slice of every job.
  func tickOnce() {
    _ = tick()
    scheduler.runSlices()
  }

  /// Advances the sessions that want it: the running ones within their share on the tick
  /// (on all cores when there are several), the rest as jobs. Returns whether anything wants
  /// ticks (false: the loop may sleep).
  private func tick() -> Bool {
    scheduler.tickBegins()
    defer { scheduler.tickEnded() }
    let started = MonotonicTime.now()
    tickNumber += 1
    for (id, cost) in jobCosts.withLock({ costs in
      defer { costs.removeAll() }
      return costs
    }) {
      budget.record(id, milliseconds: Self.milliseconds(cost))
    }
    let all = sessions()
    let active = all.filter(\.wantsTick)
    activeCount = active.count
    let busy = inFlight.withLock { $0 }
    var owners: [String: ClientKey] = [:]
    for session in active {
      owners[session.id] = owner(session.id) ?? ClientKey(address: "session \(session.id)")
    }
    let chosen = Set(
      budget.select(
        active.map(\.id), tick: tickNumber, busy: busy,
        client: { owners[$0]?.description ?? $0 }))
    var onTick: [(session: LiveSession, budget: SessionBudget)] = []
    let now = wallClock()
    for session in active where chosen.contains(session.id) {
      let state = budget.state(of: session.id)
      // NB: a heavy step would hold up this tick for everyone, and so would asked-for steps
      // and a new session's first step, whose cost is not known yet (else creating and
      // deleting heavy sessions in a loop would stall the ticks): those are jobs.
      // An on-demand session's tick only shows it (no model step): always on the tick, never
      // a job that would take one of its owner's places at the scheduler.
      let showsOnly = session.sessionClock == .onDemand
      // A step the model says is heavy (a computer's search) is a job too, its cost left out
      // of the tick budget: it is charged to the owner's turns at the scheduler instead.
      if !showsOnly && session.nextStepIsHeavy {
        submitStep(
          of: session, budget: state, now: now, client: owners[session.id]!, heavy: true)
      } else if !showsOnly
        && (state.throttled || !budget.isMeasured(session.id) || !session.isRunning)
      {
        submitStep(of: session, budget: state, now: now, client: owners[session.id]!)
      } else {
        onTick.append((session, state))
      }
    }
    let ticked = onTick.map(\.session)
    let states = onTick.map(\.budget)
    let costs = Mutex<[(String, Duration)]>([])
    let chunks = max(1, min(workers, ticked.count))
    DispatchQueue.concurrentPerform(iterations: ticked.isEmpty ? 0 : chunks) { chunk in
      var mine: [(String, Duration)] = []
      var index = chunk
      while index < ticked.count {
        let before = ThreadCPUTime.now()
        ticked[index].advance(now: now, budget: states[index])
        mine.append((ticked[index].id, ThreadCPUTime.now() - before))
        index += chunks
      }
      costs.withLock { $0 += mine }
    }
    for (id, cost) in costs.withLock({ $0 }) {
      budget.record(id, milliseconds: Self.milliseconds(cost))
    }
    var replaysWanting = 0
    for replay in replays() where replay.wantsTick {
      replaysWanting += 1
      submitTick(of: replay)
    }
    workTotal += MonotonicTime.now() - started
    workCount += 1
    // NB: an unwatched on-demand session's last steps are shown a little later: not asleep.
    return !active.isEmpty || replaysWanting > 0 || !busy.isEmpty
      || all.contains(where: \.waitsToShow)
  }

  /// One tick of `session` as a job of `client`: asked-for steps go on while its slice allows.
  /// A `heavy` step's cost is not the tick budget's.
  private func submitStep(
    of session: LiveSession, budget: SessionBudget, now: Double, client: ClientKey,
    heavy: Bool = false
  ) {
    let id = session.id
    inFlight.withLock { _ = $0.insert(id) }
    scheduler.submit(
      StepJob(
        client: client, label: heavy ? "heavy-step" : "session-step",
        work: { [self] slice in
          let before = ThreadCPUTime.now()
          // The tick's own step (running) or the first asked-for one.
          _ = slice.mayStep()
          session.advance(
            now: now, budget: budget, offTick: true, mayStepAgain: { slice.mayStep() })
          let cost = ThreadCPUTime.now() - before
          if !heavy { jobCosts.withLock { $0.append((id, cost)) } }
          return .done
        },
        completion: { [self] _ in
          inFlight.withLock { _ = $0.remove(id) }
          wake.signal()
        }))
  }

  /// One tick of `replay` (or compare group) as a job of its viewer, unless one is under way.
  private func submitTick(of replay: any ViewerWork) {
    let key = ObjectIdentifier(replay)
    guard replaysInFlight.withLock({ $0.insert(key).inserted }) else { return }
    scheduler.submit(
      StepJob(
        client: replay.client, label: replay.jobLabel,
        work: { slice in
          // NB: a viewer who left stops the replay (or seek) within one step.
          replay.advance(mayStepAgain: { !replay.isClosed && slice.mayStep() })
          return .done
        },
        completion: { [self] _ in
          replaysInFlight.withLock { _ = $0.remove(key) }
          wake.signal()
        }))
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
      statistics.activeSessions = activeCount
      statistics.sleeps = sleeps
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
