/// A value bound to a statement parameter, one case per SQLite storage class.
public enum SQLiteValue: Sendable, Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null
}
