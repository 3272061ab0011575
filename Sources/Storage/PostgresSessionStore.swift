import Dispatch
import Synchronization

/// The `SessionStore` on PostgreSQL, shared by any number of Playfield processes: one writing
/// and one reading connection, and one for lease renewals alone (with a deadline,
/// `leaseStatementTimeoutMs`, so that neither a flush on the writing connection nor a slow
/// statement holds a renewal up past it), each coming back by itself after the server or the
/// network goes away (`PostgresLink`).
///
/// What one process may write of a session is decided by the session's lease (see
/// `acquireLease`), checked in the same transaction as the write, so two processes never both
/// write one session. Safe to use from any thread.
public final class PostgresSessionStore: SQLSessionStore {
  /// The bounds this store enforces.
  public let limits: StoreLimits
  /// The URL connected to, with any password replaced by `***`.
  public let location: String
  private let url: String
  private let writer: Mutex<PostgresLink>
  private let reader: Mutex<PostgresLink>
  private let leaseLink: Mutex<PostgresLink>

  /// Milliseconds a renewal may take, waiting for row locks included (a flush holds its
  /// sessions' rows until it commits), before the server cancels it and it counts as failed:
  /// well within the renewal period (`LeaseKeeper`: a third of a 6-second lease), so a renewal
  /// that fails is retried (every 0.5 s) before the lease's margin.
  public static let leaseStatementTimeoutMs = 1500
  /// Each link's problem after its last use (`connectionProblem`).
  private let problems = Mutex<(writer: String?, reader: String?)>((nil, nil))

  /// Connects to `url` (`postgresql://USER@HOST/DB`) and applies `Schema.migrations`, which
  /// one process at a time does (an advisory lock). A wrong or unreachable URL throws a
  /// `PostgresError` of kind `.connection` whose message is one line:
  /// `cannot connect to PostgreSQL at URL: <libpq's reason>`.
  ///
  /// `now` is a steady clock in seconds, used only to pace reconnecting.
  public init(
    url: String, limits: StoreLimits = StoreLimits(), connectTimeoutSeconds: Int = 5,
    now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
  ) throws {
    let writer = try PostgresLink(url: url, connectTimeoutSeconds: connectTimeoutSeconds, now: now)
    _ = try writer.use { try $0.migrate(Schema.migrations) }
    let reader = try PostgresLink(url: url, connectTimeoutSeconds: connectTimeoutSeconds, now: now)
    let leaseLink = try PostgresLink(
      url: url, connectTimeoutSeconds: connectTimeoutSeconds,
      statementTimeoutMs: Self.leaseStatementTimeoutMs, now: now)
    self.limits = limits
    self.location = PostgresURL.redacted(url)
    self.url = url
    self.writer = Mutex(writer)
    self.reader = Mutex(reader)
    self.leaseLink = Mutex(leaseLink)
  }

  /// Why the store cannot reach the server now, or nil while it can (as far as it knows: a
  /// break is noticed by the next statement). Read without waiting for a connection, which a
  /// stalled server may hold for as long as it stalls (`/healthz` asks on an event loop).
  public var connectionProblem: String? {
    problems.withLock { $0.writer ?? $0.reader }
  }

  /// PostgreSQL keeps its own files: there is no file of ours to lose.
  public var fileCheck: DatabaseFileCheck { .same }

  /// Hears of every list stored by any process at once (LISTEN/NOTIFY), on a connection of
  /// the watch's own.
  public func watchShoppingLists(_ changed: @escaping @Sendable (String) -> Void) -> StoreWatch? {
    StoreWatch(url: url, channel: StoreWatch.shoppingLists, heard: changed)
  }

  /// Nothing to do: the server makes its own checkpoints.
  public func checkpoint() throws {}

  func withWriter<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
    try writer.withLock { link in
      defer { noted(link.problem, writer: true) }
      return try link.use(body)
    }
  }

  func withLeaseConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
    try leaseLink.withLock { link in try link.use(body) }
  }

  func withReader<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
    try reader.withLock { link in
      defer { noted(link.problem, writer: false) }
      return try link.use(body)
    }
  }

  func withReaderIfAvailable<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T? {
    try reader.withLockIfAvailable { link in
      defer { noted(link.problem, writer: false) }
      return try link.use(body)
    }
  }

  private func noted(_ problem: PostgresError?, writer: Bool) {
    let message = problem?.message
    problems.withLock { if writer { $0.writer = message } else { $0.reader = message } }
  }
}
