import Foundation
import Synchronization
import Testing

@testable import Storage

/// An on-demand session's inputs are packed: one row per session per flush, however many steps
/// and inputs, read back as the same inputs (tick, seq, text) as rows of one input each.
@Suite struct PackedLogTests {
  /// An on-demand session of the fixture.
  static func onDemand(_ id: String) -> StoredSession {
    StoredSession(
      id: id, kind: "holes", config: "{}", seed: 2, token: "t", now: 2, running: false,
      clock: "on-demand")
  }

  /// The inputs of ticks `ticks`, `perTick` to a tick, as a batch step logs them.
  static func steps(_ id: String, ticks: ClosedRange<Int64>, perTick: Int = 1) -> [[LoggedInput]] {
    ticks.map { tick in
      (0..<perTick).map { seq in
        LoggedInput(
          sessionID: id, tick: tick, seq: Int64(seq),
          input: #"{"type":"tilt","x":\#(tick),"y":\#(seq)}"#)
      }
    }
  }

  static func slow() -> WriterConfiguration {
    var configuration = WriterConfiguration()
    configuration.flushInterval = 3600
    return configuration
  }

  @Test(arguments: Backend.allCases)
  func fifteenHundredStepsOfTwoSessionsAreTwoRows(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    for id in ["a", "b"] { try fixture.store.createSession(Self.onDemand(id)) }
    let writer = SessionWriter(store: fixture.store, configuration: Self.slow())
    defer { writer.close() }
    for tick in Self.steps("a", ticks: 1...500, perTick: 2) {
      #expect(writer.append(contentsOf: tick, admitted: true, packed: true))
    }
    for tick in Self.steps("b", ticks: 1...1000) {
      writer.append(contentsOf: tick, admitted: true, packed: true)
    }
    #expect(writer.status.pendingInputs == 2000)
    #expect(writer.flush())
    #expect(try fixture.column("SELECT COUNT(*) FROM inputs") == ["2"])
    #expect(writer.status.writtenRows == 2)
    let a = try fixture.store.inputs(sessionID: "a")
    #expect(a == Self.steps("a", ticks: 1...500, perTick: 2).flatMap { $0 })
    #expect(
      try fixture.store.inputs(sessionID: "b") == Self.steps("b", ticks: 1...1000).flatMap { $0 })
    #expect(try fixture.store.lastInputTick(sessionID: "a") == 500)
    // A packed row holds at most 64 KiB of text: a longer run goes on in a new row.
    for tick in Self.steps("b", ticks: 1001...4000) {
      writer.append(contentsOf: tick, admitted: true, packed: true)
    }
    #expect(writer.flush())
    #expect(try fixture.column("SELECT COUNT(*) FROM inputs WHERE session_id = 'b'") == ["3"])
    #expect(try fixture.store.inputs(sessionID: "b").count == 4000)
    #expect(
      try fixture.store.inputs(sessionID: "a", afterTick: 10, throughTick: 12)
        == Self.steps("a", ticks: 11...12, perTick: 2).flatMap { $0 })
  }

  @Test(arguments: Backend.allCases)
  func oldRowsThenPackedRowsReadAsOneLogInChunks(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(Self.onDemand("s"))
    // Written before packing: one row per input.
    let old = Self.steps("s", ticks: 1...50, perTick: 3).flatMap { $0 }
    try fixture.store.write(WriteBatch(inputs: old))
    let writer = SessionWriter(store: fixture.store, configuration: Self.slow())
    defer { writer.close() }
    var packed: [LoggedInput] = []
    for round in 0..<3 {
      let first = Int64(51 + round * 100)
      for tick in Self.steps("s", ticks: first...(first + 99), perTick: 2) {
        writer.append(contentsOf: tick, admitted: true, packed: true)
        packed += tick
      }
      #expect(writer.flush())
    }
    #expect(try fixture.column("SELECT COUNT(*) FROM inputs") == ["\(old.count + 3)"])
    for chunk in [1, 7, 150, 1000] {
      var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: chunk)
      var read: [LoggedInput] = []
      for tick in Int64(1)...351 { read += try #require(try reader.inputs(at: tick)) }
      #expect(read == old + packed, "chunks of \(chunk)")
    }
    // A page that starts inside a packed row, after one input of a tick.
    let page = try #require(
      try fixture.store.inputs(
        sessionID: "s", after: LogPosition(tick: 60, seq: 0), limit: 5, wait: true))
    #expect(page.map { [$0.tick, $0.seq] } == [[60, 1], [61, 0], [61, 1], [62, 0], [62, 1]])
    // A seek: from just after tick 200.
    var reader = InputLogReader(store: fixture.store, sessionID: "s", chunkSize: 4, after: 200)
    #expect(try reader.inputs(at: 201) == packed.filter { $0.tick == 201 })
  }

  @Test(arguments: Backend.allCases)
  func compactionKeepsEveryInputAfterTheLogStart(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    try fixture.store.createSession(Self.onDemand("s"))
    let writer = SessionWriter(store: fixture.store, configuration: Self.slow())
    defer { writer.close() }
    var all: [LoggedInput] = []
    for round in Int64(0)..<4 {
      let first = round * 10 + 1
      for tick in Self.steps("s", ticks: first...(first + 9)) {
        writer.append(contentsOf: tick, admitted: true, packed: true)
        all += tick
      }
      // The snapshot falls inside the next round's packed row (taken mid-flush).
      writer.save(Snapshot(sessionID: "s", tick: first + 4, state: [UInt8(round)]))
      #expect(writer.flush())
    }
    let start = try #require(try fixture.store.logStart(sessionID: "s", wait: true))
    #expect(start == 15, "the oldest of 3 kept snapshots (5, 15, 25, 35)")
    let kept = try fixture.store.inputs(sessionID: "s", afterTick: start)
    #expect(kept == all.filter { $0.tick > start })
    // Rows wholly at or before the log start went; the row holding it stays.
    #expect(try fixture.column("SELECT COUNT(*) FROM inputs") == ["3"])
  }

  @Test func aPackedRowPutBackIsWrittenAsItWasAndNewerTicksGoInANewRow() {
    var pending = PendingWrites(snapshotsPerSession: 3)
    for tick in Self.steps("s", ticks: 1...3) { pending.appendPacked(tick) }
    let failed = pending.take()
    #expect(failed.inputs.count == 1 && failed.inputs[0].tick == 3)
    for tick in Self.steps("s", ticks: 4...5) { pending.appendPacked(tick) }
    pending.restore(failed)
    for tick in Self.steps("s", ticks: 6...6) { pending.appendPacked(tick) }
    #expect(pending.inputs.map(\.tick) == [3, 6])
    #expect(pending.inputs[0] == failed.inputs[0], "the row put back is unchanged")
    #expect(pending.inputCount == 6)
    #expect(pending.inputs.flatMap(\.unpacked) == Self.steps("s", ticks: 1...6).flatMap { $0 })
    pending.discard(sessionID: "s")
    #expect(pending.inputCount == 0 && pending.inputBytes == 0 && pending.isEmpty)
  }

  @Test func aPackedRowReadsBackTextInAnyScriptByteForByte() {
    // Combining marks, emoji and CR-LF-free JSON of any script: split at newline bytes only.
    let texts = [
      #"{"name":"\#u{301}é after a combining mark"}"#, #"{"text":"🙂👍🏽 ok"}"#,
      #"{"text":"日本語 テキスト"}"#, #"{"text":" leading space"}"#,
    ]
    let inputs = texts.enumerated().map { index, text in
      LoggedInput(sessionID: "s", tick: Int64(1 + index / 2), seq: Int64(index % 2), input: text)
    }
    let row = LoggedInput.packed(sessionID: "s", inputs: inputs)
    #expect(row.inputCount == 4)
    #expect(row.unpacked == inputs)
  }
}
