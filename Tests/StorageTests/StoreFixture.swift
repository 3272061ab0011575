import Foundation

@testable import Storage

/// A store on a fresh file in a temporary directory.
struct StoreFixture {
  let directory: TemporaryDirectory
  let path: String
  let store: SQLiteSessionStore

  init(limits: StoreLimits = StoreLimits(), busyTimeoutMilliseconds: Int32 = 2000) throws {
    directory = try TemporaryDirectory()
    path = directory.file("playfield.db")
    store = try SQLiteSessionStore(
      path: path, limits: limits, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  }

  /// A running session created at `now` with token "token-<id>".
  static func session(_ id: String, now: Double = 100, kind: String = "maze") -> StoredSession {
    StoredSession(
      id: id, kind: kind, config: #"{"rows":12}"#, seed: 0xDEAD_BEEF_0000_0001,
      token: "token-\(id)", now: now)
  }

  /// `count` inputs for `sessionID` at ticks `firstTick`, `firstTick + 1`, ...
  static func inputs(_ sessionID: String, from firstTick: Int64 = 1, count: Int) -> [LoggedInput] {
    (0..<count).map { index in
      LoggedInput(
        sessionID: sessionID, tick: firstTick + Int64(index), seq: 0,
        input: #"{"type":"tilt","x":\#(index)}"#)
    }
  }
}
