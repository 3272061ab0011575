import Synchronization

/// The replays being watched, for the game loop to step.
///
/// A replay takes its place before its log is read (`reserve`), so the limit bounds the logs
/// being loaded as well as the replays playing. One address holds at most `perAddress` of the
/// places (`--replays-per-address`), so that a few addresses cannot take them all.
final class ReplayRegistry: Sendable {
  private struct State {
    var list: [ReplaySession] = []
    /// Places taken by replays whose log is still loading, per address.
    var reserved: [String: Int] = [:]

    /// Places held now: playing and loading, of everyone or of `address`.
    func held(by address: String? = nil) -> Int {
      guard let address else { return list.count + reserved.values.reduce(0, +) }
      return list.count { $0.client.address == address } + reserved[address, default: 0]
    }
  }

  /// Why a replay got no place.
  enum Refusal: Equatable, Sendable {
    /// Every place is taken.
    case full
    /// Its address holds `perAddress` places already.
    case address
  }

  private let state = Mutex(State())
  /// Most replays at once, loading ones included.
  let limit: Int
  /// Most of them one address may hold.
  let perAddress: Int
  /// Wakes the game loop (a new replay, or a command to one).
  let wake: @Sendable () -> Void

  init(limit: Int = 32, perAddress: Int = 8, wake: @escaping @Sendable () -> Void = {}) {
    self.limit = limit
    self.perAddress = perAddress
    self.wake = wake
  }

  var all: [ReplaySession] {
    state.withLock { state in
      state.list.removeAll { $0.isClosed }
      return state.list
    }
  }

  /// Takes a place for a replay about to load for `address`; why not, past a bound.
  func reserve(address: String) -> Refusal? {
    state.withLock { state in
      state.list.removeAll { $0.isClosed }
      guard state.held() < limit else { return .full }
      guard state.held(by: address) < perAddress else { return .address }
      state.reserved[address, default: 0] += 1
      return nil
    }
  }

  /// Puts a loaded replay in the place `reserve` took for its viewer's address.
  func add(_ replay: ReplaySession) {
    state.withLock { state in
      Self.release(&state, replay.client.address)
      state.list.append(replay)
    }
    wake()
  }

  /// Gives back a place of `address` whose replay could not load.
  func cancel(address: String) {
    state.withLock { Self.release(&$0, address) }
  }

  private static func release(_ state: inout State, _ address: String) {
    let left = state.reserved[address, default: 1] - 1
    state.reserved[address] = left > 0 ? left : nil
  }
}
