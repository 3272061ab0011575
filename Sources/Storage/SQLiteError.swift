import CSQLite

/// A failed SQLite call: the extended result code, what kind of fault it is, and SQLite's message.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The faults the app tells apart; several result codes share one kind.
  public enum Kind: String, Sendable {
    case busy
    case readOnly
    case full
    case corrupt
    case notADatabase
    case ioError
    case constraint
    case misuse
    case other
  }

  /// The extended result code, e.g. 1555 (SQLITE_CONSTRAINT_PRIMARYKEY).
  public let code: Int32
  /// The kind of fault, from the primary result code.
  public let kind: Kind
  /// `sqlite3_errmsg` (or `sqlite3_errstr` when no connection is at hand).
  public let sqliteMessage: String

  /// Makes an error from a result code and its message.
  public init(code: Int32, sqliteMessage: String) {
    self.code = code
    self.kind = Self.kind(of: code)
    self.sqliteMessage = sqliteMessage
  }

  /// True when the same write may succeed later (the fault is outside the data).
  public var isTransient: Bool {
    switch kind {
    case .busy, .readOnly, .full, .ioError: true
    case .corrupt, .notADatabase, .constraint, .misuse, .other: false
    }
  }

  /// A sentence for logs and API errors that says plainly what is wrong.
  public var message: String {
    switch code & 0xFF {
    case SQLITE_CANTOPEN: "cannot open the database file: \(sqliteMessage)"
    case SQLITE_LOCKED: "database table is locked: \(sqliteMessage)"
    default:
      switch kind {
      case .busy: "database is locked by another connection (busy): \(sqliteMessage)"
      case .readOnly: "database is read-only: \(sqliteMessage)"
      case .full: "disk is full (or the database reached its size limit): \(sqliteMessage)"
      case .corrupt: "database file is corrupt: \(sqliteMessage)"
      case .notADatabase: "file is not an SQLite database: \(sqliteMessage)"
      case .ioError: "disk I/O error: \(sqliteMessage)"
      case .constraint: "constraint failed: \(sqliteMessage)"
      case .misuse: "SQLite API misuse (a bug in Playfield): \(sqliteMessage)"
      case .other: "SQLite error \(code): \(sqliteMessage)"
      }
    }
  }

  public var description: String { message }

  private static func kind(of code: Int32) -> Kind {
    switch code & 0xFF {
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_READONLY: .readOnly
    case SQLITE_FULL: .full
    case SQLITE_CORRUPT: .corrupt
    case SQLITE_NOTADB: .notADatabase
    case SQLITE_IOERR, SQLITE_CANTOPEN: .ioError
    case SQLITE_CONSTRAINT: .constraint
    case SQLITE_MISUSE: .misuse
    default: .other
    }
  }
}

/// The one checking function: every SQLite result that is not OK becomes a thrown `SQLiteError`.
///
/// `SQLITE_ROW` and `SQLITE_DONE` are handled by the caller of `sqlite3_step` before this.
func check(_ code: Int32, _ connection: OpaquePointer?) throws(SQLiteError) {
  guard code != SQLITE_OK else { return }
  // NB: errmsg describes the connection's most recent failure, which is not always this call
  // (sqlite3_close, for one, does not set it), so fall back to the code's generic text.
  let message: String
  if let connection, sqlite3_extended_errcode(connection) == code {
    message = String(cString: sqlite3_errmsg(connection))
  } else {
    message = String(cString: sqlite3_errstr(code))
  }
  throw SQLiteError(code: code, sqliteMessage: message)
}
