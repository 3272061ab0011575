/// Ingredients whose markup names only the ingredient ("Tequila", "baking soda") while the page
/// shows each with its amount ("4 cl Tequila", a row of cells "1 | teaspoon | baking soda"):
/// the rows the page shows, found by the names. Only for lists of names (most lines without a
/// number), and only when every name is found in a row of its own and most rows add a number.
enum RenderedIngredients {
  /// The page's rows for `names`, or nil when the names are not a list of names or the page
  /// does not show each in a row that adds its amount.
  static func rows(for names: [String], in document: HTMLDocument) -> [String]? {
    guard names.count >= 2, names.count <= 200,
      names.filter({ $0.contains(where: \.isNumber) }).count * 5 <= names.count
    else { return nil }
    // The page's short visible texts, in document order, read once.
    var texts: [(node: Int, text: String)] = []
    var stack = Array(document.nodes[0].children.reversed())
    while let index = stack.popLast() {
      let node = document.nodes[index]
      guard node.isText else {
        if !HTMLText.skipped.contains(node.name) {
          stack.append(contentsOf: node.children.reversed())
        }
        continue
      }
      guard node.text.utf8.count <= 200 else { continue }
      let text = HTMLText.collapse(node.text)
      if !text.isEmpty { texts.append((index, text.lowercased())) }
    }
    var rows: [String] = []
    var used = Set<Int>()
    var from = 0
    for name in names {
      let wanted = name.lowercased()
      // The name's next showings after the previous one's (names repeat: "butter" twice),
      // the first whose row starts with an amount, else the first.
      let order = Array(texts.indices[from...]) + Array(texts.indices[..<from])
      var first: (position: Int, row: String)?
      var chosen: (position: Int, row: String)?
      var tried = 0
      for position in order where tried < 16 {
        let entry = texts[position]
        guard !used.contains(entry.node), shows(entry.text, wanted) else { continue }
        tried += 1
        guard let row = row(around: entry.node, name: name, in: document) else { continue }
        if first == nil { first = (position, row) }
        if startsWithAmount(row) {
          chosen = (position, row)
          break
        }
      }
      guard let (position, row) = chosen ?? first else { return nil }
      used.insert(texts[position].node)
      from = position + 1
      rows.append(row)
    }
    // Rows that read amount first ("4 cl Tequila"), not a table's name then amount.
    let added = zip(names, rows).filter { name, row in
      !name.contains(where: \.isNumber) && startsWithAmount(row)
    }.count
    return added * 2 > names.count ? rows : nil
  }

  private static func startsWithAmount(_ text: String) -> Bool {
    text.first?.isNumber == true
  }

  /// Whether a text is the name, or ends with it after a short amount ("1 Stück
  /// Knoblauchzehe", "etwas Oliven").
  private static func shows(_ text: String, _ name: String) -> Bool {
    text == name
      || (text.count <= name.count + 25 && text.hasSuffix(" " + name))
  }

  /// Containers of many rows: a row never reaches them.
  private static let containers: Set<String> = [
    "ul", "ol", "dl", "table", "tbody", "thead", "body", "main", "article", "section", "html",
  ]

  /// The text of the row that shows a name: the list item or table row around it, else the
  /// largest element around it (up to six levels) whose text is at most 40 characters longer
  /// than the name. Nil when that text does not hold the name.
  private static func row(around node: Int, name: String, in document: HTMLDocument) -> String? {
    var best = document.nodes[node].parent
    var current = best
    for _ in 0..<6 {
      guard current >= 0, !containers.contains(document.nodes[current].name) else { break }
      let text = document.text(of: current)
      if text.count > name.count + 40 { break }
      best = current
      if ["li", "tr"].contains(document.nodes[current].name) { break }
      current = document.nodes[current].parent
    }
    guard best >= 0 else { return nil }
    let text = HTMLText.collapse(document.text(of: best))
    return text.lowercased().contains(name.lowercased()) ? text : nil
  }
}
