import Dispatch
import Synchronization

/// Reference orbits and their BLA tables by (anchor, iterations), bounded by bytes, least
/// recently used first out. Concurrent renders that need the same reference wait for one
/// computation instead of each doing it.
public final class OrbitCache: Sendable {
  /// Which reference: the anchor tile and the iteration cap.
  public struct Key: Sendable, Hashable {
    /// The tile whose centre is the reference point.
    public var anchor: TileCoordinate
    /// The cap the orbit is iterated to.
    public var iterations: Int
  }

  /// Counters since the cache was made.
  public struct Statistics: Sendable, Equatable {
    /// References computed.
    public var computed = 0
    /// Requests answered by a finished reference.
    public var hits = 0
    /// Requests that waited for a computation already under way.
    public var joined = 0
    /// References dropped to make room.
    public var evictions = 0
  }

  /// One reference, finished or being computed; waiters block on `done` until it is filled.
  private final class Slot: @unchecked Sendable {
    let done = DispatchGroup()
    let value = Mutex<PerturbationReference?>(nil)
    var used = 0

    init() { done.enter() }

    func fill(_ reference: PerturbationReference) {
      value.withLock { $0 = reference }
      done.leave()
    }

    func wait() -> PerturbationReference {
      done.wait()
      return value.withLock { $0! }
    }
  }

  private struct State {
    var slots: [Key: Slot] = [:]
    var bytes: [Key: Int] = [:]
    var clock = 0
    var statistics = Statistics()
  }

  /// The most bytes of orbits and tables kept.
  public let capacity: Int
  private let state = Mutex(State())

  /// A cache of at most `capacity` bytes (the newest reference is kept even if larger).
  public init(capacity: Int = 256 << 20) {
    self.capacity = capacity
  }

  /// The reference for `viewport`'s anchor at `maxIterations`: cached, being computed by
  /// another caller (then this one waits), or computed here.
  public func reference(
    for viewport: PerturbationViewport, maxIterations: Int
  ) -> PerturbationReference {
    let key = Key(anchor: viewport.anchor, iterations: maxIterations)
    let (slot, owner) = state.withLock { state -> (Slot, Bool) in
      state.clock += 1
      if let slot = state.slots[key] {
        slot.used = state.clock
        if state.bytes[key] != nil {
          state.statistics.hits += 1
        } else {
          state.statistics.joined += 1
        }
        return (slot, false)
      }
      let slot = Slot()
      slot.used = state.clock
      state.slots[key] = slot
      state.statistics.computed += 1
      return (slot, true)
    }
    guard owner else { return slot.wait() }
    let reference = PerturbationReference(viewport: viewport, maxIterations: maxIterations)
    slot.fill(reference)
    state.withLock { state in
      state.bytes[key] = reference.bytes
      evict(&state, keeping: key)
    }
    return reference
  }

  /// Counters.
  public var statistics: Statistics {
    state.withLock { $0.statistics }
  }

  private func evict(_ state: inout State, keeping newest: Key) {
    var total = state.bytes.values.reduce(0, +)
    while total > capacity {
      let finished = state.bytes.keys.filter { $0 != newest }
      guard let oldest = finished.min(by: { state.slots[$0]!.used < state.slots[$1]!.used }) else {
        return
      }
      total -= state.bytes.removeValue(forKey: oldest)!
      state.slots.removeValue(forKey: oldest)
      state.statistics.evictions += 1
    }
  }
}
