import Foundation
import HTTP
import Logging
import Storage

/// Everything the app depends on, in one value that tests replace piece by piece.
public struct Environment: Sendable {
  /// Folder served at `/`.
  public var publicDirectory: String
  /// Folder of `.mustache` page templates.
  public var templatesDirectory: String
  /// SQLite database file; nil keeps sessions in memory only.
  public var databasePath: String?
  /// Extra origins allowed to open session WebSockets, e.g. `https://example.com`.
  public var allowedOrigins: [String] = []
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
  /// Opens the session store at `databasePath`; tests may hand over one they made.
  public var openStore: @Sendable (String, StoreLimits) throws -> SQLiteSessionStore = {
    try SQLiteSessionStore(path: $0, limits: $1)
  }
  /// Whether the game loop runs on its own thread at 60 Hz; with `.manual`, nothing steps
  /// until someone calls `Application.tick()` (tests).
  public var gameLoop: GameLoopMode = .thread
  /// Seconds without clients before a running session pauses.
  public var idlePause: Double = 30
  /// Seconds without updates before a session is deleted.
  public var sessionMaxAge: Double = 7 * 24 * 3600
  /// Most live sessions.
  public var maxSessions = 256
  /// Most bytes of rendered tiles kept in memory.
  public var tileCacheBytes = 64 << 20
  /// Most bytes of encoded sphere packings kept in memory (the packings add at most 23 MB).
  public var sphereCacheBytes = 96 << 20
  /// Host names answered besides `localhost` and IP literals (the bound name, `--allow-host`);
  /// any other `Host` gets 421.
  public var allowedHosts: [String] = []
  /// Live sessions one client (an address, or a browser family of it) may hold; past it, 429.
  public var sessionsPerClient = 16
  /// Inputs one session may log; past it the session takes no more input.
  public var inputsPerSession = 200_000
  /// Saved mazes one client (an address, or a browser family of it) may own.
  public var mazesPerClient = 20
  /// Tile renders one client may have running or waiting; past it, 429.
  public var tileRendersPerClient = 32
  /// Tile renders waiting across all clients; past it, 503.
  public var tileQueueLength = 256
  /// Seconds a tile render may wait for its turn before 503.
  public var tileWaitSeconds = 10.0
  /// Uncached sphere packings one client may have computing or waiting; past it, 429.
  public var sphereComputationsPerClient = 4
  /// Uncached sphere packings waiting across all clients; past it, 503.
  public var sphereQueueLength = 64
  /// Seconds an uncached sphere packing may wait for its turn before 503.
  public var sphereWaitSeconds = 30.0
  /// Browser client families (the `playfield_client` cookie) one address may hold; all clients
  /// of an address together get this many times one client's quotas.
  public var familiesPerAddress = 4
  /// Inputs a replay reads from the log at a time (and so holds at most).
  public var replayChunkInputs = 1024

  public init(
    publicDirectory: String, templatesDirectory: String, databasePath: String?, logger: Logger
  ) {
    self.publicDirectory = publicDirectory
    self.templatesDirectory = templatesDirectory
    self.databasePath = databasePath
    self.logger = logger
  }
}
