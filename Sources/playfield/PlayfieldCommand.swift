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
    abstract: "Serve Playfield over HTTP until interrupted.", discussion: Limits.helpText)

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

  @Option(
    name: .customLong("trusted-proxy"),
    help:
      "A reverse proxy's address (repeatable), e.g. 127.0.0.1 for nginx in front: requests from it count against the client its X-Forwarded-For names, not the proxy."
  )
  var trustedProxies: [String] = []

  @Flag(
    help:
      "Count every loopback address (127.0.0.0/8 and ::1) as one client; by default each 127.x.y.z is its own (::1 counts as 127.0.0.1)."
  )
  var loopbackAsOne = false

  /// Every limit, as `--NAME VALUE` pairs: read by `Limits.parse`, which knows each one's
  /// name, default and allowed values (`--help` lists them below the options).
  @Argument(parsing: .allUnrecognized, help: .hidden)
  var limitArguments: [String] = []

  @Option(help: "Event-loop threads. (default: one per core)")
  var eventLoops: Int?

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port must be from 0 to 65535, not \(port)")
    }
    do {
      _ = try Limits.parse(limitArguments)
    } catch {
      throw ValidationError(error.description)
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
    for proxy in trustedProxies where !Service.Options.isAddress(proxy) {
      throw ValidationError(
        "--trusted-proxy must be an IP address such as 127.0.0.1 or ::1, not \(proxy)")
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
    // NB: validate() has read them already.
    environment.limits = (try? Limits.parse(limitArguments)) ?? Limits()
    var options = Service.Options()
    options.host = host
    options.port = port
    options.eventLoops = eventLoops
    options.loopbackAsOne = loopbackAsOne
    options.trustedProxies = trustedProxies
    do {
      try Service.run(environment: environment, options: options)
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
  }
}
