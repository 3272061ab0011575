/// One connection to a database, SQLite or PostgreSQL: what the shared store logic needs.
///
/// SQL given to it is in the common form: parameters as `?` or `?N` (numbered from 1).
/// A connection is used from one thread at a time.
protocol SQLConnection: AnyObject {
  associatedtype Row: SQLRow

  /// Which SQL the connection speaks where the two differ.
  var dialect: SQLDialect { get }

  /// Runs one statement and returns how many rows it inserted, updated or deleted.
  @discardableResult
  func execute(_ sql: String, _ values: [SQLValue]) throws -> Int

  /// Runs one query and maps each result row with `row`.
  func query<T>(_ sql: String, _ values: [SQLValue], row: (Row) -> T) throws -> [T]

  /// Runs statements that return no rows, in order, stopping at the first error; PostgreSQL
  /// sends them without waiting for each answer (pipelining), SQLite just runs them.
  func executeBatch(_ statements: [BatchStatement]) throws

  /// Runs several `;`-separated statements without parameters (a migration).
  func executeScript(_ sql: String) throws

  /// Runs `body` in one write transaction, rolled back if anything throws.
  func transaction<T>(_ body: () throws -> T) throws -> T
}

/// One statement of `SQLConnection.executeBatch`.
struct BatchStatement {
  var sql: String
  var values: [SQLValue]
}

extension SQLConnection {
  /// Makes this transaction wait for any other that takes the same `lock` (PostgreSQL: an
  /// advisory lock until commit; SQLite: nothing, its write transactions are serial anyway).
  func serialize(_ lock: TableLock) throws {
    guard let statement = dialect.serialize(lock) else { return }
    _ = try query(statement.sql, statement.values) { _ in () }
  }

  /// The first column of the first row as an integer (0 when there is no row).
  func count(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
    Int(try query(sql, values) { $0.int64(0) }.first ?? 0)
  }
}

extension SQLConnection {
  /// The database's clock now, in unix seconds (`SQLDialect.clockNow`).
  func clockNow() throws -> Double {
    guard let now = try query(dialect.clockNow, [], row: { $0.double(0) }).first else {
      throw StoreError.invalidValue(field: "now", reason: "the database did not say its time")
    }
    return now
  }
}
