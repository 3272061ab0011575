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
}
