import Dispatch
import Synchronization
import Tiles

/// A bounded, thread-safe LRU cache of computed bodies (tiles, sphere packings) that computes
/// each missing one once.
///
/// Made for an event loop that must never block: `cachedValue(for:)` answers hits at once, and
/// `fetch` never waits. A miss runs `compute` on the cache's queue (or its `RenderPool`), at
/// most `maxConcurrentComputations` at a time (the rest wait their turn in arrival order);
/// requests for a key already being computed join it instead of computing again (coalescing).
final class ResultCache<Key: Hashable & Sendable>: Sendable {
  /// Receives a fetched body, or why it could not be made. Always called on the cache's queue.
  typealias Completion = @Sendable (Result<[UInt8], any Error>) -> Void
  /// Makes a body; may run on any thread.
  typealias Compute = @Sendable () throws -> [UInt8]

  /// Counters since the cache was made.
  struct Statistics: Sendable, Equatable {
    /// Requests answered from the cache.
    var hits = 0
    /// Requests that started a computation.
    var misses = 0
    /// Requests that joined a computation already under way.
    var coalesced = 0
    /// Entries dropped to make room.
    var evictions = 0
    /// Entries held now.
    var entries = 0
    /// Bytes held now.
    var bytes = 0
  }

  private struct Pending {
    var key: Key
    var compute: Compute
  }

  private struct State {
    var store: LRUStore<Key>
    var waiters: [Key: [Completion]] = [:]
    /// Computations waiting for a free slot, oldest first from `queueHead`.
    var queued: [Pending] = []
    var queueHead = 0
    var running = 0
    var statistics = Statistics()

    mutating func dequeue() -> Pending? {
      guard queueHead < queued.count else { return nil }
      let next = queued[queueHead]
      queueHead += 1
      if queueHead == queued.count || queueHead >= 64 && queueHead * 2 >= queued.count {
        queued.removeFirst(queueHead)
        queueHead = 0
      }
      return next
    }
  }

  private enum FetchAction {
    case deliver([UInt8])
    case start
    case wait
  }

  /// The most bytes the cache holds.
  let capacity: Int
  /// How many computations may run at once.
  let maxConcurrentComputations: Int
  private let queue: DispatchQueue
  private let pool: RenderPool?
  private let state: Mutex<State>

  /// A cache of at most `capacity` bytes whose completions run on `queue`, and its
  /// computations too unless a `pool` is given (whose threads may run at a lower priority).
  init(
    capacity: Int, maxConcurrentComputations: Int = 2,
    queue: DispatchQueue = DispatchQueue(
      label: "playfield.cold", qos: .userInitiated, attributes: .concurrent),
    pool: RenderPool? = nil
  ) {
    self.capacity = max(0, capacity)
    self.maxConcurrentComputations = max(1, maxConcurrentComputations)
    self.queue = queue
    self.pool = pool
    state = Mutex(State(store: LRUStore(capacity: capacity)))
  }

  /// The cached bytes for `key`, marking them recently used; nil on a miss. Never blocks on a
  /// computation and never starts one.
  func cachedValue(for key: Key) -> [UInt8]? {
    state.withLock { state in
      let value = state.store.value(for: key)
      if value != nil { state.statistics.hits += 1 }
      return value
    }
  }

  /// Delivers the bytes for `key` to `completion` on the cache's queue: from the cache, from a
  /// computation already under way, or from `compute`. A failed computation is not cached;
  /// every request that waited on it gets the error.
  func fetch(_ key: Key, compute: @escaping Compute, completion: @escaping Completion) {
    let action = state.withLock { state -> FetchAction in
      if let value = state.store.value(for: key) {
        state.statistics.hits += 1
        return .deliver(value)
      }
      if state.waiters[key] != nil {
        state.waiters[key]!.append(completion)
        state.statistics.coalesced += 1
        return .wait
      }
      state.statistics.misses += 1
      state.waiters[key] = [completion]
      guard state.running < maxConcurrentComputations else {
        state.queued.append(Pending(key: key, compute: compute))
        return .wait
      }
      state.running += 1
      return .start
    }
    switch action {
    case .deliver(let value):
      queue.async { completion(.success(value)) }
    case .start:
      start(Pending(key: key, compute: compute))
    case .wait:
      break
    }
  }

  /// Counters and current size.
  var statistics: Statistics {
    state.withLock { state in
      var statistics = state.statistics
      statistics.entries = state.store.count
      statistics.bytes = state.store.bytes
      return statistics
    }
  }

  private func start(_ pending: Pending) {
    guard let pool else {
      queue.async { [self] in finish(pending, Result { try pending.compute() }) }
      return
    }
    pool.async { [self] in
      let result = Result { try pending.compute() }
      queue.async { [self] in finish(pending, result) }
    }
  }

  /// Stores a computation's result, hands its slot on and answers its waiters.
  private func finish(_ pending: Pending, _ result: Result<[UInt8], any Error>) {
    let (waiters, next) = state.withLock { state -> ([Completion], Pending?) in
      let waiters = state.waiters.removeValue(forKey: pending.key) ?? []
      if case .success(let value) = result {
        state.statistics.evictions += state.store.insert(value, for: pending.key)
      }
      guard let next = state.dequeue() else {
        state.running -= 1
        return (waiters, nil)
      }
      return (waiters, next)
    }
    if let next { start(next) }
    for waiter in waiters { waiter(result) }
  }
}
