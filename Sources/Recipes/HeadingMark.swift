/// A heading found in a page without recipe markup (`HeadingRecipeReader`): where it is in
/// document order, where its own subtree ends, and which section it names.
struct HeadingMark: Sendable {
  /// What a heading names: the ingredients, the method, one numbered step of it ("Step 1",
  /// "2. Bake"), or anything else (which ends the section before it).
  enum Kind: Sendable {
    case ingredients
    case method
    case step
    case other
  }

  /// The heading's position in document order.
  var position: Int
  /// The first position after the heading's subtree.
  var end: Int
  var kind: Kind
  /// The heading's level, 1 to 6 for `<h1>`–`<h6>`, 0 for any other element.
  var rank = 0

  /// Whether `other` is a heading of a lower level inside this heading's section (a group's
  /// name, "For the filling" under "Ingredients"), which does not end the section.
  func holds(_ other: HeadingMark) -> Bool {
    rank > 0 && other.kind == .other && other.rank > rank
  }
}
