import Foundation
import Testing

@testable import Storage

/// An on-demand session's log is compacted behind its snapshots when a batch writes one: the
/// store keeps the newest snapshots and only the inputs after the oldest of them. Realtime
/// sessions keep their whole log.
@Suite struct LogCompactionTests {
  /// An on-demand session ("fast") and a realtime one ("slow"), both fixture sessions.
  static func create(in store: any SessionStore) throws {
    try store.createSession(
      StoredSession(
        id: "fast", kind: "holes", config: "{}", seed: 2, token: "t", now: 2, running: false,
        clock: "on-demand"))
    try store.createSession(StoreFixture.session("slow"))
  }

  /// Ten ticks of inputs of both sessions, and a snapshot of each at the last of them.
  static func round(_ index: Int64, lease: Lease? = nil) -> WriteBatch {
    let first = index * 10 + 1
    var batch = WriteBatch(
      inputs: StoreFixture.inputs("fast", from: first, count: 10)
        + StoreFixture.inputs("slow", from: first, count: 10),
      snapshots: ["fast", "slow"].map {
        Snapshot(sessionID: $0, tick: first + 9, state: [UInt8(index)])
      })
    if let lease { batch.leases["fast"] = lease }
    return batch
  }

  @Test(arguments: Backend.allCases)
  func theLogOfAnOnDemandSessionStartsAtItsOldestKeptSnapshot(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try Self.create(in: store)

    try store.write(Self.round(0))
    // One snapshot: nothing is dropped yet.
    #expect(try store.session(id: "fast")?.logStart == 0)
    #expect(try store.inputs(sessionID: "fast").map(\.tick) == Array(1...10))
    try store.write(Self.round(1))
    #expect(try store.session(id: "fast")?.logStart == 10)
    #expect(try store.inputs(sessionID: "fast").map(\.tick) == Array(11...20))
    for index in 2...5 as ClosedRange<Int64> { try store.write(Self.round(index)) }
    // Three snapshots kept (40, 50, 60), the inputs after the oldest.
    let fast = try #require(try store.session(id: "fast"))
    #expect(fast.logStart == 40)
    #expect(try store.inputs(sessionID: "fast").map(\.tick) == Array(41...60))
    #expect(try store.snapshot(sessionID: "fast", atOrBefore: 40)?.tick == 40)
    #expect(try store.snapshot(sessionID: "fast", atOrBefore: 39) == nil)
    let resume = try store.resumePoint(sessionID: "fast")
    #expect(resume.snapshot?.tick == 60 && resume.inputs.isEmpty)

    // The realtime session keeps every input.
    #expect(try store.session(id: "slow")?.logStart == 0)
    #expect(try store.inputs(sessionID: "slow").map(\.tick) == Array(1...60))

    // Read again by another process, as after a restart.
    let again = try fixture.reopen()
    #expect(try again.session(id: "fast")?.logStart == 40)
    #expect(try again.listSessions().first { $0.id == "fast" }?.logStart == 40)
  }

  @Test(arguments: Backend.allCases)
  func writingTheSameBatchTwiceCompactsTheSame(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try Self.create(in: store)
    try store.write(Self.round(0))
    try store.write(Self.round(1))
    // A batch with the inputs of many ticks, some before the compaction point: written twice
    // (a retry after a commit whose answer was lost), it ends as once.
    let batch = WriteBatch(
      inputs: StoreFixture.inputs("fast", from: 1, count: 40),
      snapshots: [Snapshot(sessionID: "fast", tick: 40, state: [4])])
    #expect(try store.write(batch) == WriteResult())
    let once = try store.inputs(sessionID: "fast")
    #expect(try store.write(batch) == WriteResult())
    #expect(try store.inputs(sessionID: "fast") == once)
    #expect(once.map(\.tick) == Array(11...40))
    #expect(try store.session(id: "fast")?.logStart == 10)
    // An input-only batch repeating old rows (put back after a failed flush) is dropped with
    // the next snapshot.
    try store.write(WriteBatch(inputs: StoreFixture.inputs("fast", from: 1, count: 5)))
    try store.write(WriteBatch(snapshots: [Snapshot(sessionID: "fast", tick: 50, state: [5])]))
    #expect(try store.session(id: "fast")?.logStart == 20)
    #expect(try store.inputs(sessionID: "fast").map(\.tick) == Array(21...40))
  }

  @Test(arguments: Backend.allCases)
  func aBatchWhoseLeaseIsStaleCompactsNothing(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try Self.create(in: store)
    let held = try #require(
      try store.acquireLease(sessionID: "fast", LeaseTerms(owner: "a", now: 100, duration: 10))
        .lease)
    try store.write(Self.round(0, lease: held))
    try store.write(Self.round(1, lease: held))
    #expect(try store.session(id: "fast")?.logStart == 10)

    // Another process took the session over; the first one's late batch is fenced off whole.
    let other = try fixture.reopen()
    _ = try other.acquireLease(sessionID: "fast", LeaseTerms(owner: "b", now: 111, duration: 10))
    let result = try store.write(Self.round(2, lease: held))
    #expect(result.lostSessions == ["fast"])
    #expect(try store.session(id: "fast")?.logStart == 10)
    #expect(try store.inputs(sessionID: "fast").map(\.tick) == Array(11...20))
    #expect(try store.latestSnapshot(sessionID: "fast")?.tick == 20)
  }

  @Test(arguments: Backend.allCases)
  func aReaderOfALogCompactedUnderItFailsRatherThanSkipInputs(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try Self.create(in: store)
    try store.write(Self.round(0))
    try store.write(Self.round(1))
    var reader = InputLogReader(
      store: store, sessionID: "fast", chunkSize: 4, after: 10, compacting: true)
    #expect(try reader.inputs(at: 11)?.map(\.tick) == [11])
    // The session steps on: its log now starts after tick 20.
    try store.write(Self.round(2))
    try store.write(Self.round(3))
    #expect(try store.logStart(sessionID: "fast", wait: true) == 20)
    #expect(try reader.inputs(at: 13)?.map(\.tick) == [13], "the chunk in hand")
    // Tick 14 is the chunk's last: its other inputs, if any, would be in the next chunk.
    #expect(throws: LogCompactedError(sessionID: "fast", tick: 14, logStart: 20)) {
      try reader.inputs(at: 14)
    }
    // Without the check a reader would go on as if ticks 15 to 20 had no inputs.
    var blind = InputLogReader(store: store, sessionID: "fast", chunkSize: 4, after: 14)
    #expect(try blind.inputs(at: 15) == [])
    // From the log's start, and on a realtime session's whole log, it reads on.
    var fresh = InputLogReader(
      store: store, sessionID: "fast", chunkSize: 4, after: 20, compacting: true)
    #expect(try fresh.inputs(at: 21)?.map(\.tick) == [21])
    var whole = InputLogReader(store: store, sessionID: "slow", chunkSize: 4, compacting: true)
    #expect(try whole.inputs(at: 1)?.map(\.tick) == [1])
    #expect(try store.logStart(sessionID: "missing", wait: false) == 0)
  }
}
