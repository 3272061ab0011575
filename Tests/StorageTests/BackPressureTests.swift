import Foundation
import Synchronization
import Testing

@testable import Storage

/// A writer merely behind makes the clients that fill its queue wait, the heaviest first; only
/// a database that cannot be written refuses, and says why.
@Suite struct BackPressureTests {
  @Test func theHeaviestFillerWaitsFirstThenEveryone() {
    let bound = 1000
    #expect(
      WriteAdmission.decide(queued: 499, bound: bound, mine: 499, fillers: 1, cannotWrite: nil)
        == .go)
    // From half the bound: the client above its share waits, the other goes on.
    #expect(
      WriteAdmission.decide(queued: 600, bound: bound, mine: 500, fillers: 2, cannotWrite: nil)
        == .wait)
    #expect(
      WriteAdmission.decide(queued: 600, bound: bound, mine: 100, fillers: 2, cannotWrite: nil)
        == .go)
    #expect(
      WriteAdmission.decide(queued: 600, bound: bound, mine: 600, fillers: 1, cannotWrite: nil)
        == .go)
    // At the bound: everyone waits while the database can be written, and is refused when not.
    #expect(
      WriteAdmission.decide(queued: 1000, bound: bound, mine: 0, fillers: 2, cannotWrite: nil)
        == .wait)
    #expect(
      WriteAdmission.decide(queued: 1000, bound: bound, mine: 0, fillers: 2, cannotWrite: "full")
        == .refuse("full"))
    #expect(
      WriteAdmission.decide(queued: 999, bound: bound, mine: 0, fillers: 2, cannotWrite: "full")
        == .go)
  }

  /// A writer behind (it flushes only when asked), with a small bound in bytes.
  static func behind(_ store: any SessionStore, bound: Int) -> SessionWriter {
    var configuration = WriterConfiguration()
    configuration.flushInterval = 3600
    configuration.maxPendingBytes = bound
    return SessionWriter(store: store, configuration: configuration)
  }

  static func fill(_ writer: SessionWriter, _ id: String, ticks: ClosedRange<Int64>) {
    for tick in PackedLogTests.steps(id, ticks: ticks) {
      writer.append(contentsOf: tick, admitted: true, packed: true)
    }
  }

  @Test func aWriterBehindDelaysTheHeavyClientThenTheLightOneAndNeverRefuses() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    for id in ["heavy", "light"] { try fixture.store.createSession(PackedLogTests.onDemand(id)) }
    let writer = Self.behind(fixture.store, bound: 8000)
    defer { writer.close() }
    let went = Mutex<[String]>([])
    let go = { (name: String) in
      { @Sendable (why: String?) in went.withLock { $0.append("\(name) \(why ?? "ok")") } }
    }
    #expect(writer.admit(payer: "A", sessions: ["heavy"], go("A")))
    #expect(writer.admit(payer: "B", sessions: ["light"], go("B")))
    Self.fill(writer, "heavy", ticks: 1...120)
    Self.fill(writer, "light", ticks: 1...5)
    let half = writer.status.pendingBytes
    #expect(half >= 4000 && half < 8000, "\(half) bytes: past half the bound")
    #expect(!writer.admit(payer: "A", sessions: ["heavy"], go("A")), "the heavy filler waits")
    #expect(writer.admit(payer: "B", sessions: ["light"], go("B")), "the light one goes on")
    Self.fill(writer, "light", ticks: 6...200)
    #expect(writer.status.pendingBytes >= 8000)
    #expect(!writer.admit(payer: "B", sessions: ["light"], go("B")), "at the bound, everyone waits")
    #expect(writer.status.waitingSteps == 2 && went.withLock { $0 }.isEmpty)
    #expect(writer.refusesInput() == nil, "a healthy writer behind refuses nothing")
    #expect(writer.status.rejectedInputs == 0)
    // The flush makes room: both go, in the order they came, with nothing refused.
    #expect(writer.flush())
    let deadline = Date(timeIntervalSinceNow: 10)
    while went.withLock({ $0.count }) < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    #expect(went.withLock { $0 } == ["A ok", "B ok"])
    #expect(writer.status.waitingSteps == 0 && writer.status.peakBytes >= 8000)
  }

  @Test func aDatabaseThatCannotBeWrittenRefusesAtTheBoundAndSaysWhy() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.store.createSession(PackedLogTests.onDemand("s"))
    let store = try SQLiteSessionStore(path: fixture.path, readOnly: true)
    var configuration = WriterConfiguration()
    configuration.flushInterval = 0.02
    configuration.maxBackoff = 0.05
    configuration.maxPendingBytes = 2000
    let writer = SessionWriter(store: store, configuration: configuration)
    defer { writer.close(timeout: 0.2) }
    Self.fill(writer, "s", ticks: 1...5)
    #expect(!writer.flush(timeout: 0.3))
    #expect(writer.refusesInput() == nil, "below the bound inputs are still queued")
    let refused = Mutex<String?>(nil)
    Self.fill(writer, "s", ticks: 6...100)
    #expect(!writer.admit(payer: "A", sessions: ["s"]) { why in refused.withLock { $0 = why } })
    #expect(refused.withLock { $0 }?.contains("database is read-only") == true)
    #expect(writer.refusesInput()?.contains("database is read-only") == true)
    #expect(writer.status.rejectedInputs == 1)
  }
}
