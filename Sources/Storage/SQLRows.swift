/// Many rows in one statement: a multi-row `VALUES` list, or an `IN` list, cut into chunks of
/// 64, 32, 16, ... 1 rows. A batch of any size then takes a few statements of at most seven
/// shapes (each prepared once), rather than one statement and one round trip per row.
enum SQLRows {
  /// The most rows in one statement (64 rows of 4 parameters stay far below both databases'
  /// parameter limits).
  static let largest = 64

  /// `items` cut into chunks whose sizes are powers of two, largest first.
  static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
    var chunks: [ArraySlice<T>] = []
    var start = 0
    var size = largest
    while start < items.count {
      while size > items.count - start { size /= 2 }
      chunks.append(items[start..<(start + size)])
      start += size
    }
    return chunks
  }

  /// `(?, ?), (?, ?)`: `rows` parenthesized groups of `columns` parameters.
  static func placeholders(rows: Int, columns: Int) -> String {
    let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    return Array(repeating: row, count: rows).joined(separator: ", ")
  }

  /// The last of the items with each key, in the order of those last ones: one statement may
  /// not upsert a row twice (PostgreSQL refuses), and the last write of a key wins anyway.
  static func lastOfEach<T, Key: Hashable>(_ items: [T], key: (T) -> Key) -> [T] {
    var seen = Set<Key>()
    return items.reversed().filter { seen.insert(key($0)).inserted }.reversed()
  }
}
