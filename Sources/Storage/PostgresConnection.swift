import CLibPQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One PostgreSQL connection through libpq, with a cache of prepared statements.
///
/// Not thread-safe: use each connection from one thread at a time (the store keeps each one in
/// a `Mutex`). Every parameter is bound in binary with its type (`PostgresParameters`); SQL
/// uses the common `?` / `?N` parameters, turned into `$N` once per statement.
public final class PostgresConnection {
  /// The URL this connection was opened with.
  public let url: String
  private let connection: OpaquePointer
  /// Prepared statements by parameter types and SQL.
  private var statements: [String: String] = [:]
  private var statementsMade = 0
  private static let statementCacheLimit = 128
  /// Statements sent in a pipeline before reading their answers: few enough that the answers
  /// (about 20 bytes each) never fill a socket buffer, which in blocking mode could deadlock.
  static let pipelineChunk = 256

  /// Connects to `url` (`postgresql://USER@HOST:PORT/DB?...`, parsed by libpq); on failure
  /// throws `cannot connect to PostgreSQL at URL: <libpq's reason>`.
  ///
  /// Defaults a URL may override: a 5-second connect timeout, TCP keepalives and a 15-second
  /// TCP user timeout (so a vanished server is noticed rather than waited for), UTF-8, and a
  /// transaction left idle for 2 seconds ended by the server: a process paused (SIGSTOP) or
  /// stuck in the middle of a write would otherwise keep its row locks, and every other
  /// process's adoption of its sessions would wait on them for as long as it stays paused.
  /// `statementTimeoutMs`, when given, is a deadline on every statement and on every wait for a
  /// lock (the server cancels past it: SQLSTATE 57014 or 55P03).
  public init(url: String, connectTimeoutSeconds: Int = 5, statementTimeoutMs: Int? = nil)
    throws(PostgresError)
  {
    var options = "-c idle_in_transaction_session_timeout=2000"
    if let statementTimeoutMs {
      options += " -c statement_timeout=\(statementTimeoutMs) -c lock_timeout=\(statementTimeoutMs)"
    }
    // NB: with expand_dbname, the URL in `dbname` overrides the keywords before it.
    let settings = [
      ("connect_timeout", String(connectTimeoutSeconds)), ("keepalives_idle", "10"),
      ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "15000"),
      ("application_name", "playfield"), ("client_encoding", "UTF8"),
      ("options", options), ("dbname", url),
    ]
    let handle = withCStrings(settings.map(\.0)) { keywords in
      withCStrings(settings.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
    }
    guard let handle else {
      throw .cannotConnect(url: url, message: "libpq could not allocate a connection")
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(handle))
      PQfinish(handle)
      throw .cannotConnect(url: url, message: message)
    }
    self.url = url
    self.connection = handle
  }

  deinit {
    PQfinish(connection)
  }

  /// True while the connection works; false once libpq has seen it break.
  public var isConnected: Bool {
    PQstatus(connection) == CONNECTION_OK
  }

  /// Connects again with the same parameters (prepared statements are made again as needed).
  public func reconnect() throws(PostgresError) {
    statements.removeAll()
    PQreset(connection)
    guard isConnected else {
      throw .cannotConnect(url: url, message: String(cString: PQerrorMessage(connection)))
    }
  }

  /// Runs one statement and returns how many rows it inserted, updated or deleted.
  @discardableResult
  public func execute(_ sql: String, _ values: [SQLValue] = []) throws(PostgresError) -> Int {
    try run(sql, values).changedRows
  }

  /// Runs one query and maps each result row with `row`.
  public func query<T>(
    _ sql: String, _ values: [SQLValue] = [], row: (PostgresRow) -> T
  ) throws(PostgresError) -> [T] {
    let result = try run(sql, values)
    return (0..<result.count).map { row(PostgresRow(result: result.handle, row: $0)) }
  }

  /// Runs several `;`-separated statements without parameters (a migration).
  public func executeScript(_ sql: String) throws(PostgresError) {
    _ = try check(PQexec(connection, sql), connection)
  }

  /// The payloads of the notifications of the channels this connection LISTENs to, waiting at
  /// most `milliseconds` for the first; throws when the connection broke.
  func notifications(waitingAtMost milliseconds: Int32) throws(PostgresError) -> [String] {
    var heard = takeNotifications()
    guard heard.isEmpty else { return heard }
    var socket = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
    guard socket.fd >= 0 else {
      throw PostgresError(sqlState: "08006", serverMessage: "the connection has no socket")
    }
    if poll(&socket, 1, milliseconds) > 0 {
      try check(succeeded: PQconsumeInput(connection), connection)
      heard = takeNotifications()
    }
    return heard
  }

  private func takeNotifications() -> [String] {
    var heard: [String] = []
    while let notification = PQnotifies(connection) {
      heard.append(String(cString: notification.pointee.extra))
      PQfreemem(notification)
    }
    return heard
  }

  /// Runs `body` in one transaction (READ COMMITTED), rolled back if anything throws.
  @discardableResult
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try executeScript("BEGIN")
    do {
      let result = try body()
      let commit = try check(PQexec(connection, "COMMIT"), connection)
      // NB: COMMIT of a transaction that failed answers ROLLBACK rather than an error.
      guard String(cString: PQcmdStatus(commit.handle)) == "COMMIT" else {
        throw PostgresError(sqlState: "40000", serverMessage: "the transaction was rolled back")
      }
      return result
    } catch {
      let state = PQtransactionStatus(connection)
      if state == PQTRANS_INTRANS || state == PQTRANS_INERROR {
        _ = try? executeScript("ROLLBACK")
      }
      throw error
    }
  }

  /// Runs statements that return no rows, sent `pipelineChunk` at a time without waiting for
  /// each answer; stops at the first error, which it throws (in a transaction, the caller's
  /// rollback then undoes the rest).
  func executeBatch(_ batch: [BatchStatement]) throws(PostgresError) {
    guard !batch.isEmpty else { return }
    var statements: [(name: String, parameters: PostgresParameters)] = []
    for statement in batch {
      let parameters = PostgresParameters(statement.values)
      statements.append((try prepared(statement.sql, parameters), parameters))
    }
    try check(succeeded: PQenterPipelineMode(connection), connection)
    defer { PQexitPipelineMode(connection) }
    var start = 0
    while start < statements.count {
      let chunk = statements[start..<min(start + Self.pipelineChunk, statements.count)]
      for (name, parameters) in chunk {
        // NB: a failed send means a broken connection; its answers will never come.
        try parameters.withArguments { count, values, lengths, formats throws(PostgresError) in
          try check(
            succeeded: PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0),
            connection)
        }
      }
      try check(succeeded: PQpipelineSync(connection), connection)
      var failure: PostgresError?
      for _ in chunk {
        let result = PQgetResult(connection)
        if let result, PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
          PQclear(result)
        } else {
          do {
            _ = try check(result, connection)
          } catch {
            failure = failure ?? error
            if result == nil { throw error }
          }
        }
        while let extra = PQgetResult(connection) { PQclear(extra) }
      }
      _ = try check(PQgetResult(connection), connection)
      if let failure { throw failure }
      start += chunk.count
    }
  }

  private func run(_ sql: String, _ values: [SQLValue]) throws(PostgresError) -> PostgresResult {
    let parameters = PostgresParameters(values)
    let name = try prepared(sql, parameters)
    return try parameters.withArguments { count, values, lengths, formats throws(PostgresError) in
      try check(PQexecPrepared(connection, name, count, values, lengths, formats, 0), connection)
    }
  }

  /// The name of the statement prepared for `sql` with these parameter types, preparing it
  /// the first time.
  private func prepared(_ sql: String, _ parameters: PostgresParameters) throws(PostgresError)
    -> String
  {
    let key = parameters.signature + "\n" + sql
    if let name = statements[key] { return name }
    let (translated, expected) = PostgresPlaceholders.translate(sql)
    guard expected == parameters.types.count else {
      throw PostgresError(
        sqlState: "42P02",
        serverMessage: "statement takes \(expected) parameters, \(parameters.types.count) given")
    }
    if statements.count >= Self.statementCacheLimit {
      _ = try check(PQexec(connection, "DEALLOCATE ALL"), connection)
      statements.removeAll()
    }
    statementsMade += 1
    let name = "playfield_\(statementsMade)"
    _ = try parameters.types.withUnsafeBufferPointer { types throws(PostgresError) in
      try check(
        PQprepare(connection, name, translated, Int32(types.count), types.baseAddress), connection)
    }
    statements[key] = name
    return name
  }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<R>(
  _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
) -> R {
  let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
  defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
  return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
