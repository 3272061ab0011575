import Synchronization

/// Where the storage reports sessions another process took over (their lease ran out while
/// this one was paused or cut off): the registry, once it exists, drops them.
final class LostSessions: Sendable {
  private let handler = Mutex<(@Sendable ([String]) -> Void)?>(nil)

  /// Sets who is told.
  func onLost(_ body: @escaping @Sendable ([String]) -> Void) {
    handler.withLock { $0 = body }
  }

  /// Tells of sessions lost (on the writer's or the lease keeper's thread).
  func report(_ ids: [String]) {
    handler.withLock { $0 }?(ids)
  }
}
