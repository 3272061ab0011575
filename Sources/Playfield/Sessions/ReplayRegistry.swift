import Synchronization

/// The replays being watched, for the game loop to step.
final class ReplayRegistry: Sendable {
  private let replays = Mutex<[ReplaySession]>([])
  /// Most replays at once.
  let limit: Int

  init(limit: Int = 32) {
    self.limit = limit
  }

  var all: [ReplaySession] {
    replays.withLock { list in
      list.removeAll { $0.isClosed }
      return list
    }
  }

  /// Adds a replay; false when at the limit.
  func add(_ replay: ReplaySession) -> Bool {
    replays.withLock { list in
      list.removeAll { $0.isClosed }
      guard list.count < limit else { return false }
      list.append(replay)
      return true
    }
  }
}
