import Dispatch
import Foundation
import Synchronization
import Testing
import Tiles

@testable import Playfield

/// Collects completions so a test can wait for them without sleeping.
final class Deliveries: Sendable {
  private let results = Mutex<[Result<[UInt8], any Error>]>([])
  private let arrived = DispatchSemaphore(value: 0)

  var completion: ResultCache<String>.Completion {
    { result in
      self.results.withLock { $0.append(result) }
      self.arrived.signal()
    }
  }

  /// Waits for `count` more completions and returns all received so far.
  func wait(for count: Int) -> [Result<[UInt8], any Error>] {
    for _ in 0..<count { arrived.wait() }
    return results.withLock { $0 }
  }
}

struct Failure: Error {}

@Suite struct ResultCacheTests {
  @Test func concurrentRequestsForAColdTileComputeItOnce() {
    let cache = ResultCache<String>(capacity: 1000)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let computations = Atomic<Int>(0)
    let deliveries = Deliveries()
    let compute: ResultCache<String>.Compute = {
      computations.add(1, ordering: .relaxed)
      started.signal()
      release.wait()
      return [1, 2, 3]
    }
    cache.fetch("tile", compute: compute, completion: deliveries.completion)
    started.wait()
    for _ in 0..<4 {
      cache.fetch("tile", compute: compute, completion: deliveries.completion)
    }
    #expect(cache.cachedValue(for: "tile") == nil)
    release.signal()
    let results = deliveries.wait(for: 5)
    #expect(results.count == 5)
    #expect(results.allSatisfy { (try? $0.get()) == [1, 2, 3] })
    let computed = computations.load(ordering: .relaxed)
    #expect(computed == 1)
    #expect(cache.cachedValue(for: "tile") == [1, 2, 3])
    let statistics = cache.statistics
    #expect(statistics.misses == 1 && statistics.coalesced == 4 && statistics.hits == 1)
  }

  @Test func hitsAreServedWithoutComputing() {
    let cache = ResultCache<String>(capacity: 1000)
    let deliveries = Deliveries()
    cache.fetch("a", compute: { [7] }, completion: deliveries.completion)
    _ = deliveries.wait(for: 1)
    cache.fetch(
      "a",
      compute: {
        Issue.record("computed a hit")
        return []
      }, completion: deliveries.completion)
    let results = deliveries.wait(for: 1)
    #expect(results.map { try? $0.get() } == [[7], [7]])
    #expect(cache.statistics.hits == 1)
  }

  @Test func evictsLeastRecentlyUsedTilesByBytes() {
    let cache = ResultCache<String>(capacity: 100)
    let deliveries = Deliveries()
    for key in ["a", "b"] {
      cache.fetch(
        key, compute: { Array(repeating: 1, count: 40) }, completion: deliveries.completion)
      _ = deliveries.wait(for: 1)
    }
    #expect(cache.cachedValue(for: "a") != nil)
    cache.fetch("c", compute: { Array(repeating: 2, count: 40) }, completion: deliveries.completion)
    _ = deliveries.wait(for: 1)
    #expect(cache.cachedValue(for: "b") == nil)
    #expect(cache.cachedValue(for: "a") != nil)
    #expect(cache.cachedValue(for: "c") != nil)
    let statistics = cache.statistics
    #expect(statistics.evictions == 1 && statistics.entries == 2 && statistics.bytes == 80)
  }

  @Test func failuresReachEveryWaiterAndAreNotCached() {
    let cache = ResultCache<String>(capacity: 100)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let deliveries = Deliveries()
    let failing: ResultCache<String>.Compute = {
      started.signal()
      release.wait()
      throw Failure()
    }
    cache.fetch("x", compute: failing, completion: deliveries.completion)
    started.wait()
    cache.fetch("x", compute: failing, completion: deliveries.completion)
    release.signal()
    let results = deliveries.wait(for: 2)
    #expect(
      results.allSatisfy { if case .failure(let error) = $0 { error is Failure } else { false } })
    #expect(cache.cachedValue(for: "x") == nil)
    cache.fetch("x", compute: { [9] }, completion: deliveries.completion)
    #expect(deliveries.wait(for: 1).last.flatMap { try? $0.get() } == [9])
  }

  @Test func computationsBeyondTheLimitWaitTheirTurnInOrder() {
    let cache = ResultCache<String>(capacity: 1000, maxConcurrentComputations: 1)
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let order = Mutex<[String]>([])
    let running = Atomic<Int>(0)
    let overlap = Atomic<Bool>(false)
    let deliveries = Deliveries()
    func compute(_ key: String) -> ResultCache<String>.Compute {
      {
        if running.add(1, ordering: .relaxed).newValue > 1 {
          overlap.store(true, ordering: .relaxed)
        }
        order.withLock { $0.append(key) }
        started.signal()
        release.wait()
        running.subtract(1, ordering: .relaxed)
        return Array(key.utf8)
      }
    }
    cache.fetch("first", compute: compute("first"), completion: deliveries.completion)
    started.wait()
    for key in ["second", "third", "fourth"] {
      cache.fetch(key, compute: compute(key), completion: deliveries.completion)
    }
    for _ in 0..<4 { release.signal() }
    let results = deliveries.wait(for: 4)
    #expect(results.count == 4)
    #expect(order.withLock { $0 } == ["first", "second", "third", "fourth"])
    let overlapped = overlap.load(ordering: .relaxed)
    #expect(!overlapped)
    #expect(cache.statistics.entries == 4)
  }

  /// A result cache with a pool computes there and answers on its queue.
  @Test func aCacheComputesOnItsPool() throws {
    let poolThreads = Mutex<Set<pthread_t>>([])
    let pool = RenderPool(threads: 1, name: "cache-pool") {
      poolThreads.withLock { _ = $0.insert(pthread_self()) }
    }
    defer { pool.stop() }
    let cache = ResultCache<String>(capacity: 1000, pool: pool)
    let computedOn = Mutex<[pthread_t]>([])
    let deliveries = Deliveries()
    cache.fetch(
      "tile",
      compute: {
        computedOn.withLock { $0.append(pthread_self()) }
        return [7]
      }, completion: deliveries.completion)
    let results = deliveries.wait(for: 1)
    #expect((try? results[0].get()) == [7])
    let threads = poolThreads.withLock { $0 }
    #expect(threads.count == 1)
    #expect(computedOn.withLock { $0 }.allSatisfy { threads.contains($0) })
    #expect(cache.cachedValue(for: "tile") == [7])
  }
}
