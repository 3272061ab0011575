import Foundation
import Testing

@testable import Storage

@Suite struct SessionStoreTests {
  @Test(arguments: Backend.allCases) func createsReadsListsAndDeletesSessions(_ backend: Backend)
    throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    let first = StoreFixture.session("a", now: 100)
    var second = StoreFixture.session("b", now: 200)
    second.seed = .max
    try store.createSession(first)
    try store.createSession(second)

    #expect(try store.session(id: "a") == first)
    #expect(try store.session(id: "b")?.seed == .max)
    #expect(try store.session(id: "missing") == nil)
    #expect(try store.listSessions().map(\.id) == ["b", "a"])

    try store.updateSession(
      SessionProgress(sessionID: "a", status: .paused, tick: 600, updatedAt: 300))
    let updated = try #require(try store.session(id: "a"))
    #expect(updated.status == .paused && updated.tick == 600 && updated.updatedAt == 300)
    #expect(updated.createdAt == 100)
    #expect(try store.listSessions().map(\.id) == ["a", "b"])
    #expect(try store.listSessions(status: .running).map(\.id) == ["b"])
    #expect(try store.listSessions(status: .paused).map(\.id) == ["a"])

    #expect(try store.deleteSession(id: "a"))
    #expect(try !store.deleteSession(id: "a"))
    #expect(try store.listSessions().map(\.id) == ["b"])
  }

  @Test(arguments: Backend.allCases) func storesEachSessionsClock(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("old", now: 1))
    try store.createSession(
      StoredSession(
        id: "fast", kind: "holes", config: "{}", seed: 2, token: "t", now: 2, running: false,
        clock: "on-demand"))
    #expect(try store.session(id: "old")?.clock == "realtime", "the default")
    let fast = try #require(try store.session(id: "fast"))
    #expect(fast.clock == "on-demand" && fast.status == .paused)
    try store.updateSession(
      SessionProgress(sessionID: "fast", status: .paused, tick: 90, updatedAt: 3))
    #expect(try store.listSessions().first { $0.id == "fast" }?.clock == "on-demand")
  }

  @Test(arguments: Backend.allCases) func refusesADuplicateIdAndOversizedConfig(_ backend: Backend)
    throws
  {
    var limits = StoreLimits()
    limits.maxConfigBytes = 16
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    try fixture.store.createSession(StoreFixture.session("a"))
    #expect(throws: StoreError.sessionExists(id: "a")) {
      try fixture.store.createSession(StoreFixture.session("a"))
    }
    var big = StoreFixture.session("b")
    big.config = String(repeating: "x", count: 17)
    #expect(throws: StoreError.self) { try fixture.store.createSession(big) }
    #expect(try fixture.store.listSessions().count == 1)
  }

  @Test(arguments: Backend.allCases) func storesTheTokenHashNeverTheToken(_ backend: Backend) throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let wal = try fixture.walPosition()
    let token = "Zq8rV1token-that-must-not-hit-the-disk"
    let session = StoredSession(
      id: "s", kind: "holes", config: "{}", seed: 1, token: token, now: 1)
    try fixture.store.createSession(session)
    let stored = try #require(try fixture.store.session(id: "s"))
    #expect(TokenHash.matches(token: token, storedHash: stored.tokenHash))

    let bytes = try fixture.bytesOnDisk(since: wal)
    #expect(bytes.count > 0)
    #expect(bytes.range(of: Data(token.utf8)) == nil)
    #expect(bytes.range(of: Data(stored.tokenHash.utf8)) != nil)
  }

  @Test(arguments: Backend.allCases) func evictsTheStalestStoppedSessionsAtTheLimit(
    _ backend: Backend
  ) throws {
    var limits = StoreLimits()
    limits.maxSessions = 3
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    for (id, time) in [("old", 1.0), ("older", 0.5), ("running", 0.1)] {
      try store.createSession(StoreFixture.session(id, now: time))
    }
    try store.updateSession(
      SessionProgress(sessionID: "old", status: .paused, tick: 1, updatedAt: 1))
    try store.updateSession(
      SessionProgress(sessionID: "older", status: .ended, tick: 1, updatedAt: 0.5))
    try store.appendInputs(StoreFixture.inputs("older", count: 3))

    #expect(try store.createSession(StoreFixture.session("new1", now: 5)) == ["older"])
    #expect(try store.inputs(sessionID: "older") == [])
    #expect(try store.createSession(StoreFixture.session("new2", now: 6)) == ["old"])
    #expect(throws: StoreError.tooManySessions(limit: 3)) {
      try store.createSession(StoreFixture.session("new3", now: 7))
    }
    #expect(Set(try store.listSessions().map(\.id)) == ["running", "new1", "new2"])
  }

  @Test(arguments: Backend.allCases) func deletesSessionsOlderThanACutoffWithTheirLogs(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    for (id, time) in [("a", 10.0), ("b", 20.0), ("c", 30.0)] {
      try store.createSession(StoreFixture.session(id, now: time))
      try store.appendInputs(StoreFixture.inputs(id, count: 2))
      try store.saveSnapshot(Snapshot(sessionID: id, tick: 2, state: [9]))
    }
    let before = try store.statistics()
    #expect(before.sessions == 3 && before.bytes > 0)
    #expect(try store.deleteSessions(updatedBefore: 25) == ["a", "b"])
    #expect(try store.statistics().sessions == 1)
    #expect(try store.listSessions().map(\.id) == ["c"])
    let orphans = try fixture.column(
      "SELECT (SELECT COUNT(*) FROM inputs WHERE session_id != 'c')"
        + " + (SELECT COUNT(*) FROM snapshots WHERE session_id != 'c')")
    #expect(orphans == ["0"])
  }

  /// SQLite only: PostgreSQL's autovacuum makes the space reusable but keeps the files.
  @Test func deletingOldSessionsGivesTheSpaceBack() throws {
    let fixture = try StoreFixture(.sqlite)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("big", now: 1))
    // NB: measured from the schema's own size (its tables and indexes), which grows with it.
    let empty = try store.statistics().bytes
    let payload = String(repeating: "p", count: 200)
    try store.appendInputs(
      (1...5000).map { LoggedInput(sessionID: "big", tick: Int64($0), seq: 0, input: payload) })
    let full = try store.statistics().bytes
    #expect(full - empty > 1_000_000)
    #expect(try store.deleteSessions(updatedBefore: 2) == ["big"])
    #expect(try store.statistics().bytes - empty < (full - empty) / 10)
  }

  @Test(arguments: Backend.allCases) func readsInputsInTickAndSeqOrderWithinARange(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("s"))
    let inputs = [
      LoggedInput(sessionID: "s", tick: 5, seq: 1, input: "b"),
      LoggedInput(sessionID: "s", tick: 9, seq: 0, input: "c"),
      LoggedInput(sessionID: "s", tick: 5, seq: 0, input: "a"),
      LoggedInput(sessionID: "s", tick: 12, seq: 0, input: "d"),
    ]
    try store.appendInputs(inputs)
    #expect(try store.inputs(sessionID: "s").map(\.input) == ["a", "b", "c", "d"])
    #expect(try store.inputs(sessionID: "s", afterTick: 5).map(\.input) == ["c", "d"])
    #expect(
      try store.inputs(sessionID: "s", afterTick: 4, throughTick: 9).map(\.input) == [
        "a", "b", "c",
      ])
  }

  @Test(arguments: Backend.allCases) func writingABatchTwiceStoresItOnce(_ backend: Backend) throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("s"))
    let batch = WriteBatch(
      inputs: StoreFixture.inputs("s", count: 5),
      snapshots: [Snapshot(sessionID: "s", tick: 5, state: [1])],
      progress: [SessionProgress(sessionID: "s", status: .running, tick: 5, updatedAt: 101)])
    #expect(try store.write(batch) == WriteResult())
    #expect(try store.write(batch) == WriteResult())
    #expect(try store.inputs(sessionID: "s") == batch.inputs)
    #expect(try store.session(id: "s")?.tick == 5)
  }

  @Test(arguments: Backend.allCases) func skipsRowsOfSessionsThatAreGone(_ backend: Backend) throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("kept"))
    let batch = WriteBatch(
      inputs: StoreFixture.inputs("kept", count: 2) + StoreFixture.inputs("gone", count: 3),
      snapshots: [Snapshot(sessionID: "gone", tick: 1, state: [])],
      progress: [SessionProgress(sessionID: "gone", status: .paused, tick: 3, updatedAt: 1)])
    #expect(try store.write(batch) == WriteResult(skippedRows: 5))
    #expect(try store.inputs(sessionID: "kept").count == 2)
    #expect(try store.inputs(sessionID: "gone") == [])
  }

  @Test(arguments: Backend.allCases) func keepsOnlyTheNewestSnapshotsAndFindsOneAtOrBeforeATick(
    _ backend: Backend
  ) throws {
    var limits = StoreLimits()
    limits.snapshotsPerSession = 2
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("s"))
    try store.createSession(StoreFixture.session("t"))
    try store.saveSnapshot(Snapshot(sessionID: "t", tick: 1, state: [0]))
    for tick in [60, 120, 180, 240] as [Int64] {
      try store.saveSnapshot(Snapshot(sessionID: "s", tick: tick, state: [UInt8(tick / 60)]))
    }
    #expect(try store.latestSnapshot(sessionID: "s")?.tick == 240)
    #expect(try store.snapshot(sessionID: "s", atOrBefore: 239)?.tick == 180)
    #expect(try store.snapshot(sessionID: "s", atOrBefore: 179) == nil)  // pruned
    #expect(try store.latestSnapshot(sessionID: "t")?.state == [0])  // other sessions untouched
  }

  @Test(arguments: Backend.allCases) func resumePointIsTheSnapshotPlusTheInputsAfterIt(
    _ backend: Backend
  ) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(StoreFixture.session("s"))
    try store.appendInputs(StoreFixture.inputs("s", from: 1, count: 100))
    try store.saveSnapshot(Snapshot(sessionID: "s", tick: 60, state: [6]))

    let resume = try store.resumePoint(sessionID: "s")
    #expect(resume.snapshot?.tick == 60)
    #expect(resume.inputs.map(\.tick) == Array(61...100))

    let seek = try store.resumePoint(sessionID: "s", atOrBefore: 30)
    #expect(seek.snapshot == nil)
    #expect(seek.inputs.map(\.tick) == Array(1...30))
  }

  /// Rows go many to a statement: a batch of any size, with a row written twice, keeps the last.
  @Test(arguments: Backend.allCases)
  func aLargeBatchWithRepeatedRowsKeepsTheLastOfEach(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    let ids = (0..<70).map { "s\($0)" }
    for id in ids { try store.createSession(StoreFixture.session(id)) }
    var batch = WriteBatch()
    for id in ids {
      batch.inputs += StoreFixture.inputs(id, count: 3)
      batch.progress.append(SessionProgress(sessionID: id, status: .running, tick: 2, updatedAt: 1))
      batch.progress.append(SessionProgress(sessionID: id, status: .paused, tick: 3, updatedAt: 2))
      batch.snapshots.append(Snapshot(sessionID: id, tick: 3, state: [1]))
      batch.snapshots.append(Snapshot(sessionID: id, tick: 3, state: [2]))
    }
    batch.inputs.append(LoggedInput(sessionID: "s5", tick: 2, seq: 0, input: "again"))
    #expect(try store.write(batch) == WriteResult())
    for id in ids {
      let session = try #require(try store.session(id: id))
      #expect(session.status == .paused && session.tick == 3 && session.updatedAt == 2)
      #expect(try store.latestSnapshot(sessionID: id)?.state == [2])
      #expect(try store.inputs(sessionID: id).count == 3)
    }
    #expect(try store.inputs(sessionID: "s5").map(\.input)[1] == "again")
  }

  @Test(arguments: [0, 1, 5, 64, 65, 127, 200])
  func rowsAreCutIntoChunksOfPowersOfTwo(count: Int) {
    let chunks = SQLRows.chunks(Array(0..<count))
    #expect(chunks.flatMap { $0 } == Array(0..<count))
    #expect(chunks.allSatisfy { $0.count <= 64 && $0.count.nonzeroBitCount == 1 })
    #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.count >= $1.count })
  }
}
