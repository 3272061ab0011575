/// A book's shopping list as stored, with the IDs of the writes that built it (its lineage).
///
/// Each write gives itself a unique ID and replaces only the list whose lineage it read
/// (compare-and-set on the lineage, so on its newest write, not on the list's content: a list
/// that went A -> B -> A has a new lineage). A writer whose answer was lost can then tell
/// whether the store holds that write, even under another process's writes on top of it: its
/// ID is in the lineage (`contains`).
public struct StoredShoppingList: Sendable, Equatable {
  /// The list as JSON (`[]` for none).
  public var items: String
  /// The IDs of the last writes that built the list, oldest first: at most `maxWrites`; empty
  /// for a list not written since the store kept IDs (migration "shopping-writes").
  public var writes: [String]

  /// Most write IDs a list keeps: a write whose answer was lost is recognised as long as fewer
  /// writes than this came after it.
  public static let maxWrites = 64
  /// Longest write ID (IDs are stored space-separated, so they hold no space).
  public static let maxWriteIDBytes = 32

  public init(items: String, writes: [String] = []) {
    self.items = items
    self.writes = writes
  }

  /// The newest write's ID; nil when there is none.
  public var head: String? { writes.last }

  /// Whether the write `id` is one of those that built the list (among its last `maxWrites`).
  public func contains(write id: String) -> Bool {
    writes.contains(id)
  }

  /// The list after a write `id` of `items` over this one.
  public func written(_ items: String, by id: String) -> StoredShoppingList {
    StoredShoppingList(items: items, writes: Array((writes + [id]).suffix(Self.maxWrites)))
  }

  /// The `shopping_writes` column's text for `writes`.
  static func column(_ writes: [String]) -> String {
    writes.joined(separator: " ")
  }

  /// `writes` from the `shopping_writes` column's text.
  static func writes(column: String) -> [String] {
    column.split(separator: " ").map(String.init)
  }

  /// Whether `id` can be a write's ID: 1 to `maxWriteIDBytes` bytes, letters, digits, `-`, `_`
  /// and `.` only.
  static func isValidWriteID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= maxWriteIDBytes
      && id.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
          UInt8(ascii: "."):
          true
        default: false
        }
      }
  }
}
