import CSQLite

/// The current result row of a query; valid only inside the row closure that receives it.
public struct Row {
  let handle: OpaquePointer

  /// The column as a 64-bit integer (0 when NULL).
  public func int64(_ column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  /// The column as a double (0 when NULL).
  public func double(_ column: Int32) -> Double {
    sqlite3_column_double(handle, column)
  }

  /// The column as UTF-8 text ("" when NULL).
  public func string(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The column as bytes (empty when NULL).
  public func blob(_ column: Int32) -> [UInt8] {
    guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// True when the column holds NULL.
  public func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }
}
