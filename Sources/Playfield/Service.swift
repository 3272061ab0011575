import Dispatch
import HTTP
import Logging
import Server
import Storage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs Playfield until SIGINT or SIGTERM: binds, announces the address, and shuts down
/// gracefully.
public enum Service {
  /// Where to listen, and how many event loops (the limits are the environment's).
  public struct Options: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Event-loop threads; nil: one per core.
    public var eventLoops: Int?
    /// Counts every loopback address as one client (`--loopback-as-one`).
    public var loopbackAsOne = false
    /// Reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`).
    public var trustedProxies: [String] = []

    /// Whether `text` is an IP address, as `--trusted-proxy` needs.
    public static func isAddress(_ text: String) -> Bool {
      AddressGrouping.isAddress(text)
    }

    public init() {}
  }

  /// Serves until a signal arrives. Prints `Playfield listening on http://HOST:PORT` once ready.
  public static func run(environment: Environment, options: Options) throws {
    let logger = environment.logger
    var environment = environment
    if !Options.isAddress(options.host) { environment.allowedHosts.append(options.host) }
    if HostPolicy.isWildcard(options.host) {
      // NB: on every address, the machine's own names are how the others on the network reach
      // it (`make run HOST=0.0.0.0`, then http://NAME:8080): they must work.
      environment.allowedHosts += MachineNames.current()
    }
    let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
    environment.serving = "http://\(shownHost):\(options.port)"
    let application = try Application(environment: environment)
    var configuration = HTTPServer.Configuration()
    configuration.host = options.host
    configuration.port = options.port
    if let eventLoops = options.eventLoops { configuration.eventLoops = eventLoops }
    let limits = environment.limits
    configuration.maxConnections = limits[.maxConnections]
    configuration.maxConnectionsPerAddress = limits[.connectionsPerAddress]
    configuration.maxConnectionsPerFamily = limits[.connectionsPerFamily]
    configuration.maxQueuedBytesPerAddress = limits[.queuedBytesPerAddress]
    configuration.readBudget = ReadBudget(
      bytes: limits[.readBytesPerTurn], messages: limits[.readMessagesPerTurn])
    configuration.addressGrouping = AddressGrouping(
      loopbackAsOne: options.loopbackAsOne, trustedProxies: options.trustedProxies)
    configuration.http.headerTimeout = .seconds(limits[.headerTimeout])
    configuration.http.bodyTimeout = .seconds(limits[.bodyTimeout])
    configuration.http.idleTimeout = .seconds(limits[.idleTimeout])
    let server = try HTTPServer(configuration: configuration, handler: application, logger: logger)
    application.meters.readServer {
      Meters.ServerFigures(
        connections: server.connectionCount, queuedBytes: server.queuedBytes,
        requestsWaitingForReaders: server.requestsWaitingForReaders)
    }

    let stop = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }

    if options.port == 0, let store = application.journal?.store as? SQLiteSessionStore {
      store.describeHolder("http://\(shownHost):\(server.port)")
    }
    print("Playfield listening on http://\(shownHost):\(server.port)")
    fflush(nil)
    logger.info("serving \(environment.publicDirectory) and \(environment.templatesDirectory)")
    logger.info(
      "sessions answer the Host names \(application.hosts.names.sorted().joined(separator: ", ")) and IP addresses; add others with --allow-host NAME"
    )

    stop.wait()
    logger.info("shutting down")
    server.stop()
    application.shutdown()
    logger.info("stopped")
    _ = sources
  }
}
