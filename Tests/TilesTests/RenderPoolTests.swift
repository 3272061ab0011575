import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Tiles

@Suite struct RenderPoolTests {
  @Test func everyThreadIsPreparedAndRunsJobs() throws {
    let prepared = Atomic<Int>(0)
    let pool = RenderPool(threads: 3, name: "test-pool") { prepared.add(1, ordering: .relaxed) }
    let ran = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<20 {
      pool.async {
        ran.add(1, ordering: .relaxed)
        done.signal()
      }
    }
    for _ in 0..<20 { try #require(done.wait(timeout: .now() + 60) == .success) }
    pool.stop()
    #expect(prepared.load(ordering: .relaxed) == 3)
    #expect(ran.load(ordering: .relaxed) == 20)
  }

  /// With every pool thread busy, `perform` does all the work on the calling thread and
  /// returns; the parts nobody started never run.
  @Test func aBusyPoolNeverDeadlocksPerform() throws {
    let pool = RenderPool(threads: 2)
    let release = DispatchSemaphore(value: 0)
    let busy = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      pool.async {
        busy.signal()
        release.wait()
      }
    }
    for _ in 0..<2 { try #require(busy.wait(timeout: .now() + 60) == .success) }
    let parts = Mutex<[Int]>([])
    let work = RowDispenser(rows: 100)
    let taken = Atomic<Int>(0)
    pool.perform(3) { part in
      parts.withLock { $0.append(part) }
      while work.take() != nil { taken.add(1, ordering: .relaxed) }
    }
    #expect(parts.withLock { $0 } == [0])
    #expect(taken.load(ordering: .relaxed) == 100)
    release.signal()
    release.signal()
    pool.stop()
    #expect(parts.withLock { $0 } == [0])
  }

  /// Tiles drawn on a pool have the counts of tiles drawn on Dispatch's threads.
  @Test func aPoolDrawsTheSameTiles() {
    let pool = RenderPool(threads: 2)
    defer { pool.stop() }
    for request in [
      TileRequest(tile: TileCoordinate(zoom: 5, x: 14, y: 11)!, iterations: 1000),
      TileRequest(tile: DeepTileSupport.tileAtI(zoom: 998), iterations: 2000),
    ] {
      let pooled = TileRenderer(threads: 2, pool: pool).field(for: request)
      let plain = TileRenderer(threads: 2).field(for: request)
      #expect(pooled.counts == plain.counts)
    }
  }
}
