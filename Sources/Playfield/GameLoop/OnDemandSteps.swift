import HTTP
import Synchronization

/// Where on-demand sessions (`SessionClock.onDemand`) do their work: jobs of the step
/// scheduler (`StepJob`, label `on-demand`), charged to the client that owns the session, in
/// bounded slices, below the realtime ticks.
///
/// A session submits a job when a command arrives and none of its jobs is waiting
/// (`LiveSession.send`); each slice drains what its clients sent, in order, and a step too long
/// for one slice goes on in the next.
final class OnDemandSteps: Sendable {
  private let scheduler: StepScheduler
  /// Seconds since 1970, handed to each slice (it dates listings and idleness; steps never
  /// read it).
  private let wallClock: @Sendable () -> Double
  /// Who owns a session (its creator); a session without one (restored) pays for itself.
  private let owner: @Sendable (String) -> ClientKey?
  private let totals = Mutex<(cpu: Duration, slices: Int)>((.zero, 0))

  init(
    scheduler: StepScheduler, wallClock: @escaping @Sendable () -> Double,
    owner: @escaping @Sendable (String) -> ClientKey?
  ) {
    self.scheduler = scheduler
    self.wallClock = wallClock
    self.owner = owner
  }

  /// Submits the work of session `id`: called once per slice with the time and the slice, it
  /// returns `.more` while work is left. `completion` is told how the job ended.
  func submit(
    _ id: String, work: @escaping (Double, inout StepSlice) -> StepJob.Progress,
    completion: @escaping @Sendable (StepJob.Outcome) -> Void
  ) {
    submit(
      job(
        charging: owner(id) ?? ClientKey(address: "session \(id)"), label: "on-demand",
        work: work, completion: completion))
  }

  /// Who pays for session `id`'s writes (`SessionJournal.whenWritable`): its owner, as for its
  /// jobs.
  func payer(of id: String) -> String {
    (owner(id) ?? ClientKey(address: "session \(id)")).description
  }

  /// A job charged to `client`, counted in these statistics, to `submit(_:)` (a batch of
  /// sessions stepped over one connection is charged to the connection's client, whoever
  /// created them).
  func job(
    charging client: ClientKey, label: String,
    work: @escaping (Double, inout StepSlice) -> StepJob.Progress,
    completion: @escaping @Sendable (StepJob.Outcome) -> Void
  ) -> StepJob {
    StepJob(
      client: client, label: label,
      work: { [self] slice in
        let before = ThreadCPUTime.now()
        let progress = work(wallClock(), &slice)
        let cost = ThreadCPUTime.now() - before
        totals.withLock {
          $0.cpu += cost
          $0.slices += 1
        }
        return progress
      }, completion: completion)
  }

  /// Queues `job` at the scheduler (it completes `.refused` when its client has too many);
  /// `here`: it runs on the calling thread while nothing else waits
  /// (`StepScheduler.submitRunningHere`).
  func submit(_ job: StepJob, here: Bool = false) {
    if here {
      scheduler.submitRunningHere(job)
    } else {
      scheduler.submit(job)
    }
  }

  /// The CPU time of the slices run so far, and how many there were (for `/healthz`).
  var statistics: (cpu: Duration, slices: Int) { totals.withLock { $0 } }
}
