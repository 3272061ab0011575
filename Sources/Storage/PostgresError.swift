import CLibPQ
import Foundation

/// A failed libpq call or PostgreSQL statement: the SQLSTATE, what kind of fault it is, and a
/// one-line message.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The faults the app tells apart; several SQLSTATEs share one kind.
  public enum Kind: String, Sendable {
    /// Cannot connect, or the connection broke (class 08, and the server shutting down).
    case connection
    /// A constraint refused a row (class 23).
    case constraint
    /// A transaction lost to another one (serialization failure, deadlock): try again.
    case conflict
    /// The server takes no writes (a standby, or `default_transaction_read_only`).
    case readOnly
    /// The server is out of disk, memory or connections (class 53).
    case full
    /// A value the server cannot take, such as a NUL byte in text (class 22).
    case invalidData
    /// SQL or parameters the server refuses: a bug in Playfield (class 42 and 26, protocol).
    case misuse
    case other
  }

  /// The five-character SQLSTATE, e.g. "23505"; "08001" when no connection could be made and
  /// "08006" when one broke, which libpq reports without a code.
  public let sqlState: String
  /// The kind of fault, from the SQLSTATE's class.
  public let kind: Kind
  /// The server's (or libpq's) message on one line, with its detail when there is one.
  public let serverMessage: String
  /// A sentence for logs and API errors that says plainly what is wrong.
  public let message: String

  /// Makes an error from a SQLSTATE and a message; `context` replaces the kind's opening words.
  public init(sqlState: String, serverMessage: String, context: String? = nil) {
    let kind = Self.kind(of: sqlState)
    self.sqlState = sqlState
    self.kind = kind
    self.serverMessage = Self.oneLine(serverMessage)
    self.message = "\(context ?? Self.opening(kind, sqlState)): \(self.serverMessage)"
  }

  /// The error for a connection that could not be made to `url` (shown without its password).
  static func cannotConnect(url: String, message: String) -> PostgresError {
    PostgresError(
      sqlState: "08001", serverMessage: message,
      context: "cannot connect to PostgreSQL at \(PostgresURL.redacted(url))")
  }

  /// True when the same work may succeed later (the fault is outside the data).
  public var isTransient: Bool {
    switch kind {
    case .connection, .conflict, .readOnly, .full: true
    case .constraint, .invalidData, .misuse, .other: false
    }
  }

  public var description: String { message }

  private static func opening(_ kind: Kind, _ sqlState: String) -> String {
    switch kind {
    case .connection: "lost the connection to PostgreSQL"
    case .constraint: "constraint failed"
    case .conflict: "PostgreSQL transaction conflict (retry)"
    case .readOnly: "database is read-only"
    case .full: "PostgreSQL is out of disk, memory or connections"
    case .invalidData: "PostgreSQL refused a value"
    case .misuse: "PostgreSQL refused the SQL (a bug in Playfield)"
    case .other: "PostgreSQL error \(sqlState.isEmpty ? "(no code)" : sqlState)"
    }
  }

  private static func kind(of sqlState: String) -> Kind {
    switch sqlState {
    case "25006": return .readOnly
    case "40001", "40P01": return .conflict
    case "57P01", "57P02", "57P03": return .connection
    default: break
    }
    switch sqlState.prefix(2) {
    case "08": return .connection
    case "23": return .constraint
    case "53": return .full
    case "22": return .invalidData
    case "42", "26", "34": return .misuse
    default: return .other
    }
  }

  /// libpq's messages span lines ("...failed: Connection refused\n\tIs the server running...");
  /// logs and API errors want one.
  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }
}

/// The one checking function: a result that is not a success becomes a thrown `PostgresError`
/// carrying its SQLSTATE and message (a missing result, from a broken connection, too).
func check(_ result: OpaquePointer?, _ connection: OpaquePointer) throws(PostgresError)
  -> PostgresResult
{
  guard let result else { throw connectionError(connection) }
  let wrapped = PostgresResult(result)
  switch PQresultStatus(result) {
  case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_SYNC:
    return wrapped
  default:
    let field = { (code: UInt8) -> String? in
      PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
    }
    var state = field(UInt8(ascii: "C")) ?? ""
    var text = field(UInt8(ascii: "M")) ?? String(cString: PQresultErrorMessage(result))
    if text.isEmpty { text = String(cString: PQerrorMessage(connection)) }
    if let detail = field(UInt8(ascii: "D")) { text += " (\(detail))" }
    // NB: libpq reports a broken connection as an error without a SQLSTATE.
    if state.isEmpty, PQstatus(connection) == CONNECTION_BAD { state = "08006" }
    throw PostgresError(sqlState: state, serverMessage: text)
  }
}

/// The same check for libpq calls that return 1 on success (sending, entering a pipeline).
func check(succeeded ok: Int32, _ connection: OpaquePointer) throws(PostgresError) {
  guard ok != 1 else { return }
  throw connectionError(connection)
}

private func connectionError(_ connection: OpaquePointer) -> PostgresError {
  let broken = PQstatus(connection) == CONNECTION_BAD
  return PostgresError(
    sqlState: broken ? "08006" : "", serverMessage: String(cString: PQerrorMessage(connection)))
}
