import Foundation
import HTTP
import Logging
import Storage

/// Everything the app depends on, in one value that tests replace piece by piece: the injected
/// dependencies (folders, the store, clocks, random bytes, the game loop) and the `limits`.
public struct Environment: Sendable {
  /// Folder served at `/`.
  public var publicDirectory: String
  /// Folder of `.mustache` page templates.
  public var templatesDirectory: String
  /// The database: a SQLite file, or a `postgresql://USER@HOST/DB` URL shared by several
  /// processes; nil keeps sessions in memory only.
  public var databasePath: String?
  /// What this process serves (e.g. `http://127.0.0.1:8080`): names it to a second process on
  /// the same SQLite file, and in the owner of its session leases.
  public var serving = ""
  /// This process's name among several on one shared store (`--shard`): it begins the ids of
  /// the sessions it makes, which nginx routes by. Empty for a lone process.
  public var shard = ""
  /// Extra origins allowed to open session WebSockets, e.g. `https://example.com`.
  public var allowedOrigins: [String] = []
  /// Host names answered besides `localhost` and IP literals (the bound name, `--allow-host`);
  /// any other `Host` gets 421 on the routes that hold state.
  public var allowedHosts: [String] = []
  /// Hosts a recipe import by URL may fetch from whatever their address
  /// (`--recipe-fetch-allow-host`, for tests against a local server); every other host must be
  /// at a public address.
  public var recipeFetchAllowedHosts: [String] = []
  public var logger: Logger
  /// Random bytes for ids, tokens and seeds.
  public var random: @Sendable (Int) -> [UInt8] = { count in
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }
  /// Seconds since 1970.
  public var wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
  /// A clock that never goes back, for time budgets within a tick.
  public var monotonicClock: @Sendable () -> MonotonicTime = { MonotonicTime.now() }
  /// Opens the session store at `databasePath` for the process that `serving` names; tests may
  /// hand over one they made.
  public var openStore: @Sendable (String, StoreLimits, String) throws -> any SessionStore = {
    try SessionStores.open($0, limits: $1, holder: $2)
  }
  /// Whether the game loop runs on its own thread at 60 Hz; with `.manual`, nothing steps
  /// until someone calls `Application.tick()` (tests).
  public var gameLoop: GameLoopMode = .thread
  /// Every limit an operator may set (`Limit`), as the command line set them.
  public var limits = Limits()
  /// Test-only (`--test-hold-admission`, `holdingAdmissions(at:)`): called on a shared store
  /// after a session was parked for an admission (a create, a return from storage) and before
  /// the exact count of the owner's sessions across the processes. Nil in normal use.
  public var betweenClusterChecks: (@Sendable () -> Void)?

  public init(
    publicDirectory: String, templatesDirectory: String, databasePath: String?, logger: Logger
  ) {
    self.publicDirectory = publicDirectory
    self.templatesDirectory = templatesDirectory
    self.databasePath = databasePath
    self.logger = logger
  }
}

extension Environment {
  /// Seconds a held admission waits for its file to go at most (`holdingAdmissions(at:)`).
  public static let admissionHold = 30.0

  /// A `betweenClusterChecks` for tests (`--test-hold-admission PATH`): while the file `path`
  /// exists (the test arms it), an admission there writes `path.held` and waits until the
  /// test removes `path` (at most `admissionHold` seconds), so that another process can admit
  /// a session of the same owner between the two counts, deterministically. Unarmed, it
  /// returns at once.
  public static func holdingAdmissions(at path: String) -> @Sendable () -> Void {
    {
      let files = FileManager.default
      guard files.fileExists(atPath: path),
        files.createFile(atPath: path + ".held", contents: Data("held\n".utf8))
      else { return }
      let deadline = Date(timeIntervalSinceNow: admissionHold)
      while files.fileExists(atPath: path), Date() < deadline {
        Thread.sleep(forTimeInterval: 0.02)
      }
      try? files.removeItem(atPath: path + ".held")
    }
  }
}
