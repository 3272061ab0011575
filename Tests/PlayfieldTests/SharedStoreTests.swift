import Foundation
import JSON
import Storage
import Testing

@testable import Playfield

/// What the app does with the database it is given at start (issue 23 item 3, issue 25): a
/// SQLite file another process holds and a PostgreSQL server that is wrong or away stop the
/// start; other faults leave it serving in memory. And what `--shard` changes.
@Suite struct SharedStoreTests {
  @Test func aSQLiteFileHeldByAnotherProcessStopsTheStart() {
    let refusal = DatabaseLockError.inUse(path: "/tmp/x.db", holder: "pid 7 on host h")
    #expect(throws: refusal) {
      _ = try TestApplication { $0.openStore = { _, _, _ in throw refusal } }
    }
  }

  @Test func anUnreachablePostgreSQLStopsTheStart() throws {
    #expect(throws: PostgresError.self) {
      _ = try TestApplication {
        // NB: port 1 on loopback refuses at once.
        $0.databasePath = "postgresql://playfield@127.0.0.1:1/playfield?connect_timeout=2"
      }
    }
  }

  @Test func anotherFaultOfASQLiteFileLeavesTheAppServingInMemory() throws {
    let app = try TestApplication {
      $0.openStore = { _, _, _ in
        throw SQLiteError(code: 26, sqliteMessage: "file is not a database")
      }
    }
    defer { app.shutdown() }
    let created = try app.json(.post, "/api/sessions", ["kind": "maze", "config": [:]])
    #expect(created["durable"] == false)
  }

  @Test func aShardBeginsEveryIdItMakes() throws {
    let app = try TestApplication { $0.shard = "b2" }
    defer { app.shutdown() }
    let created = try app.json(.post, "/api/sessions", ["kind": "maze", "config": [:]])
    let id = try #require(created["id"]?.stringValue)
    #expect(id.hasPrefix("b2.") && id.count == 3 + 22)
    #expect(app.request(.get, "/api/sessions/\(id)").status == .ok)
  }

  @Test func sessionPathsNameTheirSession() {
    #expect(Application.sessionID(in: ["api", "sessions", "a.X", "state"]) == "a.X")
    #expect(Application.sessionID(in: ["ws", "sessions", "a.X"]) == "a.X")
    #expect(Application.sessionID(in: ["ws", "replays", "a.X"]) == "a.X")
    #expect(Application.sessionID(in: ["sessions", "a.X", "replay"]) == "a.X")
    #expect(Application.sessionID(in: ["api", "sessions"]) == nil)
    #expect(Application.sessionID(in: ["tiles", "mandelbrot", "0"]) == nil)
  }
}
