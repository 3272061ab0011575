/// One node of an `HTMLDocument`: an element (lowercased `name`, attributes) or a text node.
struct HTMLNode: Sendable {
  /// The element's lowercased tag name, or "" for a text node.
  var name: String
  /// The element's attributes in source order (names lowercased); empty for text.
  var attributes: [(name: String, value: String)]
  /// The text of a text node (also the content of `script`/`style`); "" for elements.
  var text: String
  /// Indices of the children in `HTMLDocument.nodes`, in order.
  var children: [Int]
  /// Index of the parent, or -1 for the root.
  var parent: Int

  var isText: Bool { name.isEmpty }

  func attribute(_ key: String) -> String? {
    attributes.first { $0.name == key }?.value
  }

  /// The whitespace-separated tokens of an attribute (`class`, `itemprop`, `rel`, ...).
  func tokens(_ key: String) -> [Substring] {
    guard let value = attribute(key) else { return [] }
    return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
  }
}
