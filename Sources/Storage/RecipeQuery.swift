/// Which recipes of a book to list, and in what order.
public struct RecipeQuery: Sendable, Equatable {
  /// How the list is ordered.
  public enum Sort: String, Sendable, CaseIterable {
    /// By name, A to Z.
    case name
    /// Newest first.
    case newest
    /// Oldest first.
    case oldest
  }

  /// Most words one search may have (`searchWords`): each is a prefix search of its own.
  public static let maxWords = 32

  /// Words every listed recipe contains (full text: name, ingredients, steps, keywords).
  public var text: String?
  /// A tag every listed recipe has.
  public var tag: String?
  public var sort: Sort
  /// Most recipes listed.
  public var limit: Int
  /// Recipes of the order skipped before the first listed (paging).
  public var offset: Int

  public init(
    text: String? = nil, tag: String? = nil, sort: Sort = .name, limit: Int = 1000,
    offset: Int = 0
  ) {
    self.text = text
    self.tag = tag
    self.sort = sort
    self.limit = limit
    self.offset = offset
  }

  /// The words of `text` as an FTS5 query: each one quoted (so no word is an operator) and a
  /// prefix, all required; nil when there are none.
  var ftsQuery: String? {
    let words = searchWords
    guard !words.isEmpty else { return nil }
    return words.map { "\"\($0)\"*" }.joined(separator: " ")
  }

  /// The words of `text` as PostgreSQL's `to_tsquery`: each a prefix, all required.
  var tsQuery: String? {
    let words = searchWords
    guard !words.isEmpty else { return nil }
    return words.map { "'\($0)':*" }.joined(separator: " & ")
  }

  /// Letters and digits of `text`, lowercased, split at everything else.
  public var searchWords: [String] {
    guard let text else { return [] }
    return text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
  }

  /// A tag as stored and matched: lowercase letters, digits and hyphens (inner whitespace as
  /// one hyphen), so that no tag holds a LIKE wildcard.
  public static func normalizedTag(_ tag: String) -> String {
    tag.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
      .filter { $0.isLetter || $0.isNumber || $0 == "-" }
  }
}
