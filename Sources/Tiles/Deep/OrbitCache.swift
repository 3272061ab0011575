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
    /// Computations given up because their render was cancelled (the next request starts
    /// again).
    public var abandoned = 0
  }

  /// One reference, finished or being computed; waiters block on `done` until it is filled
  /// with the reference, or with why its computation stopped.
  private final class Slot: @unchecked Sendable {
    let done = DispatchGroup()
    let value = Mutex<Result<PerturbationReference, RenderStopped>?>(nil)
    var used = 0

    init() { done.enter() }

    func fill(_ result: Result<PerturbationReference, RenderStopped>) {
      value.withLock { $0 = result }
      done.leave()
    }

    /// The slot's result once it is filled; throws as soon as `cancellation` says so.
    func wait(
      _ cancellation: RenderCancellation?
    ) throws(RenderStopped) -> Result<PerturbationReference, RenderStopped> {
      if let cancellation {
        // NB: a timed wait, so that a waiter whose own render is cancelled leaves within a few
        // milliseconds even while another render computes the reference.
        while done.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
          try cancellation.check()
        }
      } else {
        done.wait()
      }
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
  /// How references are found.
  public let search: PerturbationReference.Search
  private let state = Mutex(State())

  /// A cache of at most `capacity` bytes (the newest reference is kept even if larger) of
  /// references found by `search`.
  public init(capacity: Int = 256 << 20, search: PerturbationReference.Search = .nucleus) {
    self.capacity = capacity
    self.search = search
  }

  /// The reference for `viewport`'s anchor at `maxIterations`: cached, being computed by
  /// another caller (then this one waits), or computed here.
  public func reference(
    for viewport: PerturbationViewport, maxIterations: Int
  ) -> PerturbationReference {
    // NB: without a cancellation nothing stops early, so it never throws.
    try! reference(for: viewport, maxIterations: maxIterations, cancellation: nil)
  }

  /// The same, throwing as soon as `cancellation` says so. A computation given up that way is
  /// not kept: the renders waiting for it start another (one of them computes it).
  public func reference(
    for viewport: PerturbationViewport, maxIterations: Int, cancellation: RenderCancellation?
  ) throws(RenderStopped) -> PerturbationReference {
    while true {
      if case .success(let reference) = try lookUp(
        viewport, maxIterations: maxIterations, cancellation: cancellation)
      {
        return reference
      }
    }
  }

  /// The reference if it is finished, without waiting, computing or counting a hit.
  public func cachedReference(
    for viewport: PerturbationViewport, maxIterations: Int
  ) -> PerturbationReference? {
    let key = Key(anchor: viewport.anchor, iterations: maxIterations)
    return state.withLock { state in
      guard state.bytes[key] != nil, let slot = state.slots[key] else { return nil }
      return try? slot.value.withLock { $0 }?.get()
    }
  }

  /// One try: the reference, or the failure of another render's computation it waited for.
  private func lookUp(
    _ viewport: PerturbationViewport, maxIterations: Int, cancellation: RenderCancellation?
  ) throws(RenderStopped) -> Result<PerturbationReference, RenderStopped> {
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
    guard owner else { return try slot.wait(cancellation) }
    let reference: PerturbationReference
    do {
      reference = try PerturbationReference(
        viewport: viewport, maxIterations: maxIterations, search: search,
        cancellation: cancellation)
    } catch {
      state.withLock { state in
        state.slots[key] = nil
        state.statistics.abandoned += 1
      }
      slot.fill(.failure(error))
      throw error
    }
    slot.fill(.success(reference))
    state.withLock { state in
      state.bytes[key] = reference.bytes
      evict(&state, keeping: key)
    }
    return .success(reference)
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
