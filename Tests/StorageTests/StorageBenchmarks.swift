import Foundation
import Storage
import Testing

/// Speed figures for the write path; run with `PLAYFIELD_BENCH=1 swift test --filter
/// StorageBenchmarks`. They print, and assert only that every row arrived.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] != nil))
struct StorageBenchmarks {
  @Test func fiftySessionsAtSixtyHertz() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try SQLiteSessionStore(path: directory.file("bench.db"))
    let ids = (0..<50).map { "session-\($0)" }
    for id in ids {
      try store.createSession(
        StoredSession(id: id, kind: "holes", config: "{}", seed: 7, token: id, now: 0))
    }
    let clock = ContinuousClock()

    // One flush's worth (250 ms at 60 Hz): 15 inputs, a progress update and, every
    // fourth flush, a 4 KiB snapshot for each of the 50 sessions.
    let flushes = 240
    var flushTimes: [Duration] = []
    for flush in 0..<flushes {
      var batch = WriteBatch()
      for id in ids {
        for step in 0..<15 {
          let tick = Int64(flush * 15 + step)
          batch.inputs.append(
            LoggedInput(
              sessionID: id, tick: tick, seq: 0, input: #"{"type":"tilt","x":0.25,"y":-0.5}"#))
        }
        let tick = Int64(flush * 15 + 14)
        batch.progress.append(
          SessionProgress(sessionID: id, status: .running, tick: tick, updatedAt: Double(flush)))
        if flush % 4 == 3 {
          batch.snapshots.append(
            Snapshot(sessionID: id, tick: tick, state: [UInt8](repeating: 1, count: 4096)))
        }
      }
      flushTimes.append(try clock.measure { try store.write(batch) })
    }
    flushTimes.sort()
    let total = flushTimes.reduce(Duration.zero, +)
    print(
      "flush of 50 sessions x 250 ms (750 inputs + 50 updates, snapshots every 4th):",
      "median \(flushTimes[flushes / 2]), p99 \(flushTimes[flushes * 99 / 100]),",
      "max \(flushTimes[flushes - 1]), \(Double(flushes * 750) / seconds(total)) inputs/s")

    var replayed: [LoggedInput] = []
    let replay = try clock.measure { replayed = try store.inputs(sessionID: "session-0") }
    #expect(replayed.count == flushes * 15)
    var point = ResumePoint(snapshot: nil, inputs: [])
    let resume = try clock.measure {
      point = try store.resumePoint(sessionID: "session-0", atOrBefore: Int64(flushes * 15 - 20))
    }
    let snapshotTick = try #require(point.snapshot?.tick)
    #expect(Int64(point.inputs.count) == Int64(flushes * 15 - 20) - snapshotTick)
    let bytes = try store.statistics().bytes
    print(
      "database after \(flushes * 750) inputs: \(bytes) bytes, \(bytes / Int64(flushes * 750)) per input"
    )
    print("read all \(flushes * 15) inputs of a session: \(replay); resume point: \(resume)")

    var configuration = WriterConfiguration()
    configuration.maxPendingInputs = 1_000_000
    let writer = SessionWriter(store: store, configuration: configuration)
    let input = LoggedInput(sessionID: "session-1", tick: 1_000_000, seq: 0, input: "{}")
    let appends = 100_000
    let enqueue = clock.measure {
      for seq in 0..<appends {
        var next = input
        next.seq = Int64(seq)
        writer.append(next)
      }
    }
    print("SessionWriter.append: \(seconds(enqueue) / Double(appends) * 1e9) ns per call")
    #expect(writer.close(timeout: 60))
    #expect(try store.inputs(sessionID: "session-1", afterTick: 999_999).count == appends)
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
