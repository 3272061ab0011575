/// What a recipe book's token lets its holder do.
public enum RecipeAccess: String, Sendable, Comparable {
  /// Read the book (a read-only link).
  case read
  /// Read, import, tag and delete recipes (a read-write link, or the client's own book).
  case write
  /// Everything, and hand out or revoke the links (the token its creation returned).
  case owner

  /// Whether this access includes `other`.
  public static func < (lhs: RecipeAccess, rhs: RecipeAccess) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .read: 0
    case .write: 1
    case .owner: 2
    }
  }
}
