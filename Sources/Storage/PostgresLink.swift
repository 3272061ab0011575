import Dispatch

/// A PostgreSQL connection that comes back after a break: each use finds the connection broken
/// (libpq's `PQstatus`) connects again, at most as often as its backoff allows (0.25 s after the
/// first failure, doubling to 1 s: a server back is found within a second, which bounds how long
/// sessions run on leases the store has not yet confirmed), and meanwhile fails at once with the
/// last reason.
///
/// Not thread-safe: the store keeps each link in a `Mutex`.
final class PostgresLink: @unchecked Sendable {
  // NB: @unchecked because it is only ever used under its store's Mutex, which is its lock;
  // Sendable lets a use pass the caller's closure in without merging their regions.
  private let url: String
  private let connectTimeoutSeconds: Int
  private let now: @Sendable () -> Double
  private var connection: PostgresConnection
  private var failures = 0
  private var nextAttempt = -Double.infinity
  private var lastError: PostgresError?
  private static let backoff = Backoff(base: 0.125, maximum: 1)

  /// Connects to `url` now; throws when that fails, as a store must not open on a bad URL.
  /// `statementTimeoutMs`: a deadline on each statement (`PostgresConnection.init`).
  init(
    url: String, connectTimeoutSeconds: Int, statementTimeoutMs: Int? = nil,
    now: @escaping @Sendable () -> Double
  ) throws(PostgresError) {
    self.url = url
    self.connectTimeoutSeconds = connectTimeoutSeconds
    self.now = now
    self.connection = try PostgresConnection(
      url: url, connectTimeoutSeconds: connectTimeoutSeconds,
      statementTimeoutMs: statementTimeoutMs)
  }

  /// The last connection failure, while the link is down; nil while it works.
  var problem: PostgresError? {
    connection.isConnected ? nil : lastError
  }

  /// Runs `body` on the connection, connecting again first if it broke; a failure that broke
  /// the connection starts the backoff before the next attempt to connect.
  ///
  /// A connection that broke while idle (the server restarted since the last use) is found
  /// broken only by the statement that uses it: that statement is tried once more on a new
  /// connection at once. Every use is one statement or one transaction, which either did
  /// nothing on a broken connection or is safe to repeat (the writer's batches store once), or
  /// whose caller allows for its first try having been stored (a compare-and-set refused by its
  /// own first write: `ShoppingHub.write`).
  func use<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
    let wasWorking = connection.isConnected && failures == 0
    let connection = try connected()
    do {
      return try body(connection)
    } catch {
      guard !connection.isConnected else { throw error }
      if wasWorking, (try? connection.reconnect()) != nil {
        do {
          return try body(connection)
        } catch  where connection.isConnected {
          throw error
        } catch {
          lastError = error as? PostgresError
          failed()
          throw error
        }
      }
      lastError = error as? PostgresError
      failed()
      throw error
    }
  }

  /// The connection, connected again first if it broke (and the backoff allows).
  private func connected() throws(PostgresError) -> PostgresConnection {
    if !connection.isConnected {
      try reconnect()
    }
    return connection
  }

  private func reconnect() throws(PostgresError) {
    let time = now()
    guard time >= nextAttempt else {
      throw PostgresError(
        sqlState: "08006", serverMessage: lastError?.serverMessage ?? "connection lost",
        context: "PostgreSQL at \(PostgresURL.redacted(url)) is unreachable "
          + "(next attempt in \(Int(((nextAttempt - time) * 1000).rounded(.up))) ms)")
    }
    do {
      try connection.reconnect()
      failures = 0
      nextAttempt = -.infinity
      lastError = nil
    } catch {
      lastError = error
      failed()
      throw error
    }
  }

  private func failed() {
    failures += 1
    nextAttempt = now() + Self.backoff.delay(afterFailures: failures)
  }
}
