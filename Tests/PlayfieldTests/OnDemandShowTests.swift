import HTTP
import Simulation
import Storage
import Synchronization
import Testing

@testable import Playfield

/// An on-demand session nobody watches is shown on the game loop's tick (its listing's and the
/// store's tick) at most every `LiveSession.unwatchedShowInterval`, however fast it is stepped;
/// its last steps are still shown, later.
@Suite struct OnDemandShowTests {
  /// A monotonic clock the test moves.
  final class Clock: Sendable {
    let nanoseconds = Atomic<UInt64>(1_000_000_000)
    var now: MonotonicTime { MonotonicTime(nanoseconds: nanoseconds.load(ordering: .relaxed)) }
    func advance(milliseconds: UInt64) {
      nanoseconds.add(milliseconds * 1_000_000, ordering: .relaxed)
    }
  }

  @Test func anUnwatchedOnDemandSessionIsShownAtMostEveryIntervalAndItsLastStepsLater() throws {
    let clock = Clock()
    let journal = RecordingJournal()
    let live = LiveSession(
      id: "h1", model: try Holes(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: false, journal: journal,
      idlePause: 30, clock: { clock.now },
      onDemand: OnDemandSteps(scheduler: StepScheduler(), wallClock: { 0 }, owner: { _ in nil }))
    var values = BatchValues()
    #expect(!live.wantsTick && !live.waitsToShow, "nothing to show yet")

    _ = live.stepBatch([], count: 2, mayStep: { true }, values: &values)
    #expect(live.wantsTick, "the first steps are shown at the next tick")
    live.advance(now: 1, budget: SessionBudget())
    #expect(live.summary.tick == 2)

    // Stepped again and again within the interval: not shown on the tick, but waiting to be.
    for _ in 0..<5 {
      clock.advance(milliseconds: 40)
      _ = live.stepBatch([], count: 3, mayStep: { true }, values: &values)
      #expect(!live.wantsTick && live.waitsToShow)
    }
    #expect(live.summary.tick == 2, "the listing still says where it was last shown")

    clock.advance(milliseconds: 50)
    #expect(live.wantsTick, "250 ms after it was last shown")
    live.advance(now: 2, budget: SessionBudget())
    #expect(live.summary.tick == 17)
    #expect(!live.wantsTick && !live.waitsToShow, "shown: nothing left to show")
  }

  /// A park queues the tick it parks at for the store, shown or not: the session comes back
  /// from the store where its clients were told it is. Before, a park that met a show between
  /// its check and its turn stored the tick of the show before (a loaded stress run's 372 for
  /// 375).
  @Test func aParkStoresTheTickItParksAtWithoutAShow() throws {
    let journal = RecordingJournal()
    let live = LiveSession(
      id: "h1", model: try Holes(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: false, journal: journal,
      idlePause: 30, clock: { MonotonicTime(nanoseconds: 1_000_000_000) },
      onDemand: OnDemandSteps(scheduler: StepScheduler(), wallClock: { 0 }, owner: { _ in nil }))
    var values = BatchValues()
    _ = live.stepBatch([], count: 2, mayStep: { true }, values: &values)
    live.advance(now: 1, budget: SessionBudget())
    _ = live.stepBatch([], count: 3, mayStep: { true }, values: &values)
    #expect(journal.progressTicks == [2], "the second steps are not shown yet")

    #expect(live.tryPark(now: 2))
    #expect(journal.progressTicks == [2, 5])
    #expect(live.summary.tick == 5)
    // Parked: nothing more is stepped, shown or published.
    #expect(live.stepBatch([], count: 1, mayStep: { true }, values: &values) == .deleted)
    live.advance(now: 3, budget: SessionBudget())
    #expect(journal.progressTicks == [2, 5])
  }
}
