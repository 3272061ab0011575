import Synchronization

/// Tells a render to stop: when its caller cancels it (its client went away), or when a
/// deadline on the caller's monotonic clock has passed. Renders look at it between small
/// pieces of work (a row, a chunk of pixels, a few hundred reference iterations), so they stop
/// within milliseconds and throw `RenderStopped`; what they had done is dropped, never cached.
///
/// Tiles never reads a clock itself: the caller gives the clock with the deadline.
public final class RenderCancellation: Sendable {
  private let cancelled = Atomic<Bool>(false)
  private let deadline: Double?
  private let clock: (@Sendable () -> Double)?

  /// A render that stops only when `cancel()` is called.
  public init() {
    deadline = nil
    clock = nil
  }

  /// A render that stops when `cancel()` is called or once `clock()` reaches `deadline`
  /// (both in the clock's seconds, a monotonic clock).
  public init(deadline: Double, clock: @escaping @Sendable () -> Double) {
    self.deadline = deadline
    self.clock = clock
  }

  /// Asks the render to stop; safe from any thread, any number of times.
  public func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  /// Why the render must stop now, or nil while it may go on.
  public var reason: RenderStopped? {
    if cancelled.load(ordering: .relaxed) { return .cancelled }
    if let deadline, let clock, clock() >= deadline { return .deadlinePassed }
    return nil
  }

  /// Throws when the render must stop.
  @inline(__always)
  func check() throws(RenderStopped) {
    if let reason { throw reason }
  }
}
