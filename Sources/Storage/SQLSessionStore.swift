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
  /// Runs `body` with the connection that reads, holding its lock.
  func withReader<T: Sendable>(_ body: (Connection) throws -> T) throws -> T
  /// Runs `body` with the reading connection when no other read holds it; nil when one does.
  func withReaderIfAvailable<T: Sendable>(_ body: (Connection) throws -> T) throws -> T?
}
