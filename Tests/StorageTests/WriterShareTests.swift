import Foundation
import Synchronization
import Testing

@testable import Storage

/// Issue 35 (attack 16): the writer's time is shared per client. One flush writes at most its
/// budget of input rows, each client's rows in its fair share, so a flood waits in its own
/// share and a bystander's input is committed in the first transaction after it. Counts only.
@Suite struct WriterShareTests {
  static func realtime(_ id: String) -> StoredSession {
    StoredSession(
      id: id, kind: "bouncing-balls", config: "{}", seed: 1, token: "t", now: 1, running: true,
      clock: "realtime")
  }

  /// `perTick` throws of session `id` applied at `tick`.
  static func throwsOf(_ id: String, tick: Int64, perTick: Int) -> [LoggedInput] {
    (0..<perTick).map { seq in
      LoggedInput(
        sessionID: id, tick: tick, seq: Int64(seq),
        input: #"{"type":"throw","index":0,"vx":\#(seq),"vy":\#(tick)}"#)
    }
  }

  @Test(arguments: Backend.allCases)
  func aBystandersInputIsInTheFirstCommitAfterItWhateverAFloodQueued(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let flood = (0..<8).map { "flood\($0)" }
    for id in flood + ["me"] { try fixture.store.createSession(Self.realtime(id)) }
    let commits = Mutex<[[String: Int64]]>([])
    var configuration = WriterConfiguration()
    configuration.flushInterval = 3600
    configuration.maxBatchBytes = 64 * 1024
    let writer = SessionWriter(
      store: fixture.store, configuration: configuration,
      stored: { ticks in commits.withLock { $0.append(ticks) } })
    defer { writer.close() }
    for id in flood { writer.charge(sessionID: id, to: "flood") }
    writer.charge(sessionID: "me", to: "me")
    // About 1.7 MB of the flood (27 budgets), queued before the bystander's one input.
    for tick in Int64(1)...40 {
      for id in flood {
        writer.append(
          contentsOf: Self.throwsOf(id, tick: tick, perTick: 100), admitted: true, packed: true)
      }
    }
    writer.append(
      contentsOf: Self.throwsOf("me", tick: 7, perTick: 1), admitted: true, packed: true)

    #expect(writer.flush(sessionID: "me", timeout: 30))
    let first = try #require(commits.withLock { $0.first })
    #expect(first["me"] == 7)
    // The flood had its share of that transaction, not the whole of what it queued.
    #expect(first.keys.filter { $0.hasPrefix("flood") }.count <= 2, "\(first)")
    #expect(!first.contains { $0.key.hasPrefix("flood") && $0.value == 40 }, "\(first)")

    // The rest went in the transactions that followed, in order, nothing lost.
    #expect(writer.flush(timeout: 60))
    #expect(commits.withLock { $0.count } > 10)
    for id in flood {
      let logged = try fixture.store.inputs(sessionID: id)
      #expect(logged == (Int64(1)...40).flatMap { Self.throwsOf(id, tick: $0, perTick: 100) })
    }
    #expect(try fixture.store.inputs(sessionID: "me") == Self.throwsOf("me", tick: 7, perTick: 1))
  }

  @Test func fairSharesFillTheBudgetSmallestFirstAndTakePrefixes() {
    let row = { (id: String, tick: Int64, bytes: Int) in
      LoggedInput(sessionID: id, tick: tick, seq: 0, input: String(repeating: "x", count: bytes))
    }
    // "a" and "b" are one client's; "c" another's, queuing little; "d" a third's.
    let rows = [
      row("a", 1, 968), row("b", 1, 968), row("c", 1, 68), row("a", 2, 968), row("d", 1, 468),
      row("b", 2, 968), row("d", 2, 468), row("a", 3, 968),
    ]
    let payer = { (id: String) in id == "b" ? "a" : id }
    // Each row is its text + the id + 32 bytes: 1,001, 101 and 501.
    let chosen = PendingWrites.fairShare(of: rows, budget: 2_500, payer: payer)
    // c (101) goes whole; d's two rows (1,002) fit its share of 2,399 / 2; a's client takes
    // its oldest row, the one that fits in what is left (1,397), and stops there.
    #expect(chosen == [true, false, true, false, true, false, true, false])
    // Every client takes at least one row, however small the budget.
    #expect(
      PendingWrites.fairShare(of: rows, budget: 1, payer: payer)
        == [true, false, true, false, true, false, false, false])
  }

  @Test func aRationedSessionKeepsItsProgressAndReleaseForItsLastRows() {
    var pending = PendingWrites(snapshotsPerSession: 3)
    let big = { (tick: Int64) in
      LoggedInput(sessionID: "f", tick: tick, seq: 0, input: String(repeating: "y", count: 900))
    }
    for tick in Int64(1)...4 { pending.append(big(tick), stamp: UInt64(tick)) }
    pending.append(
      LoggedInput(sessionID: "m", tick: 3, seq: 0, input: "{}"), stamp: 5)
    pending.record(SessionProgress(sessionID: "f", status: .running, tick: 4, updatedAt: 1))
    pending.record(SessionProgress(sessionID: "m", status: .running, tick: 3, updatedAt: 1))

    let first = pending.take(budget: 1_500)
    #expect(first.inputs.map(\.sessionID) == ["f", "m"])
    #expect(first.progress.map(\.sessionID) == ["m"])
    #expect(pending.oldestStamp() == 2)
    #expect(pending.oldestStamp(of: "m") == nil)
    #expect(pending.hasOtherWrites(of: "f"))

    // A failed flush puts its rows back ahead of what it left, stamps and all.
    pending.restore(first, stamps: pending.takenStamps)
    #expect(pending.inputs.map(\.tick) == [1, 3, 2, 3, 4])
    #expect(pending.stamps == [1, 5, 2, 3, 4])

    let all = pending.take()
    #expect(all.inputs.filter { $0.sessionID == "f" }.map(\.tick) == [1, 2, 3, 4])
    #expect(all.progress.map(\.sessionID) == ["f", "m"])
    #expect(pending.isEmpty)
  }
}
