import Dispatch
import HTTP
import Server
import Synchronization

/// Where requests that may wait on a shared database run, off the event loops: adopting a
/// session (over HTTP or a WebSocket upgrade) and listing every process's sessions. While PostgreSQL reconnects or stalls such a
/// call waits seconds; on an event loop it would hold up every connection of that loop (static
/// files, the frames of live sessions). `workers` calls run at once; at most `capacity`
/// (`--store-call-queue`) wait or run, and a request past that gets 503 with `Retry-After: 1`
/// at once.
final class StoreCalls: Sendable {
  /// Most calls waiting or running.
  let capacity: Int
  private let queues: [DispatchQueue]
  private let turn = Atomic<Int>(0)
  private let inUse = Atomic<Int>(0)

  init(workers: Int = 2, capacity: Int = Limit.storeCallQueue.defaultValue) {
    self.capacity = capacity
    self.queues = (0..<max(1, workers)).map {
      DispatchQueue(label: "playfield.store-calls.\($0)", qos: .userInitiated)
    }
  }

  /// Calls waiting or running now.
  var count: Int { inUse.load(ordering: .relaxed) }

  /// Answers with what `work` replies, worked out on a store worker; 503 when the queue is full.
  func answer(_ work: @escaping @Sendable () -> Reply) -> Reply {
    let pending = PendingResponse()
    guard run({ Self.finish(pending, with: work()) }) else {
      return .response(Self.full.response)
    }
    return .later(pending)
  }

  /// Runs `work` on a store worker; false, running nothing, when the queue is full.
  @discardableResult
  func run(_ work: @escaping @Sendable () -> Void) -> Bool {
    guard inUse.add(1, ordering: .acquiringAndReleasing).newValue <= capacity else {
      inUse.subtract(1, ordering: .acquiringAndReleasing)
      return false
    }
    let queue = queues[turn.add(1, ordering: .relaxed).newValue % queues.count]
    queue.async { [self] in
      work()
      inUse.subtract(1, ordering: .acquiringAndReleasing)
    }
    return true
  }

  /// The error a request gets when too many wait for the database.
  static var full: APIError {
    var error = APIError(
      .serviceUnavailable,
      "too many requests are waiting for the database (--store-call-queue); ask again")
    error.headers.set("Retry-After", "1")
    return error
  }

  private static func finish(_ pending: PendingResponse, with reply: Reply) {
    switch reply {
    case .response(let response):
      pending.succeed(response)
    case .later(let inner):
      // NB: the mapped response is kept by `inner`'s callback until `inner` finishes.
      _ = inner.map { response in
        pending.succeed(response)
        return response
      }
    case .webSocket(let accepted, let handler):
      // An upgrade request for a session adopted here: the event loop sends the 101 and
      // switches the connection.
      pending.succeed(upgradingTo: accepted, handler)
    }
  }
}
