import Synchronization

/// Where the storage reports something to a part made after it (the registry): set once with
/// `on`, told from the writer's or the lease keeper's thread with `report`.
final class Relay<Payload: Sendable>: Sendable {
  private let handler = Mutex<(@Sendable (Payload) -> Void)?>(nil)

  /// Sets who is told.
  func on(_ body: @escaping @Sendable (Payload) -> Void) {
    handler.withLock { $0 = body }
  }

  /// Tells it, if anyone listens yet.
  func report(_ payload: Payload) {
    handler.withLock { $0 }?(payload)
  }
}

/// Sessions another process took over (their lease ran out while this one was paused or cut
/// off): the registry drops them.
typealias LostSessions = Relay<[String]>
