import CPosix
import Foundation
import HTTP
import Server
import Synchronization

/// Expensive answers that are not cached (each reads fresh state, e.g. input-log pages), given
/// the same admission as a `ColdResourceService`: a `FairQueue` charged to the asking client (a
/// few at a time, addresses and then their clients in turn, a bounded wait list, a deadline),
/// a worker thread, and 429 or 503 with `Retry-After` for refusals.
final class FairWork: Sendable {
  /// One answer to work out, for whom, and where it goes.
  struct Job: Sendable {
    var client: ClientKey
    var pending: PendingResponse
    var work: @Sendable () -> Response
  }

  typealias Limits = FairQueue<Job>.Limits

  /// Nice the workers below the game loop and the event loops.
  static let niceness: Int32 = 10

  private let queue: Mutex<FairQueue<Job>>
  /// Names the worker threads.
  private let name: String
  private let wording: ColdWording
  private let errorStyle: ErrorStyle
  /// Monotonic seconds, for the queue's deadline.
  private let clock: @Sendable () -> Double

  /// - Parameter name: names the worker threads, `playfield.NAME`.
  init(
    name: String, limits: Limits, wording: ColdWording, errorStyle: ErrorStyle = .json,
    clock: @escaping @Sendable () -> Double = { Double(MonotonicTime.now().nanoseconds) / 1e9 }
  ) {
    self.queue = Mutex(FairQueue(limits: limits))
    self.name = "playfield-\(name)"
    self.wording = wording
    self.errorStyle = errorStyle
    self.clock = clock
  }

  /// Jobs running now and waiting now.
  var counts: (running: Int, waiting: Int) {
    queue.withLock { ($0.runningCount, $0.waitingCount) }
  }

  /// Starts or queues `work` for `client`, or refuses it at once.
  func submit(client: ClientKey, _ work: @escaping @Sendable () -> Response) -> Reply {
    let job = Job(client: client, pending: PendingResponse(), work: work)
    switch queue.withLock({ $0.submit(job, client: client, now: clock()) }) {
    case .start(let job):
      run(job)
    case .wait:
      break
    case .refuse(_, let refusal):
      return .response(refused(refusal))
    }
    return .later(job.pending)
  }

  private func run(_ job: Job) {
    let thread = Thread { [self] in
      _ = cposix_nice_this_thread(Self.niceness)
      let response = job.work()
      // NB: the slot is handed on before the answer goes, so a client that has its answer
      // never finds its own job still counted.
      let (start, expired) = queue.withLock { $0.finish(client: job.client, now: clock()) }
      job.pending.succeed(response)
      for (late, refusal) in expired { late.pending.succeed(refused(refusal)) }
      // NB: from a thread that is not niced, or the next worker would inherit this niceness
      // and add its own.
      if !start.isEmpty { DispatchQueue.global().async { for next in start { self.run(next) } } }
    }
    thread.name = name
    thread.start()
  }

  /// 429 for a client over its share, 503 when the queue is full or the wait too long.
  private func refused(_ refusal: FairQueue<Job>.Refusal) -> Response {
    errorStyle.response(
      refusal.tooManyFromClient ? .tooManyRequests : .serviceUnavailable,
      refusal.tooManyFromClient ? wording.tooManyFromClient : wording.busy,
      headers: ["Retry-After": String(refusal.retryAfter), "Cache-Control": "no-store"])
  }
}
