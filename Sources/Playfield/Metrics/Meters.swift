import Synchronization

/// What `/metrics` reads that the app does not hold itself: the cold-resource services the
/// demos make (tiles, sphere packings), and the server's figures: its open connections and
/// what waits for peers that do not read (set once the server is made).
final class Meters: Sendable {
  /// One service's figures: its cache (`ResultCache.Statistics`) and its queue.
  struct ColdFigures: Sendable {
    /// Bodies held, and their bytes.
    var entries: Int
    var bytes: Int
    /// Requests answered from the cache; computations started (a body rendered).
    var hits: Int
    var computed: Int
    /// Jobs running and waiting now.
    var running: Int
    var waiting: Int
  }

  /// A cold-resource service, and the option names of its limits by reason of refusal.
  private struct Service: Sendable {
    var name: String
    var figures: @Sendable () -> ColdFigures
    var refusals: RefusalCounts
    var limitNames: [String: String]
  }

  private let services = Mutex<[Service]>([])
  /// The server's own figures now.
  struct ServerFigures: Sendable {
    /// Open HTTP and WebSocket connections.
    var connections: Int
    /// Bytes queued for peers that do not read.
    var queuedBytes: Int
    /// HTTP requests waiting for their address's peers to read (`--queued-bytes-per-address`).
    var requestsWaitingForReaders: Int
  }

  private let serverFigures = Mutex<(@Sendable () -> ServerFigures)?>(nil)
  /// Refusals by limit, of the whole app.
  let refusals: RefusalCounts

  init(refusals: RefusalCounts = RefusalCounts()) {
    self.refusals = refusals
  }

  /// Adds a service under `name` (`tiles`, `spheres`), whose refusals are counted under its
  /// limits' option names: `perClient` (429), `queue` (503: full, or the wait too long) and
  /// `wait` (more work than one may take).
  func add<Resource>(
    _ service: ColdResourceService<Resource>, name: String, perClient: String, queue: String,
    wait: String
  ) {
    let entry = Service(
      name: name, figures: { service.figures }, refusals: service.refusals,
      limitNames: ["client": perClient, "busy": queue, "costly": wait])
    services.withLock { $0.append(entry) }
  }

  /// Every service's figures now, by name.
  var coldServices: [(name: String, figures: ColdFigures)] {
    services.withLock { $0 }.map { ($0.name, $0.figures()) }
  }

  /// Every refusal so far, by the option name of the limit that refused it: the app's own and
  /// the cold-resource services'.
  var refusalsByLimit: [String: UInt64] {
    var all = refusals.all
    for service in services.withLock({ $0 }) {
      for (reason, count) in service.refusals.all {
        all[service.limitNames[reason] ?? reason, default: 0] += count
      }
    }
    return all
  }

  /// Tells where the server's figures come from.
  func readServer(_ figures: @escaping @Sendable () -> ServerFigures) {
    serverFigures.withLock { $0 = figures }
  }

  /// The server's figures now (nil before the server is made).
  var server: ServerFigures? { serverFigures.withLock { $0 }?() }
}
