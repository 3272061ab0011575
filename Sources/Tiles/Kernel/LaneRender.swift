import Dispatch
import Synchronization

/// Runs the SIMD kernel over a viewport on several threads, in three phases, each handing out
/// work on demand so that the threads stay balanced.
///
/// 1. `GroupPass` takes rows as they come, answers the main cardioid and period-2 bulb in
///    closed form, and iterates the rest sixteen neighbours at a time up to
///    `EscapeTimeKernel.groupLimit` updates. Most pixels of most tiles end here.
/// 2. `LaneBlock`s take the survivors of every thread up to `EscapeTimeKernel.laneLimit`,
///    refilling each lane as its pixel finishes, so slow neighbours no longer hold fast ones.
/// 3. The survivors of that go on to the cap in lane blocks that also check for exactly
///    repeating orbits, which costs a little more per update but ends many inside orbits long
///    before the cap.
enum LaneRender {
  static func fill(
    _ viewport: Viewport, writer: FieldWriter, shape: VectorShape, parallelism: Parallelism,
    cancellation: RenderCancellation?
  ) {
    let maxIterations = writer.maxIterations
    let groupLimit = min(maxIterations, EscapeTimeKernel.groupLimit)
    let dispenser = RowDispenser(rows: viewport.height, cancellation: cancellation)
    let pixels = viewport.width * viewport.height
    var survivors = collect(parallelism, expecting: pixels / 4) { survivors in
      var pass = GroupPass()
      pass.run(
        viewport, rows: dispenser, shape: shape, limit: groupLimit, writer: writer,
        survivors: &survivors)
    }
    let laneLimit = min(maxIterations, max(groupLimit, EscapeTimeKernel.laneLimit))
    if laneLimit > groupLimit {
      survivors = iterate(survivors, to: laneLimit, periodic: false)
    }
    if laneLimit < maxIterations {
      _ = iterate(survivors, to: maxIterations, periodic: true)
    }

    /// Runs lane blocks over `orbits` on every thread; returns those that reach `limit` short
    /// of the cap.
    func iterate(_ orbits: [Orbit], to limit: Int, periodic: Bool) -> [Orbit] {
      guard !orbits.isEmpty, cancellation?.reason == nil else { return [] }
      let pool = SurvivorPool(orbits: orbits, cancellation: cancellation)
      return collect(parallelism, expecting: orbits.count) { survivors in
        var source = SurvivorSource(pool: pool)
        var lanes = LaneBlock()
        lanes.run(
          &source, shape: shape, limit: limit, periodic: periodic,
          savePeriod: EscapeTimeKernel.savePeriod, writer: writer, survivors: &survivors)
      }
    }
  }

  /// Runs `body` on the threads of `parallelism` and gathers the survivors each appends, of
  /// which there are probably fewer than `expected` (it only sizes the arrays).
  private static func collect(
    _ parallelism: Parallelism, expecting expected: Int,
    _ body: @escaping @Sendable (inout [Orbit]) -> Void
  ) -> [Orbit] {
    let threads = parallelism.threads
    if threads == 1 {
      var survivors: [Orbit] = []
      survivors.reserveCapacity(expected)
      body(&survivors)
      return survivors
    }
    var reserved: [Orbit] = []
    reserved.reserveCapacity(expected)
    let gathered = Mutex<[Orbit]>(reserved)
    parallelism.run { _ in
      var survivors: [Orbit] = []
      survivors.reserveCapacity(expected / threads)
      body(&survivors)
      gathered.withLock { $0.append(contentsOf: survivors) }
    }
    return gathered.withLock { $0 }
  }
}
