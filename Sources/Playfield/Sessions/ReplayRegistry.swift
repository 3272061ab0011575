import Synchronization

/// The replays being watched, for the game loop to step.
///
/// A replay takes its place before its log is read (`reserve`), so the limit bounds the logs
/// being loaded as well as the replays playing.
final class ReplayRegistry: Sendable {
  private struct State {
    var list: [ReplaySession] = []
    /// Places taken by replays whose log is still loading.
    var reserved = 0
  }

  private let state = Mutex(State())
  /// Most replays at once, loading ones included.
  let limit: Int
  /// Wakes the game loop (a new replay, or a command to one).
  let wake: @Sendable () -> Void

  init(limit: Int = 32, wake: @escaping @Sendable () -> Void = {}) {
    self.limit = limit
    self.wake = wake
  }

  var all: [ReplaySession] {
    state.withLock { state in
      state.list.removeAll { $0.isClosed }
      return state.list
    }
  }

  /// Takes a place for a replay about to load; false when at the limit.
  func reserve() -> Bool {
    state.withLock { state in
      state.list.removeAll { $0.isClosed }
      guard state.list.count + state.reserved < limit else { return false }
      state.reserved += 1
      return true
    }
  }

  /// Puts a loaded replay in the place `reserve` took.
  func add(_ replay: ReplaySession) {
    state.withLock { state in
      state.reserved -= 1
      state.list.append(replay)
    }
    wake()
  }

  /// Gives back a place whose replay could not load.
  func cancel() {
    state.withLock { $0.reserved -= 1 }
  }
}
