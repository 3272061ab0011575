import HTTP
import Testing

@testable import Playfield

@Suite struct TickScheduleTests {
  let start = MonotonicTime(nanoseconds: 1_000_000_000)

  func at(_ milliseconds: Double) -> MonotonicTime {
    MonotonicTime(nanoseconds: start.nanoseconds + UInt64(milliseconds * 1_000_000))
  }

  @Test func nothingIsDueBeforeTheFirstTick() {
    var schedule = TickSchedule(start: start)
    #expect(schedule.ticksDue(at: start) == 0)
    #expect(schedule.ticksDue(at: at(16.6)) == 0)
    #expect(schedule.ticksDue(at: at(16.7)) == 1)
  }

  @Test func ticksFallDueEverySixtiethOfASecondWithoutDrift() {
    var schedule = TickSchedule(start: start)
    var run: UInt64 = 0
    // Poll every 5 ms for an hour of simulated time.
    var time = 0.0
    while time <= 3_600_000 {
      let due = schedule.ticksDue(at: at(time))
      for _ in 0..<due {
        schedule.ran()
        run += 1
      }
      time += 5
    }
    // 60 ticks a second, exactly: no drift after 216,000 ticks.
    #expect(run == 216_000)
    #expect(schedule.dropped == 0)
    #expect(schedule.due(216_000) == at(3_600_000))
  }

  @Test func aStallIsClampedAndTheBacklogDropped() {
    var schedule = TickSchedule(maxCatchUp: 15, start: start)
    // Two seconds without running: 120 ticks are due, only 15 are run.
    #expect(schedule.ticksDue(at: at(2000)) == 15)
    for _ in 0..<15 { schedule.ran() }
    #expect(schedule.dropped == 105)
    // Afterwards the rhythm resumes from now, not from the old origin.
    #expect(schedule.ticksDue(at: at(2000)) == 0)
    #expect(schedule.ticksDue(at: at(2016)) == 0)
    #expect(schedule.ticksDue(at: at(2017)) == 1)
  }

  @Test func nextDueIsTheFollowingTick() {
    var schedule = TickSchedule(start: start)
    #expect(schedule.nextDue == MonotonicTime(nanoseconds: start.nanoseconds + 16_666_666))
    _ = schedule.ticksDue(at: at(40))
    schedule.ran()
    schedule.ran()
    #expect(schedule.nextDue == MonotonicTime(nanoseconds: start.nanoseconds + 50_000_000))
  }
}

@Suite struct LatencyHistogramTests {
  @Test func percentilesBracketTheRecordedValues() {
    var histogram = LatencyHistogram()
    for _ in 0..<99 { histogram.record(.microseconds(100)) }
    histogram.record(.milliseconds(20))
    // Buckets are about 19% wide, so a percentile is within that of the true value.
    #expect((0.1...0.12).contains(histogram.percentile(0.5)))
    #expect((0.1...0.12).contains(histogram.percentile(0.99)))
    #expect((20...24).contains(histogram.percentile(1.0)))
    #expect(histogram.maximumMilliseconds == 20)
    #expect(histogram.count == 100)
  }

  @Test func emptyHistogramReportsZero() {
    #expect(LatencyHistogram().percentile(0.99) == 0)
  }
}
