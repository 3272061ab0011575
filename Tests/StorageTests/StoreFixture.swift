import Foundation

@testable import Storage

/// A store on a fresh database: a SQLite file in a temporary directory, or a new database on
/// the tests' PostgreSQL server. `remove()` deletes it.
struct StoreFixture {
  let backend: Backend
  let directory: TemporaryDirectory
  /// The SQLite file (SQLite only).
  let path: String
  /// The PostgreSQL database's name (PostgreSQL only).
  let database: String?
  let store: any SessionStore

  init(
    _ backend: Backend = .sqlite, limits: StoreLimits = StoreLimits(),
    busyTimeoutMilliseconds: Int32 = 2000
  ) throws {
    self.backend = backend
    directory = try TemporaryDirectory()
    path = directory.file("playfield.db")
    switch backend {
    case .sqlite:
      database = nil
      store = try SQLiteSessionStore(
        path: path, limits: limits, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    case .postgresql:
      do {
        let server = try PostgresServer.shared
        let name = try server.makeDatabase()
        database = name
        store = try PostgresSessionStore(url: server.url(name), limits: limits)
      } catch {
        directory.remove()
        throw error
      }
    }
  }

  /// The store as SQLite's (for the tests of SQLite alone).
  var sqlite: SQLiteSessionStore {
    store as! SQLiteSessionStore
  }

  /// Where the database is: the file's path, or the PostgreSQL URL.
  var location: String {
    get throws {
      guard let database else { return path }
      return try PostgresServer.shared.url(database)
    }
  }

  /// Another store on the same database, as another process would open it.
  func reopen(limits: StoreLimits = StoreLimits()) throws -> any SessionStore {
    switch backend {
    case .sqlite: try SQLiteSessionStore(path: path, limits: limits)
    case .postgresql: try PostgresSessionStore(url: try location, limits: limits)
    }
  }

  /// The first column of each row of `sql`, as text, read on a fresh connection: what a
  /// restarted process would find.
  func column(_ sql: String) throws -> [String] {
    switch backend {
    case .sqlite:
      let fresh = try Database(path: path, options: Database.Options(readOnly: true))
      return try fresh.query(sql) { $0.string(0) }
    case .postgresql:
      let fresh = try PostgresConnection(url: try location)
      return try fresh.query(sql) { $0.string(0) }
    }
  }

  /// Runs `body` while another read holds the store's reading connection.
  func holdingReader<T: Sendable>(_ body: () throws -> T) throws -> T {
    switch store {
    case let sqlite as SQLiteSessionStore: try sqlite.withReader { _ in try body() }
    case let postgres as PostgresSessionStore: try postgres.withReader { _ in try body() }
    default: try body()
    }
  }

  /// Deletes the database (and the temporary directory).
  func remove() {
    directory.remove()
    if let database, let server = try? PostgresServer.shared {
      server.dropDatabase(database)
    }
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

extension StoreFixture {
  /// Where the database's write-ahead log is now (PostgreSQL: its current WAL file), to give
  /// `bytesOnDisk(since:)`; nil for SQLite.
  func walPosition() throws -> String? {
    guard backend == .postgresql else { return nil }
    return try PostgresServer.shared.administer {
      try $0.query("SELECT pg_walfile_name(pg_current_wal_lsn())") { $0.string(0) }.first
    }
  }

  /// Every byte the database has on disk: the SQLite file and its WAL, or, after a checkpoint,
  /// this database's files on the PostgreSQL server and the server's WAL files from
  /// `walPosition` on.
  func bytesOnDisk(since wal: String?) throws -> Data {
    var files: [String] = []
    switch backend {
    case .sqlite:
      files = [path, path + "-wal"]
    case .postgresql:
      let server = try PostgresServer.shared
      let oid = try server.administer { connection in
        try connection.execute("CHECKPOINT")
        return try connection.query(
          "SELECT oid FROM pg_database WHERE datname = ?", [.text(database ?? "")]
        ) { $0.string(0) }.first ?? ""
      }
      let base = "\(server.directory)/data/base/\(oid)"
      let walFolder = "\(server.directory)/data/pg_wal"
      for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
        files.append("\(base)/\(name)")
      }
      for name in (try? FileManager.default.contentsOfDirectory(atPath: walFolder)) ?? []
      where name.count == 24 && name >= (wal ?? "") {
        files.append("\(walFolder)/\(name)")
      }
    }
    return files.reduce(into: Data()) { bytes, file in
      bytes += FileManager.default.contents(atPath: file) ?? Data()
    }
  }
}
