import CLibPQ

/// A query result that is cleared when released.
final class PostgresResult {
  let handle: OpaquePointer

  init(_ handle: OpaquePointer) {
    self.handle = handle
  }

  deinit {
    PQclear(handle)
  }

  /// The number of rows.
  var count: Int32 { PQntuples(handle) }

  /// The rows a statement changed, from its command tag ("INSERT 0 5" is 5).
  var changedRows: Int {
    Int(String(cString: PQcmdTuples(handle))) ?? 0
  }
}
