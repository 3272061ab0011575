/// One result row, read by column index from 0; what each store's row mapping reads from.
public protocol SQLRow {
  /// The column as a 64-bit integer (0 when NULL).
  func int64(_ column: Int32) -> Int64
  /// The column as a double (0 when NULL).
  func double(_ column: Int32) -> Double
  /// The column as text ("" when NULL).
  func string(_ column: Int32) -> String
  /// The column as bytes (empty when NULL).
  func blob(_ column: Int32) -> [UInt8]
  /// True when the column holds NULL.
  func isNull(_ column: Int32) -> Bool
}

extension SQLRow {
  /// The column as text, or nil when NULL.
  func optionalString(_ column: Int32) -> String? {
    isNull(column) ? nil : string(column)
  }
}
