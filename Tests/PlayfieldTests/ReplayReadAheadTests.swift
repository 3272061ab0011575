import Foundation
import JSON
import Simulation
import Storage
import Testing

@testable import Playfield

/// A playback whose log is read on store workers reads the next chunk ahead, once half the one
/// in hand is used, so it waits for the store at its first chunk only, not at every chunk; and a
/// tick with more inputs than a chunk is read whole by one worker call, not a chunk a wait.
@Suite struct ReplayReadAheadTests {
  @Test("a playback waits for its first chunk only, and replays every input in order")
  func readsAhead() throws {
    let (waits, replayed, expected) = try Self.play(ticks: 200, inputsPerTick: 1, chunkSize: 8)
    #expect(waits == 1, "the first chunk was waited for; every later one was read ahead")
    #expect(replayed == expected)
  }

  @Test("a tick of more inputs than a chunk is waited for once, not once a chunk")
  func bigTicks() throws {
    let (waits, replayed, expected) = try Self.play(ticks: 10, inputsPerTick: 20, chunkSize: 4)
    #expect(waits <= 10, "one wait a tick at most (5 chunks a tick)")
    #expect(replayed == expected)
  }

  /// Plays a stored log of `ticks` ticks of `inputsPerTick` tilts each, read `chunkSize` inputs
  /// at a time on a store worker, letting each read end before the next ask; answers how many
  /// asks had to wait, and the inputs replayed beside those logged.
  static func play(ticks: Int64, inputsPerTick: Int, chunkSize: Int) throws
    -> (waits: Int, replayed: [String], expected: [String])
  {
    let directory = NSTemporaryDirectory() + "playfield-read-ahead-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteSessionStore(path: directory + "/p.db", limits: StoreLimits())
    _ = try store.createSession(
      StoredSession(id: "s", kind: MazeBall.kind, config: "{}", seed: 1, token: "t", now: 0),
      lease: nil)
    let logged = (1...ticks).flatMap { tick in
      (0..<inputsPerTick).map { seq in
        LoggedInput(
          sessionID: "s", tick: tick, seq: Int64(seq),
          input: #"{"type":"tilt","x":0.\#((tick + Int64(seq)) % 10),"y":0}"#)
      }
    }
    _ = try store.write(WriteBatch(inputs: logged))

    var log = StoredReplayLog(
      type: MazeBall.self, store: store, sessionID: "s", chunkSize: chunkSize)
    log.readOn(StoreCalls(workers: 1, capacity: 4), for: ClientKey(address: "10.0.0.1"))
    var waits = 0
    var replayed: [String] = []
    let deadline = Date().addingTimeInterval(20)
    for tick in 1...ticks {
      while true {
        // The store worker's read (ahead, or the one waited for) ends before the next ask.
        while log.isReading {
          try #require(Date() < deadline, "the reads did not end within 20 s")
          Thread.sleep(forTimeInterval: 0.001)
        }
        if let inputs = try log.inputs(forTick: UInt64(tick)) {
          replayed += inputs.map { "\(tick): \($0.value)" }
          break
        }
        waits += 1
      }
    }
    let expected = try logged.map { input in
      "\(input.tick): \(MazeBall.loggedInput(try JSONValue.parse(input.input)).value)"
    }
    return (waits, replayed, expected)
  }
}
