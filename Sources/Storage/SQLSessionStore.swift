/// A `SessionStore` on SQL: the two stores differ only in how they reach their connections
/// (`SQLiteSessionStore` a file, `PostgresSessionStore` a server), so everything the
/// `SessionStore` protocol promises is written once, in extensions of this protocol, in SQL
/// both dialects accept.
protocol SQLSessionStore: SessionStore {
  associatedtype Connection: SQLConnection

  /// The bounds the store enforces.
  var limits: StoreLimits { get }
  /// Runs `body` with the connection that writes, holding its lock.
  func withWriter<T: Sendable>(_ body: (Connection) throws -> T) throws -> T
  /// Runs `body` with the connection that renews leases, holding its lock (the writing one,
  /// unless the store has one of its own: `PostgresSessionStore`).
  func withLeaseConnection<T: Sendable>(_ body: (Connection) throws -> T) throws -> T
  /// Runs `body` with the connection that reads, holding its lock.
  func withReader<T: Sendable>(_ body: (Connection) throws -> T) throws -> T
  /// Runs `body` with the reading connection when no other read holds it; nil when one does.
  func withReaderIfAvailable<T: Sendable>(_ body: (Connection) throws -> T) throws -> T?
}

extension SQLSessionStore {
  /// The writing connection: a store of one process has no other writer to wait for.
  func withLeaseConnection<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    try withWriter(body)
  }
}
