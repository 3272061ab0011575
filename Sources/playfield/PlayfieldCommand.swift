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

  @Option(help: .hidden)
  var headerTimeout: Double?

  @Option(help: .hidden)
  var bodyTimeout: Double?

  @Option(help: .hidden)
  var idleTimeout: Double?

  @Option(help: .hidden)
  var maxConnections: Int?

  @Option(help: .hidden)
  var eventLoops: Int?

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port must be from 0 to 65535, not \(port)")
    }
    for (flag, seconds) in [
      ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout),
      ("--idle-timeout", idleTimeout),
    ] {
      if let seconds, !(seconds > 0 && seconds <= 3600) {
        throw ValidationError("\(flag) must be from 0 to 3600 seconds")
      }
    }
    if let count = maxConnections, count < 1 {
      throw ValidationError("--max-connections must be >= 1")
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
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "playfield")
    let environment = Environment(
      publicDirectory: publicFolder, templatesDirectory: templatesFolder, databasePath: database,
      logger: logger)
    var options = Service.Options()
    options.host = host
    options.port = port
    if let headerTimeout { options.server.http.headerTimeout = .seconds(headerTimeout) }
    if let bodyTimeout { options.server.http.bodyTimeout = .seconds(bodyTimeout) }
    if let idleTimeout { options.server.http.idleTimeout = .seconds(idleTimeout) }
    if let maxConnections { options.server.maxConnections = maxConnections }
    if let eventLoops { options.server.eventLoops = eventLoops }
    do {
      try Service.run(environment: environment, options: options)
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
  }
}
