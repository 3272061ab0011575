import Dispatch
import Synchronization

/// Runs `LaneBlock`s over a viewport on several threads, in two phases.
///
/// Phase one takes rows as they come and iterates every orbit up to
/// `EscapeTimeKernel.firstPhaseLimit` updates with the cheapest loop. Most pixels finish there.
/// Phase two pools the survivors of every thread and iterates them to the cap with the
/// periodicity check, which costs about a third more per update but ends most inside orbits
/// early. Both phases balance the threads by handing out work on demand.
enum LaneRender {
  static func fill(_ viewport: Viewport, writer: FieldWriter, shape: VectorShape, threads: Int) {
    let maxIterations = writer.maxIterations
    let limit = min(maxIterations, EscapeTimeKernel.firstPhaseLimit)
    let dispenser = RowDispenser(rows: viewport.height)
    let survivors = Mutex<[Orbit]>([])
    perform(threads) { _ in
      var source = RowSource(viewport: viewport, dispenser: dispenser, writer: writer)
      var lanes = LaneBlock()
      var mine: [Orbit] = []
      lanes.run(
        &source, shape: shape, limit: limit, periodic: false,
        savePeriod: EscapeTimeKernel.savePeriod, writer: writer, survivors: &mine)
      survivors.withLock { $0.append(contentsOf: mine) }
    }
    guard limit < maxIterations else { return }
    let pool = SurvivorPool(orbits: survivors.withLock { $0 })
    guard !pool.orbits.isEmpty else { return }
    perform(threads) { _ in
      var source = SurvivorSource(pool: pool)
      var lanes = LaneBlock()
      var none: [Orbit] = []
      lanes.run(
        &source, shape: shape, limit: maxIterations, periodic: true,
        savePeriod: EscapeTimeKernel.savePeriod, writer: writer, survivors: &none)
    }
  }

  private static func perform(_ threads: Int, _ body: @Sendable (Int) -> Void) {
    if threads == 1 {
      body(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    }
  }
}
