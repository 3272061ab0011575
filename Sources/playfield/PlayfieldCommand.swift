import ArgumentParser
import Foundation
import Logging
import Playfield

/// `playfield [serve]`: the command line of the public contract.
struct PlayfieldCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "playfield",
    abstract: "A gallery of live simulations and fractal explorers, served locally.",
    subcommands: [Serve.self, Demos.self],
    defaultSubcommand: Serve.self)
}

struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve Playfield over HTTP until interrupted.")

  /// What `serve --help` prints below the options (main.swift): the exit codes, then every
  /// limit. NB: not the `discussion`, which ArgumentParser prints above the usage and options,
  /// where 137 lines of limits buried `--host` and `--port`.
  static var helpEpilogue: String {
    """
    EXIT CODES:
      0   stopped by SIGINT or SIGTERM, after closing its WebSockets and writing the database
      1   cannot start: the address is in use, or the database cannot be opened (another
          server holds the file: the message names it)
      64  a bad option or value (EX_USAGE): one line on standard error names it


    """ + Limits.helpText
  }

  /// The package's own folder, where `Public/` and `Templates/` live by default.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Option(help: "Address to listen on; 0.0.0.0 or :: for every address.")
  var host = "127.0.0.1"

  @Option(help: "Port to listen on; 0 picks a free port.")
  var port = 8080

  @Option(
    name: .customLong("allow-host"),
    help:
      "Another Host name that may open sessions (repeatable), e.g. playfield.example. Answered without it: localhost, IP addresses, --host, and with --host 0.0.0.0 or :: the machine's own names; others get 421 (DNS rebinding)."
  )
  var allowedHosts: [String] = []

  @Option(
    help:
      "Where sessions are kept: a SQLite file (one process), or postgresql://USER@HOST/DB (shared by several processes)."
  )
  var database = "playfield.db"

  @Option(
    help:
      "This process's name among several on one PostgreSQL database behind nginx (1 to 16 of a-z and 0-9); it begins the ids of the sessions it makes."
  )
  var shard: String?

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
    name: .customLong("recipe-fetch-allow-host"),
    help:
      "A host a recipe import by URL may fetch from even at a private or loopback address (repeatable; for tests), e.g. 127.0.0.1. Others must be at public addresses."
  )
  var recipeFetchAllowedHosts: [String] = []

  @Option(
    name: .customLong("trusted-proxy"),
    help:
      "A reverse proxy's address (repeatable), e.g. 127.0.0.1 for nginx in front: requests from it count against the client its X-Forwarded-For names, not the proxy."
  )
  var trustedProxies: [String] = []

  @Option(
    name: .customLong("test-hold-admission"),
    help: .hidden)
  var testHoldAdmission: String?

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
    if let shard {
      guard (1...16).contains(shard.count),
        shard.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
      else {
        throw ValidationError(
          "--shard must be 1 to 16 of a-z and 0-9, such as a or web2, not \(shard)")
      }
      guard database.hasPrefix("postgresql://") || database.hasPrefix("postgres://") else {
        throw ValidationError(
          "--shard needs a database shared by the processes: --database postgresql://USER@HOST/DB")
      }
    }
    // NB: test-only (integration tests of the cluster's quotas), hidden from --help.
    if testHoldAdmission != nil,
      !(database.hasPrefix("postgresql://") || database.hasPrefix("postgres://"))
    {
      throw ValidationError(
        "--test-hold-admission is for tests only, and needs a database shared by the processes: --database postgresql://USER@HOST/DB"
      )
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
    // NB: past a file-size limit (`ulimit -f`) the kernel sends SIGXFSZ, whose default ends the
    // process; ignored, the write fails with EFBIG, which the storage writer reports (and
    // /healthz shows) like any other write error.
    signal(SIGXFSZ, SIG_IGN)
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
    environment.recipeFetchAllowedHosts = recipeFetchAllowedHosts.map { $0.lowercased() }
    environment.shard = shard ?? ""
    environment.betweenClusterChecks = testHoldAdmission.map(Environment.holdingAdmissions(at:))
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
