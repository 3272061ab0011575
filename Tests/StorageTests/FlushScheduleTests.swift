import Testing

@testable import Storage

@Suite struct FlushScheduleTests {
  @Test func flushesEveryIntervalWhileWritesSucceed() {
    var schedule = FlushSchedule(interval: 0.25, maxBackoff: 5, now: 100)
    guard case .wait(let seconds) = act(schedule, at: 100.125) else {
      Issue.record("expected a wait before the first interval ends")
      return
    }
    #expect(seconds == 0.125)
    #expect(act(schedule, at: 100.25) == .flush)
    schedule.succeeded(at: 100.5)
    #expect(schedule.nextFlush == 100.75)
    #expect(act(schedule, at: 100.625) == .wait(0.125))
    #expect(act(schedule, at: 100.75) == .flush)
  }

  @Test func backsOffExponentiallyAndCapsAfterFailures() {
    var schedule = FlushSchedule(interval: 0.25, maxBackoff: 5, now: 0)
    var waits: [Double] = []
    for attempt in 1...7 {
      schedule.failed(at: Double(attempt) * 10)
      waits.append(schedule.nextFlush - Double(attempt) * 10)
    }
    #expect(waits == [0.5, 1, 2, 4, 5, 5, 5])
    #expect(schedule.failures == 7)
    schedule.succeeded(at: 100)
    #expect(schedule.failures == 0)
    #expect(schedule.nextFlush == 100.25)
  }

  @Test func aFlushRequestSkipsTheBackoffWait() {
    var schedule = FlushSchedule(interval: 0.25, maxBackoff: 5, now: 0)
    schedule.failed(at: 0)
    schedule.failed(at: 0.5)
    #expect(act(schedule, at: 0.6) != .flush)
    #expect(
      schedule.action(
        at: 0.6, hasPending: true, flushRequested: true, stopping: false, abandoned: false)
        == .flush)
  }

  @Test func idlesWithNothingPendingAndExitsWhenDrainedOrAbandoned() {
    let schedule = FlushSchedule(interval: 0.25, maxBackoff: 5, now: 0)
    #expect(
      schedule.action(
        at: 9, hasPending: false, flushRequested: true, stopping: false, abandoned: false)
        == .wait(0.25))
    #expect(
      schedule.action(
        at: 9, hasPending: true, flushRequested: true, stopping: true, abandoned: false)
        == .flush)
    #expect(
      schedule.action(
        at: 9, hasPending: false, flushRequested: true, stopping: true, abandoned: false)
        == .exit)
    #expect(
      schedule.action(
        at: 9, hasPending: true, flushRequested: true, stopping: true, abandoned: true)
        == .exit)
  }

  @Test func maxBackoffIsNeverShorterThanTheInterval() {
    let schedule = FlushSchedule(interval: 2, maxBackoff: 0.5, now: 0)
    #expect(schedule.delay(afterFailures: 1) == 2)
    #expect(schedule.delay(afterFailures: 100) == 2)
  }

  private func act(_ schedule: FlushSchedule, at now: Double) -> FlushSchedule.Action {
    schedule.action(
      at: now, hasPending: true, flushRequested: false, stopping: false, abandoned: false)
  }
}
