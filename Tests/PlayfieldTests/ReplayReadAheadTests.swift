import Foundation
import JSON
import Simulation
import Storage
import Testing

@testable import Playfield

/// A playback whose log is read on store workers reads the next chunk ahead, once half the one
/// in hand is used, so it waits for the store at its first chunk only, not at every chunk.
@Suite struct ReplayReadAheadTests {
  @Test("a playback waits for its first chunk only, and replays every input in order")
  func readsAhead() throws {
    let directory = NSTemporaryDirectory() + "playfield-read-ahead-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteSessionStore(path: directory + "/p.db", limits: StoreLimits())
    _ = try store.createSession(
      StoredSession(id: "s", kind: MazeBall.kind, config: "{}", seed: 1, token: "t", now: 0),
      lease: nil)
    let ticks = Int64(1)...200
    let logged = ticks.map { tick in
      LoggedInput(
        sessionID: "s", tick: tick, seq: 0, input: #"{"type":"tilt","x":0.\#(tick % 10),"y":0}"#)
    }
    _ = try store.write(WriteBatch(inputs: logged))

    var log = StoredReplayLog(type: MazeBall.self, store: store, sessionID: "s", chunkSize: 8)
    log.readOn(StoreCalls(workers: 1, capacity: 4), for: ClientKey(address: "10.0.0.1"))
    var waits = 0
    var replayed: [String] = []
    let deadline = Date().addingTimeInterval(20)
    for tick in ticks {
      while true {
        // The store worker's read (ahead, or the one waited for) ends before the next tick.
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
    #expect(waits == 1, "the first chunk was waited for; every later one was read ahead")
    let expected = try logged.map { input in
      "\(input.tick): \(MazeBall.loggedInput(try JSONValue.parse(input.input)).value)"
    }
    #expect(replayed == expected)
  }
}
