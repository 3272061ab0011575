import ArgumentParser
import Foundation
import Logging
import Playfield

/// `playfield [serve]`: the command line of the public contract.
struct PlayfieldCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "playfield",
    abstract: "A gallery of live simulations and fractal explorers, served locally.",
    subcommands: [Serve.self],
    defaultSubcommand: Serve.self)
}

struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve Playfield over HTTP until interrupted.")

  /// The package's own folder, where `Public/` and `Templates/` live by default.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Option(help: "Address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "Port to listen on; 0 picks a free port.")
  var port = 8080

  @Option(help: "SQLite database file.")
  var database = "playfield.db"

  @Option(help: "Folder of static files served at /. (default: the package's Public/)")
  var `public`: String?

  @Option(help: "Folder of page templates. (default: the package's Templates/)")
  var templates: String?

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel = "info"

  @Option(
    name: .customLong("allow-origin"),
    help:
      "Another origin allowed to open session WebSockets (repeatable), e.g. https://example.com.")
  var allowedOrigins: [String] = []

  @Option(
    name: .customLong("allow-host"),
    help:
      "Another Host name to answer (repeatable), e.g. playfield.example; besides localhost, IP literals and --host, others get 421 on the routes that hold state."
  )
  var allowedHosts: [String] = []

  @Option(help: "Most live sessions; when full, creating one gets 503 with Retry-After.")
  var maxSessions = 256

  @Option(
    help:
      "Live sessions one client (an address, or a browser's cookie family) may hold; past it, 429."
  )
  var sessionsPerClient = 16

  @Option(help: "Inputs one session may log; past it, the session takes no more input.")
  var inputsPerSession = 200_000

  @Option(help: "Saved mazes one client (an address, or a browser's cookie family) may own.")
  var mazesPerClient = 20

  @Option(help: "Tile renders one client may have running or waiting; past it, 429.")
  var tileRendersPerClient = 32

  @Option(help: "Tile renders waiting across all clients (two run at once); past it, 503.")
  var tileQueue = 256

  @Option(help: "Seconds a tile render may wait for its turn before 503.")
  var tileWait: Double = 10

  @Option(help: "Uncached sphere packings one client may have computing or waiting; past it, 429.")
  var sphereComputationsPerClient = 4

  @Option(
    help:
      "Uncached sphere packings waiting across all clients (one computes at a time); past it, 503."
  )
  var sphereQueue = 64

  @Option(help: "Seconds an uncached sphere packing may wait for its turn before 503.")
  var sphereWait: Double = 30
  @Option(
    help:
      "Browser client families (cookies) one address may hold; an address's clients together get this many times one client's quotas."
  )
  var familiesPerAddress = 4

  @Option(help: "Inputs a replay reads from the log at a time (and so holds at most).")
  var replayChunkInputs = 1024

  @Option(help: "Seconds without clients before a running session pauses.")
  var idlePause: Double = 30

  @Option(help: "Seconds without updates before a session is deleted.")
  var sessionMaxAge: Double = 7 * 24 * 3600

  @Option(help: "Most open connections; beyond it new ones get 503.")
  var maxConnections = 4096

  @Option(help: "Seconds a client has to send a request head. (default: 10)")
  var headerTimeout: Double?

  @Option(help: "Seconds a client has to send a request body. (default: 20)")
  var bodyTimeout: Double?

  @Option(help: "Seconds a kept-alive connection may sit idle. (default: 15)")
  var idleTimeout: Double?

  @Option(help: "Event-loop threads. (default: one per core)")
  var eventLoops: Int?

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port must be from 0 to 65535, not \(port)")
    }
    guard (1...100_000).contains(maxSessions) else {
      throw ValidationError("--max-sessions must be from 1 to 100000, not \(maxSessions)")
    }
    for (flag, value) in [
      ("--sessions-per-client", sessionsPerClient), ("--inputs-per-session", inputsPerSession),
      ("--mazes-per-client", mazesPerClient), ("--tile-renders-per-client", tileRendersPerClient),
      ("--tile-queue", tileQueue),
      ("--sphere-computations-per-client", sphereComputationsPerClient),
      ("--sphere-queue", sphereQueue),
      ("--tile-queue", tileQueue), ("--families-per-address", familiesPerAddress),
      ("--replay-chunk-inputs", replayChunkInputs),
    ] where !(1...10_000_000).contains(value) {
      throw ValidationError("\(flag) must be from 1 to 10000000, not \(value)")
    }
    guard tileWait > 0, tileWait <= 3600 else {
      throw ValidationError("--tile-wait must be from 0 to 3600 seconds")
    }
    guard sphereWait > 0, sphereWait <= 3600 else {
      throw ValidationError("--sphere-wait must be from 0 to 3600 seconds")
    }
    guard (1...1_000_000).contains(maxConnections) else {
      throw ValidationError("--max-connections must be from 1 to 1000000, not \(maxConnections)")
    }
    guard idlePause > 0, idlePause.isFinite else {
      throw ValidationError("--idle-pause must be a positive number of seconds")
    }
    guard sessionMaxAge > 0, sessionMaxAge.isFinite else {
      throw ValidationError("--session-max-age must be a positive number of seconds")
    }
    for origin in allowedOrigins
    where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
      throw ValidationError("--allow-origin must look like https://example.com, not \(origin)")
    }
    for name in allowedHosts
    where name.isEmpty
      || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
    {
      throw ValidationError(
        "--allow-host must be a host name without port, such as playfield.example, not \(name)")
    }
    for (flag, seconds) in [
      ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout),
      ("--idle-timeout", idleTimeout),
    ] {
      if let seconds, !(seconds > 0 && seconds <= 3600) {
        throw ValidationError("\(flag) must be from 0 to 3600 seconds")
      }
    }
    if let count = eventLoops, !(1...256).contains(count) {
      throw ValidationError("--event-loops must be from 1 to 256")
    }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level must be one of trace, debug, info, notice, warning, error, critical")
    }
    for (flag, folder) in [("--public", publicFolder), ("--templates", templatesFolder)] {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw ValidationError("\(flag): \(folder) is not a folder")
      }
    }
  }

  var publicFolder: String { `public` ?? Self.packageRoot + "/Public" }
  var templatesFolder: String { templates ?? Self.packageRoot + "/Templates" }

  func run() throws {
    MallocTuning.apply()
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "playfield")
    var environment = Environment(
      publicDirectory: publicFolder, templatesDirectory: templatesFolder, databasePath: database,
      logger: logger)
    environment.allowedOrigins = allowedOrigins
    environment.allowedHosts = allowedHosts
    environment.sessionsPerClient = sessionsPerClient
    environment.inputsPerSession = inputsPerSession
    environment.mazesPerClient = mazesPerClient
    environment.tileRendersPerClient = tileRendersPerClient
    environment.tileQueueLength = tileQueue
    environment.tileWaitSeconds = tileWait
    environment.sphereComputationsPerClient = sphereComputationsPerClient
    environment.sphereQueueLength = sphereQueue
    environment.sphereWaitSeconds = sphereWait
    environment.familiesPerAddress = familiesPerAddress
    environment.replayChunkInputs = replayChunkInputs
    environment.maxSessions = maxSessions
    environment.idlePause = idlePause
    environment.sessionMaxAge = sessionMaxAge
    var options = Service.Options()
    options.host = host
    options.port = port
    options.server.maxConnections = maxConnections
    if let headerTimeout { options.server.http.headerTimeout = .seconds(headerTimeout) }
    if let bodyTimeout { options.server.http.bodyTimeout = .seconds(bodyTimeout) }
    if let idleTimeout { options.server.http.idleTimeout = .seconds(idleTimeout) }
    if let eventLoops { options.server.eventLoops = eventLoops }
    do {
      try Service.run(environment: environment, options: options)
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
  }
}
