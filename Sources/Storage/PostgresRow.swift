import CLibPQ

/// A row of a query result in PostgreSQL's text format; valid only inside the row closure that
/// receives it.
public struct PostgresRow: SQLRow {
  let result: OpaquePointer
  let row: Int32

  public func int64(_ column: Int32) -> Int64 {
    Int64(string(column)) ?? 0
  }

  public func double(_ column: Int32) -> Double {
    // NB: since PostgreSQL 12 a double's text is the shortest that reads back exactly.
    Double(string(column)) ?? 0
  }

  public func string(_ column: Int32) -> String {
    guard !isNull(column), let value = PQgetvalue(result, row, column) else { return "" }
    let count = Int(PQgetlength(result, row, column))
    return value.withMemoryRebound(to: UInt8.self, capacity: count) {
      String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
  }

  /// The column as bytes: a `bytea` arrives in hex text, `\x` then two digits per byte.
  public func blob(_ column: Int32) -> [UInt8] {
    guard !isNull(column), let value = PQgetvalue(result, row, column) else { return [] }
    let count = Int(PQgetlength(result, row, column))
    return value.withMemoryRebound(to: UInt8.self, capacity: count) { text in
      guard count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
        return [UInt8](UnsafeBufferPointer(start: text, count: count))
      }
      var bytes = [UInt8]()
      bytes.reserveCapacity((count - 2) / 2)
      var index = 2
      while index + 1 < count {
        bytes.append(Self.nibble(text[index]) << 4 | Self.nibble(text[index + 1]))
        index += 2
      }
      return bytes
    }
  }

  public func isNull(_ column: Int32) -> Bool {
    PQgetisnull(result, row, column) == 1
  }

  private static func nibble(_ digit: UInt8) -> UInt8 {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: 0
    }
  }
}
