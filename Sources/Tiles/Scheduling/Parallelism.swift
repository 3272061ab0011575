import Dispatch

/// How a render spreads its work: over `threads` threads of a `RenderPool` when it has one,
/// else of Dispatch's shared pool.
struct Parallelism: Sendable {
  let threads: Int
  let pool: RenderPool?

  init(threads: Int, pool: RenderPool? = nil) {
    self.threads = max(1, threads)
    self.pool = pool
  }

  /// Runs `body(0)` ... `body(threads - 1)` at once and returns when all are done; with a pool,
  /// parts it has no free thread for are dropped (see `RenderPool.perform`).
  func run(_ body: @escaping @Sendable (Int) -> Void) {
    if threads == 1 {
      body(0)
    } else if let pool {
      pool.perform(threads, body)
    } else {
      DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    }
  }
}
