import Foundation
import Storage
import Testing

/// Speed figures for the write path, on SQLite and PostgreSQL in the same run; run with
/// `PLAYFIELD_BENCH=1 swift test --filter StorageBenchmarks`. They print, and assert only that
/// every row arrived. PostgreSQL runs on a server of the benchmark's own with its default
/// durability (fsync on, every commit flushed to the disk), over TCP on 127.0.0.1.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] != nil), .serialized)
struct StorageBenchmarks {
  /// A store on `backend` for a benchmark, and what to call when done with it.
  static func store(_ backend: Backend) throws -> (any SessionStore, () -> Void) {
    switch backend {
    case .sqlite:
      let directory = try TemporaryDirectory()
      return (try SQLiteSessionStore(path: directory.file("bench.db")), directory.remove)
    case .postgresql:
      let server = try PostgresServer(durable: true)
      let name = try server.makeDatabase()
      return (try PostgresSessionStore(url: server.tcpURL(name)), server.destroy)
    }
  }

  @Test(arguments: Backend.allCases)
  func fiftySessionsAtSixtyHertz(_ backend: Backend) throws {
    let (store, done) = try Self.store(backend)
    defer { done() }
    let ids = (0..<50).map { "session-\($0)" }
    var leases: [String: Lease] = [:]
    for id in ids {
      let created = try store.createSession(
        StoredSession(id: id, kind: "holes", config: "{}", seed: 7, token: id, now: 0),
        lease: LeaseTerms(owner: "bench", now: 0, duration: 3600))
      leases[id] = created.lease
    }
    let clock = ContinuousClock()

    // One flush's worth (250 ms at 60 Hz): 15 inputs, a progress update and, every
    // fourth flush, a 4 KiB snapshot for each of the 50 sessions, under their leases.
    let flushes = 240
    var flushTimes: [Duration] = []
    for flush in 0..<flushes {
      var batch = WriteBatch(leases: leases)
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
      var result = WriteResult()
      flushTimes.append(try clock.measure { result = try store.write(batch) })
      #expect(result == WriteResult())
    }
    print(
      "\(backend.testDescription): flush of 50 sessions x 250 ms (750 inputs + 50 updates,",
      "snapshots every 4th): \(Self.summary(flushTimes)),",
      "\(Int(Double(flushes * 750) / Self.seconds(flushTimes.reduce(.zero, +)))) inputs/s")

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
      "\(backend.testDescription): database after \(flushes * 750) inputs: \(bytes) bytes;",
      "read all \(flushes * 15) inputs of a session: \(replay); resume point: \(resume)")

    var configuration = WriterConfiguration()
    configuration.maxPendingInputs = 1_000_000
    let writer = SessionWriter(store: store, configuration: configuration)
    writer.hold(leases["session-1"]!)
    let input = LoggedInput(sessionID: "session-1", tick: 1_000_000, seq: 0, input: "{}")
    let appends = 100_000
    let enqueue = clock.measure {
      for seq in 0..<appends {
        var next = input
        next.seq = Int64(seq)
        writer.append(next)
      }
    }
    print(
      "\(backend.testDescription): SessionWriter.append:",
      "\(Int(Self.seconds(enqueue) / Double(appends) * 1e9)) ns per call")
    let drain = clock.measure { #expect(writer.close(timeout: 120)) }
    print("\(backend.testDescription): a backlog of \(appends) inputs written in \(drain)")
    #expect(try store.inputs(sessionID: "session-1", afterTick: 999_999).count == appends)
  }

  /// One session's tick, from the game loop's hands to committed: the tick's input and progress
  /// queued, then `flush()` (which skips the 250 ms wait a tick would otherwise sit out).
  @Test(arguments: Backend.allCases)
  func stepToCommit(_ backend: Backend) throws {
    let (store, done) = try Self.store(backend)
    defer { done() }
    let created = try store.createSession(
      StoredSession(id: "s", kind: "holes", config: "{}", seed: 7, token: "t", now: 0),
      lease: LeaseTerms(owner: "bench", now: 0, duration: 3600))
    let writer = SessionWriter(store: store)
    defer { writer.close() }
    writer.hold(try #require(created.lease))
    let clock = ContinuousClock()
    var times: [Duration] = []
    for tick in Int64(1)...500 {
      times.append(
        clock.measure {
          writer.append(LoggedInput(sessionID: "s", tick: tick, seq: 0, input: #"{"x":1}"#))
          writer.update(
            SessionProgress(sessionID: "s", status: .running, tick: tick, updatedAt: Double(tick)))
          #expect(writer.flush())
        })
    }
    print("\(backend.testDescription): step to commit, one tick: \(Self.summary(times))")
    #expect(try store.inputs(sessionID: "s").count == 500)
  }

  /// Median, p99 and max in milliseconds.
  static func summary(_ durations: [Duration]) -> String {
    let sorted = durations.sorted().map { seconds($0) * 1000 }
    let format = { (value: Double) in String(format: "%.2f", value) }
    return "median \(format(sorted[sorted.count / 2])) ms, "
      + "p99 \(format(sorted[sorted.count * 99 / 100])) ms, max \(format(sorted.last!)) ms"
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
