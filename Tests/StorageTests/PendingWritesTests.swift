import Testing

@testable import Storage

@Suite struct PendingWritesTests {
  @Test func keepsInputsInOrderTheLatestProgressAndTheNewestSnapshots() {
    var pending = PendingWrites(snapshotsPerSession: 2)
    let inputs = StoreFixture.inputs("a", count: 3)
    for input in inputs { pending.append(input) }
    pending.record(SessionProgress(sessionID: "a", status: .running, tick: 1, updatedAt: 1))
    pending.record(SessionProgress(sessionID: "a", status: .paused, tick: 2, updatedAt: 2))
    for tick in 1...3 as ClosedRange<Int64> {
      pending.add(Snapshot(sessionID: "a", tick: tick, state: []))
    }
    #expect(pending.snapshotCount == 2)

    let batch = pending.take()
    #expect(pending.isEmpty)
    #expect(batch.inputs == inputs)
    #expect(
      batch.progress == [SessionProgress(sessionID: "a", status: .paused, tick: 2, updatedAt: 2)])
    #expect(batch.snapshots.map(\.tick) == [2, 3])
  }

  @Test func restoringAFailedBatchPutsItAheadOfNewerWrites() {
    var pending = PendingWrites(snapshotsPerSession: 2)
    let older = StoreFixture.inputs("a", from: 1, count: 3)
    let newer = StoreFixture.inputs("a", from: 4, count: 2)
    for input in older { pending.append(input) }
    pending.record(SessionProgress(sessionID: "a", status: .running, tick: 3, updatedAt: 3))
    pending.record(SessionProgress(sessionID: "b", status: .running, tick: 9, updatedAt: 3))
    pending.add(Snapshot(sessionID: "a", tick: 3, state: [3]))
    let failed = pending.take()

    for input in newer { pending.append(input) }
    pending.record(SessionProgress(sessionID: "a", status: .running, tick: 5, updatedAt: 5))
    pending.add(Snapshot(sessionID: "a", tick: 4, state: [4]))
    pending.add(Snapshot(sessionID: "a", tick: 5, state: [5]))
    pending.restore(failed)

    let batch = pending.take()
    #expect(batch.inputs == older + newer)
    #expect(batch.progress.map(\.tick) == [5, 9])  // "a" keeps its newer update
    #expect(batch.snapshots.map(\.tick) == [4, 5])  // the restored tick 3 is superseded
  }

  @Test func discardingASessionDropsOnlyItsWrites() {
    var pending = PendingWrites(snapshotsPerSession: 3)
    for input in StoreFixture.inputs("a", count: 2) + StoreFixture.inputs("b", count: 2) {
      pending.append(input)
    }
    pending.record(SessionProgress(sessionID: "a", status: .running, tick: 2, updatedAt: 2))
    pending.add(Snapshot(sessionID: "a", tick: 2, state: []))
    pending.discard(sessionID: "a")
    let batch = pending.take()
    #expect(batch.inputs.map(\.sessionID) == ["b", "b"])
    #expect(batch.progress.isEmpty && batch.snapshots.isEmpty)
  }

  @Test func aBatchCarriesTheLeasesOfItsSessionsAndReleasesComeLast() {
    var pending = PendingWrites(snapshotsPerSession: 2)
    let a = Lease(sessionID: "a", owner: "p", epoch: 1, expiresAt: 10)
    let b = Lease(sessionID: "b", owner: "p", epoch: 4, expiresAt: 10)
    #expect(pending.hold(a) == 0)
    #expect(pending.hold(b) == 0)
    for input in StoreFixture.inputs("a", count: 2) { pending.append(input) }
    pending.release(b)
    let batch = pending.take()
    #expect(batch.leases == ["a": a, "b": b])
    #expect(batch.releases == [b])
    #expect(pending.isEmpty)
    #expect(pending.leases == ["a": a])  // "b" is given up with this batch
  }

  @Test func aNewLeaseDropsRowsOfTheOldAndCancelsItsRelease() {
    var pending = PendingWrites(snapshotsPerSession: 2)
    let first = Lease(sessionID: "a", owner: "p", epoch: 1, expiresAt: 10)
    _ = pending.hold(first)
    for input in StoreFixture.inputs("a", count: 3) { pending.append(input) }
    pending.record(SessionProgress(sessionID: "a", status: .running, tick: 3, updatedAt: 3))
    var renewed = first
    renewed.expiresAt = 20
    #expect(pending.hold(renewed) == 0)  // the same hold, renewed: rows stay
    pending.release(renewed)
    #expect(pending.hold(renewed) == 0)  // taken back before the release was written
    #expect(pending.releases.isEmpty)
    let taken = Lease(sessionID: "a", owner: "p", epoch: 3, expiresAt: 30)
    #expect(pending.hold(taken) == 4)  // 3 inputs and a progress of the lost epoch
    #expect(pending.isEmpty)
    #expect(pending.leases == ["a": taken])
  }

  @Test func aFailedBatchIsRestoredOnlyWhereTheLeaseIsUnchanged() {
    var pending = PendingWrites(snapshotsPerSession: 2)
    let a = Lease(sessionID: "a", owner: "p", epoch: 1, expiresAt: 10)
    let b = Lease(sessionID: "b", owner: "p", epoch: 1, expiresAt: 10)
    let c = Lease(sessionID: "c", owner: "p", epoch: 1, expiresAt: 10)
    for lease in [a, b, c] { _ = pending.hold(lease) }
    for id in ["a", "b", "c", "free"] {
      for input in StoreFixture.inputs(id, count: 2) { pending.append(input) }
    }
    pending.release(c)
    let failed = pending.take()

    _ = pending.hold(Lease(sessionID: "b", owner: "p", epoch: 2, expiresAt: 20))  // b changed hands
    pending.restore(failed)
    let retried = pending.take()
    #expect(retried.inputs.map(\.sessionID) == ["a", "a", "c", "c", "free", "free"])
    #expect(retried.releases == [c])
    #expect(retried.leases["a"] == a && retried.leases["c"] == c && retried.leases["free"] == nil)
  }
}
