import Synchronization

/// What `/metrics` reads that the app does not hold itself: the cold-resource services the
/// demos make (tiles, sphere packings), and the server's count of open connections (set once
/// the server is made).
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
  private let connectionCount = Mutex<(@Sendable () -> Int)?>(nil)
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

  /// Tells where the count of open connections comes from.
  func countConnections(_ count: @escaping @Sendable () -> Int) {
    connectionCount.withLock { $0 = count }
  }

  /// Open connections now (nil before the server is made).
  var connections: Int? { connectionCount.withLock { $0 }?() }
}
