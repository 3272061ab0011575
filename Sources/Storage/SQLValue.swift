/// A value bound to a statement parameter: one case per SQLite storage class, which PostgreSQL
/// receives as `bigint`, `double precision`, `text`, `bytea` and NULL.
public enum SQLValue: Sendable, Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null
}
