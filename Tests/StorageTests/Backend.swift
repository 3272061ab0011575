import Testing

/// The databases the store's tests run against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgresql

  var testDescription: String {
    switch self {
    case .sqlite: "SQLite"
    case .postgresql: "PostgreSQL"
    }
  }
}
