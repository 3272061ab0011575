import Testing

@testable import Playfield

/// When a process counts its inputs as not stored: a failed flush or renewal at once, a flush
/// or renewal unanswered past the deadline; and back once all is well.
@Suite struct StorageWatchTests {
  typealias Signs = StorageWatch.Signs

  @Test func aFailedFlushOrRenewalStopsStoringAtOnceAndASuccessEndsIt() {
    var watch = StorageWatch(deadline: 2)
    #expect(watch.judge(Signs(), now: 0) == nil)
    #expect(watch.judge(Signs(writeFailures: 1), now: 1) == .some("the database cannot be written"))
    #expect(watch.judge(Signs(writeFailures: 2, renewalFailures: 1), now: 2) == nil)
    #expect(watch.problem == "the database cannot be written")
    // Writes work again, renewals still fail: still not stored.
    #expect(watch.judge(Signs(renewalFailures: 1), now: 3) == nil)
    #expect(watch.judge(Signs(), now: 4) == .some(nil))
    #expect(watch.problem == nil)
    let renewal = watch.judge(Signs(renewalFailures: 1), now: 5)
    #expect(renewal??.contains("leases") == true)
  }

  @Test func aFlushOrRenewalUnansweredPastTheDeadlineStopsStoring() {
    var watch = StorageWatch(deadline: 2)
    #expect(watch.judge(Signs(flushingSince: 10, renewingSince: 11), now: 12) == nil)
    #expect(
      watch.judge(Signs(flushingSince: 10), now: 12.5)
        == .some("the database has not answered a write for 2 s"))
    #expect(watch.judge(Signs(flushingSince: 13), now: 13.5) == .some(nil))
    #expect(
      watch.judge(Signs(renewingSince: 20), now: 22.1)
        == .some("the database has not answered a lease renewal for 2 s"))
  }
}
