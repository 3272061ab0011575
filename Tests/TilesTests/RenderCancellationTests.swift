import Dispatch
import Synchronization
import Testing

@testable import Tiles

/// A clock the test moves: each call returns the current value and then adds `step`.
final class SteppingClock: Sendable {
  private let value = Mutex(0.0)
  let step: Double

  init(step: Double = 0) {
    self.step = step
  }

  var reading: @Sendable () -> Double {
    {
      self.value.withLock { now in
        defer { now += self.step }
        return now
      }
    }
  }
}

@Suite struct RenderCancellationTests {
  @Test func aCancelledOrExpiredRenderSaysWhy() {
    let plain = RenderCancellation()
    #expect(plain.reason == nil)
    plain.cancel()
    plain.cancel()
    #expect(plain.reason == .cancelled)
    let time = Mutex(5.0)
    let timed = RenderCancellation(deadline: 10, clock: { time.withLock { $0 } })
    #expect(timed.reason == nil)
    time.withLock { $0 = 10 }
    #expect(timed.reason == .deadlinePassed)
    timed.cancel()
    #expect(timed.reason == .cancelled)
  }

  /// Every kernel and the reference search stop at their next look once the deadline has
  /// passed, wherever that falls: here after 1, 5, 40 and 200 looks.
  @Test(arguments: [1, 5, 40, 200])
  func rendersStopWhenTheDeadlinePasses(looks: Int) {
    let requests = [
      TileRequest(tile: TileCoordinate(zoom: 3, x: 2, y: 3)!, iterations: 5000),
      TileRequest(tile: DeepTileSupport.tileAtI(zoom: 998), iterations: 10_000),
      TileRequest(tile: PerturbationLanesTests.seahorse, iterations: 3000),
    ]
    for request in requests {
      let renderer = TileRenderer(threads: 2)
      let clock = SteppingClock(step: 1)
      let cancellation = RenderCancellation(deadline: Double(looks), clock: clock.reading)
      let error = #expect(throws: RenderStopped.self) {
        try renderer.render(request, cancellation: cancellation, clock: { 0 })
      }
      #expect(error == .deadlinePassed, "\(request)")
      // Nothing half-made is kept: the orbit cache holds no reference for a stopped search.
      let viewport = request.tile.isShallow ? nil : PerturbationViewport(tile: request.tile)
      if let viewport, renderer.orbits.statistics.abandoned > 0 {
        #expect(
          renderer.orbits.cachedReference(for: viewport, maxIterations: request.iterations) == nil)
      }
    }
  }

  @Test func aRenderCancelledBeforeItStartsDoesNothing() {
    let renderer = TileRenderer(threads: 2)
    let cancellation = RenderCancellation()
    cancellation.cancel()
    let request = TileRequest(tile: DeepTileSupport.tileAtI(zoom: 500), iterations: 1000)
    #expect(throws: RenderStopped.cancelled) {
      try renderer.render(request, cancellation: cancellation, clock: { 0 })
    }
    #expect(renderer.orbits.statistics.computed == 0)
    #expect(throws: Never.self) { try renderer.render(request, clock: { 0 }) }
  }

  /// A render waiting for another's reference leaves as soon as it is cancelled; the other
  /// goes on and keeps the reference.
  @Test func aWaiterLeavesWhileTheReferenceIsComputed() throws {
    let cache = OrbitCache()
    let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: 998))
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let once = Atomic<Bool>(false)
    // The owner's clock holds it inside the search until the test lets go.
    let owner = RenderCancellation(
      deadline: .infinity,
      clock: {
        if !once.exchange(true, ordering: .relaxed) {
          inside.signal()
          release.wait()
        }
        return 0
      })
    let done = DispatchSemaphore(value: 0)
    let found = Mutex<PerturbationReference?>(nil)
    DispatchQueue.global().async {
      let reference = try? cache.reference(
        for: viewport, maxIterations: 2000, cancellation: owner)
      found.withLock { $0 = reference }
      done.signal()
    }
    try #require(inside.wait(timeout: .now() + 60) == .success)
    let waiter = RenderCancellation()
    waiter.cancel()
    #expect(throws: RenderStopped.cancelled) {
      try cache.reference(for: viewport, maxIterations: 2000, cancellation: waiter)
    }
    release.signal()
    try #require(done.wait(timeout: .now() + 60) == .success)
    #expect(found.withLock { $0 } != nil)
    #expect(cache.statistics.computed == 1 && cache.statistics.joined == 1)
    #expect(cache.cachedReference(for: viewport, maxIterations: 2000) != nil)
  }

  /// When the render computing a reference is cancelled, one that waited for it computes it.
  @Test func aWaiterTakesOverAnAbandonedReference() throws {
    let cache = OrbitCache()
    let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: 998))
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let once = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    let owner = RenderCancellation(
      deadline: 1,
      clock: {
        if !once.exchange(true, ordering: .relaxed) {
          inside.signal()
          release.wait()
        }
        return stop.load(ordering: .relaxed) ? 1 : 0
      })
    let done = DispatchSemaphore(value: 0)
    let ownerResult = Mutex<RenderStopped?>(nil)
    DispatchQueue.global().async {
      let result = Result { () throws(RenderStopped) in
        try cache.reference(for: viewport, maxIterations: 2000, cancellation: owner)
      }
      if case .failure(let reason) = result { ownerResult.withLock { $0 = reason } }
      done.signal()
    }
    try #require(inside.wait(timeout: .now() + 60) == .success)
    let taken = Mutex<PerturbationReference?>(nil)
    let waited = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let reference = try? cache.reference(
        for: viewport, maxIterations: 2000, cancellation: RenderCancellation())
      taken.withLock { $0 = reference }
      waited.signal()
    }
    // NB: the waiter joins before the owner is let go: `joined` counts it.
    for _ in 0..<60_000 where cache.statistics.joined == 0 { pause() }
    try #require(cache.statistics.joined == 1)
    stop.store(true, ordering: .relaxed)
    release.signal()
    try #require(done.wait(timeout: .now() + 60) == .success)
    try #require(waited.wait(timeout: .now() + 60) == .success)
    #expect(ownerResult.withLock { $0 } == .deadlinePassed)
    #expect(taken.withLock { $0 } != nil)
    let statistics = cache.statistics
    #expect(statistics.abandoned == 1 && statistics.computed == 2)
  }
}

/// Waits a millisecond while polling for something another thread will do.
private func pause() {
  _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(1))
}
