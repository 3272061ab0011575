extension HeadingRecipeReader {
  /// Whole texts that name a section when an element other than `<h1>`–`<h6>` holds nothing
  /// else (a trailing colon aside).
  private static let ingredientTitles: Set<String> = [
    "ingredients", "ingredient", "zutaten", "ingrédients", "ingredienti", "ingrediënten",
    "ingredientes", "ingredienser", "składniki", "what you need", "you will need",
    "you'll need", "you’ll need", "benodigdheden", "υλικά", "hozzávalók", "suroviny",
    "ainekset", "malzemeler", "ингредиенты", "材料", "用料", "things you'll need",
    "things you’ll need",
  ]
  static let methodTitles: Set<String> = [
    "method", "methods", "instructions", "directions", "preparation", "procedure", "steps",
    "zubereitung", "préparation", "preparación", "preparazione", "bereiding", "fremgangsmåde",
    "werkwijze", "elaboración", "tilberedning", "przygotowanie", "how to make it",
    "step-by-step", "step by step", "bereidingswijze", "εκτέλεση", "οδηγίες", "elkészítés",
    "postup", "gör så här", "tillagning", "modo de preparo", "procedimento", "valmistus",
    "fremgangsmåte", "yapılışı", "приготовление", "作り方", "做法",
  ]
  /// Whether `text` only names the method ("Zubereitung", "Modo de preparo:"), in any case,
  /// a trailing colon aside.
  static func isMethodTitle(_ text: String) -> Bool {
    guard text.utf8.count < 64 else { return false }
    var title = HTMLText.collapse(text).lowercased()
    while title.hasSuffix(":") { title.removeLast() }
    return methodTitles.contains(HTMLText.collapse(title))
  }

  /// Elements whose text names a link, a tab or a control, never a section of the page.
  private static let controls: Set<String> = [
    "a", "li", "option", "label", "button", "nav", "summary", "title",
  ]
  /// Elements that end the page's content: what comes after them is no recipe's.
  private static let boundaries: Set<String> = ["footer", "aside", "nav", "form"]
  /// At most this many elements are read after one heading.
  private static let reach = 3_000

  /// The page's headings in document order: every `<h1>`–`<h6>` (named for the ingredients,
  /// the method or neither) and every other element whose whole text is a section's name.
  static func headingMarks(in order: [Int], document: HTMLDocument) -> [HeadingMark] {
    var marks: [HeadingMark] = []
    var tabs: [(targets: [String], kind: HeadingMark.Kind)] = []
    for (position, index) in order.enumerated() {
      if let last = marks.last, position < last.end { continue }
      let node = document.nodes[index]
      var kind = HeadingMark.Kind.other
      if headings.contains(node.name) {
        // Lines drawn in a heading's tag ("<h5>• 2 tbsp oil<br>• 50 g butter</h5>") are
        // content, not a heading.
        if document.lines(of: index).count > 2 { continue }
        let title = document.text(of: index).lowercased()
        if title.count < 60 {
          if ingredientWords.contains(where: { title.contains($0) }) {
            kind = .ingredients
          } else if isNumberedStep(title),
            document.ancestor(of: index, where: { $0.name == "li" }) == nil
          {
            // A numbered heading inside a list item titles that item, not a section.
            kind = .step
          } else if methodWords.contains(where: { title.contains($0) }) {
            kind = .method
          }
        }
      } else {
        guard node.children.count == 1, document.nodes[node.children[0]].isText,
          !HTMLText.skipped.contains(node.name)
        else { continue }
        let raw = document.nodes[node.children[0]].text
        // The whitespace a template leaves around the name does not count.
        guard raw.utf8.count < 512 else { continue }
        var title = HTMLText.collapse(raw).lowercased()
        guard title.utf8.count < 64 else { continue }
        while title.hasSuffix(":") { title.removeLast() }
        title = HTMLText.collapse(title)
        if ingredientTitles.contains(title) {
          kind = .ingredients
        } else if methodTitles.contains(title) {
          kind = .method
        } else {
          continue
        }
        if controls.contains(node.name)
          || document.ancestor(of: index, where: { controls.contains($0.name) }) != nil
        {
          // A tab or a link that shows a part of the page names that part's section.
          let targets = tabTargets(of: node)
          if !targets.isEmpty { tabs.append((targets, kind)) }
          continue
        }
      }
      let end = position + 1 + document.descendants(of: index).count
      let rank = headings.contains(node.name) ? Int(node.name.dropFirst()) ?? 0 : 0
      marks.append(HeadingMark(position: position, end: end, kind: kind, rank: rank))
    }
    return tabs.isEmpty ? marks : placing(tabs, among: marks, in: order, document: document)
  }

  /// The ids of the element a tab may show: its `aria-controls`, `data-bs-target`,
  /// `data-target` or link's `#fragment` (the first that names an element is the one).
  static func tabTargets(of node: HTMLNode) -> [String] {
    guard ["a", "button"].contains(node.name) || node.attribute("role") == "tab" else {
      return []
    }
    var targets: [String] = []
    for key in ["aria-controls", "data-bs-target", "data-target", "href"] {
      guard var value = node.attribute(key).map(HTMLText.collapse) else {
        continue
      }
      if key != "aria-controls" {
        guard value.hasPrefix("#") else { continue }
        value.removeFirst()
      }
      if !value.isEmpty, !value.contains(" ") { targets.append(value) }
    }
    return targets
  }

  /// The marks with each tab's section placed at the element it shows: the section is that
  /// element's content, and headings inside it (a group's name) no longer end it.
  private static func placing(
    _ tabs: [(targets: [String], kind: HeadingMark.Kind)], among marks: [HeadingMark],
    in order: [Int], document: HTMLDocument
  ) -> [HeadingMark] {
    let wanted = Set(tabs.flatMap(\.targets))
    var positions: [String: Int] = [:]
    for (position, index) in order.enumerated() {
      if let id = document.nodes[index].attribute("id"), wanted.contains(id),
        positions[id] == nil
      {
        positions[id] = position
      }
    }
    var marks = marks
    var placed: Set<Int> = []
    for tab in tabs {
      guard let position = tab.targets.lazy.compactMap({ positions[$0] }).first,
        placed.insert(position).inserted
      else {
        continue
      }
      let end = position + 1 + document.descendants(of: order[position]).count
      marks.removeAll { $0.position >= position && $0.position < end }
      marks.append(HeadingMark(position: position, end: position + 1, kind: tab.kind))
      // The section ends with the element (the next tab's link is no line of it).
      if end < order.count, !marks.contains(where: { $0.position == end }) {
        marks.append(HeadingMark(position: end, end: end, kind: .other))
      }
    }
    return marks.sorted { $0.position < $1.position }
  }

  /// The items of the lists (`ul`, `ol`) from `start` up to `limit` in document order, and
  /// the position after the last list; once a list is read, a long paragraph (prose, not a
  /// group's name) ends them. For `steps`, the first list only, and a number on a line of its
  /// own before a step's text (its number, drawn beside it) is left out.
  static func listItems(
    from start: Int, to limit: Int, in order: [Int], document: HTMLDocument,
    steps: Bool = false
  ) -> (items: [String], end: Int?) {
    var items: [String] = []
    var end: Int?
    var position = start
    let last = min(limit, start + reach, order.count)
    let unshown = unshownTabs(from: start, to: last, in: order, document: document)
    while position < last {
      if let skip = unshown[position] {
        position = skip
        continue
      }
      let index = order[position]
      let node = document.nodes[index]
      if boundaries.contains(node.name) { break }
      if node.name == "ul" || node.name == "ol" {
        let lines = node.children.filter { document.nodes[$0].name == "li" }
          .map { steps ? stepText($0, document: document) : line(document.text(of: $0)) }
          .filter { !$0.isEmpty }
        items.append(contentsOf: lines)
        position += 1 + document.descendants(of: index).count
        if !lines.isEmpty { end = position }
        if steps, !lines.isEmpty { break }
        continue
      }
      if !items.isEmpty, node.name == "p", document.text(of: index).count >= 60 { break }
      position += 1
    }
    return (items, end)
  }

  /// The steps under a heading that names no section: its first numbered list (`<ol>`), else
  /// its paragraphs when one of them is as long as a step (80 characters or more), so that a
  /// "Related recipes" heading over a line of links is no method.
  static func stepsUnder(
    _ mark: HeadingMark, to limit: Int, in order: [Int], document: HTMLDocument
  ) -> [String] {
    var position = mark.end
    let last = min(limit, mark.end + reach, order.count)
    while position < last {
      let index = order[position]
      let node = document.nodes[index]
      if boundaries.contains(node.name) || node.name == "ul" { break }
      if node.name == "ol" {
        return node.children.filter { document.nodes[$0].name == "li" }
          .map { stepText($0, document: document) }.filter { !$0.isEmpty }
      }
      position += 1
    }
    let texts = paragraphs(from: mark.end, to: limit, in: order, document: document)
    return texts.contains { $0.count >= 80 } ? texts : []
  }

  /// Whether the section of `marks[number]` opens with a lower heading, no list item or
  /// paragraph before it ("Ingredients", then "For the vegetables" and its rows): then its
  /// lower headings name groups. A lower heading after the section's own lines ("Tips",
  /// "Each serving contains") ends it.
  static func opensWithGroups(
    _ marks: [HeadingMark], at number: Int, in order: [Int], document: HTMLDocument
  ) -> Bool {
    let mark = marks[number]
    guard number + 1 < marks.count, mark.holds(marks[number + 1]) else { return false }
    let first = min(marks[number + 1].position, mark.end + reach, order.count)
    guard mark.end < first else { return true }
    return !order[mark.end..<first].contains { index in
      ["li", "p", "dt", "dd"].contains(document.nodes[index].name)
        && !document.lines(of: index).isEmpty
    }
  }

  /// The parts of a section to pass over, as their first position and the position after
  /// them: a list of tabs ("US", "Metric": every item is a link that shows a part of the
  /// page), and the parts its tabs show but the selected one (`aria-selected="true"` or an
  /// `active` class on the tab or its item; else the first).
  static func unshownTabs(from start: Int, to last: Int, in order: [Int], document: HTMLDocument)
    -> [Int: Int]
  {
    var skips: [Int: Int] = [:]
    var hidden: Set<String> = []
    for position in start..<last {
      let index = order[position]
      let node = document.nodes[index]
      if let id = node.attribute("id"), hidden.contains(id) {
        skips[position] = position + 1 + document.descendants(of: index).count
        continue
      }
      guard node.name == "ul" || node.name == "ol" else { continue }
      let items = node.children.filter { document.nodes[$0].name == "li" }
      let tabs = items.compactMap { item -> (targets: [String], selected: Bool)? in
        guard
          let link = document.descendants(of: item).first(where: {
            !tabTargets(of: document.nodes[$0]).isEmpty
          }), document.text(of: link) == document.text(of: item)
        else { return nil }
        let selected =
          document.nodes[link].attribute("aria-selected") == "true"
          || [item, link].contains { document.nodes[$0].tokens("class").contains("active") }
        return (tabTargets(of: document.nodes[link]), selected)
      }
      guard tabs.count >= 2, tabs.count == items.count else { continue }
      skips[position] = position + 1 + document.descendants(of: index).count
      let shown = tabs.firstIndex { $0.selected } ?? 0
      for (number, tab) in tabs.enumerated() where number != shown {
        hidden.formUnion(tab.targets)
      }
    }
    return skips
  }

  /// Ingredients drawn as rows to tick off: the text of the row each checkbox sits in (its
  /// label's amount and name on one line), when the section has two or more.
  static func checkboxRows(from start: Int, to limit: Int, in order: [Int], document: HTMLDocument)
    -> (items: [String], end: Int?)
  {
    var items: [String] = []
    var end: Int?
    var position = start
    let last = min(limit, start + reach, order.count)
    while position < last {
      let index = order[position]
      let node = document.nodes[index]
      if boundaries.contains(node.name) { break }
      position += 1
      guard node.name == "input", node.attribute("type")?.lowercased() == "checkbox" else {
        continue
      }
      let row = document.nodes[index].parent
      let text = row >= 0 ? line(document.text(of: row)) : ""
      if !text.isEmpty, text.count < 200 {
        items.append(text)
        end = position + document.descendants(of: row).count
      }
    }
    return items.count >= 2 ? (items, end) : ([], nil)
  }

  /// Words that may come before a step's number in its heading.
  static let stepWords = ["step", "stap", "schritt", "étape", "paso", "passo", "krok"]

  /// Whether a heading's (lowercased) text numbers a step: "step 1", "stap 2:", "3.", "4. Bake".
  static func isNumberedStep(_ title: String) -> Bool {
    var rest = Substring(title)
    if let word = stepWords.first(where: { rest.hasPrefix($0) }) {
      rest = rest.dropFirst(word.count).drop { $0 == " " }
      guard rest.first?.isNumber == true else { return false }
      rest = rest.drop { $0.isNumber }
      return rest.first.map { !$0.isLetter } ?? true
    }
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard (1...2).contains(digits.count) else { return false }
    rest = rest.dropFirst(digits.count)
    return rest.isEmpty || rest.first == "." || rest.first == ")"
  }

  /// Ingredients written as lines rather than a list: each line of the elements from `start`
  /// up to `limit` (paragraphs, `<br>`-separated lines), without bullets; a line that is only
  /// a bold group name without a number ("<strong>Chilli paste</strong>") is left out, and a
  /// long line (prose) ends them.
  static func lineItems(from start: Int, to limit: Int, in order: [Int], document: HTMLDocument)
    -> (items: [String], end: Int?)
  {
    var items: [String] = []
    var end: Int?
    var position = start
    let last = min(limit, start + reach, order.count)
    let unshown = unshownTabs(from: start, to: last, in: order, document: document)
    reading: while position < last {
      if let skip = unshown[position] {
        position = skip
        continue
      }
      let index = order[position]
      let node = document.nodes[index]
      if boundaries.contains(node.name) || HTMLText.skipped.contains(node.name) { break }
      guard let size = elementCount(below: index, atMost: last - position - 1, in: document)
      else {
        // An element holding the next heading (or more than is read) is read inside.
        position += 1
        continue
      }
      if unshown.keys.contains(where: { $0 > position && $0 <= position + size }) {
        // An element holding a part to pass over is read inside.
        position += 1
        continue
      }
      let below = order[(position + 1)..<(position + 1 + size)]
      let bold = Set(
        below.filter { ["strong", "b"].contains(document.nodes[$0].name) }
          .map { document.text(of: $0) })
      for text in document.lines(of: index) {
        let text = line(text)
        if text.count > 150 { break reading }
        guard !text.isEmpty, !(bold.contains(text) && !text.contains(where: \.isNumber)) else {
          continue
        }
        items.append(text)
      }
      position += 1 + size
      end = position
    }
    return (items, end)
  }

  /// How many elements are below `root`, or nil when there are more than `limit` (counted no
  /// further, so a wrapper around the whole page costs no more than `limit`).
  private static func elementCount(below root: Int, atMost limit: Int, in document: HTMLDocument)
    -> Int?
  {
    var count = 0
    var stack = document.nodes[root].children
    while let index = stack.popLast() {
      guard !document.nodes[index].isText else { continue }
      count += 1
      if count > limit { return nil }
      stack.append(contentsOf: document.nodes[index].children)
    }
    return count
  }

  /// The texts of the paragraphs from `start` up to `limit` (or the page's footer).
  static func paragraphs(from start: Int, to limit: Int, in order: [Int], document: HTMLDocument)
    -> [String]
  {
    var texts: [String] = []
    var position = start
    let last = min(limit, start + reach, order.count)
    while position < last {
      let index = order[position]
      let node = document.nodes[index]
      if boundaries.contains(node.name) { break }
      if node.name == "p" {
        let lines = document.lines(of: index)
        if lines.count > 1, lines.allSatisfy({ $0.first.map(isBullet) ?? false }) {
          // "– Dice the onion<br>– Fry it": a step per line.
          texts.append(contentsOf: lines.map(line).filter { !$0.isEmpty })
        } else {
          let text = lines.joined(separator: " ")
          if !text.isEmpty { texts.append(text) }
        }
        position += 1 + document.descendants(of: index).count
        continue
      }
      position += 1
    }
    return unnumbered(texts)
  }

  /// Steps that each start with their own number in order ("1. Heat", "2. Add", ...): the
  /// numbers are the list's drawing, not the steps' text.
  static func unnumbered(_ texts: [String]) -> [String] {
    guard texts.count >= 2 else { return texts }
    var stripped: [String] = []
    for (offset, text) in texts.enumerated() {
      let number = String(offset + 1)
      guard text.hasPrefix(number) else { return texts }
      let rest = text.dropFirst(number.count)
      guard let mark = rest.first, mark == "." || mark == ")",
        rest.dropFirst().first == " "
      else { return texts }
      stripped.append(String(rest.dropFirst(2)))
    }
    return stripped
  }

  /// The first list of at least three lines, most of which start with a quantity ("2 cups",
  /// "½ tsp"), outside the page's navigation and footer: a page's ingredients when no heading
  /// names them.
  static func quantityList(in order: [Int], document: HTMLDocument) -> (
    items: [String], end: Int?
  ) {
    var lists = 0
    var position = 0
    while position < order.count, lists < 200 {
      let index = order[position]
      let node = document.nodes[index]
      guard boundaries.contains(node.name) || ["header", "ul", "ol"].contains(node.name) else {
        position += 1
        continue
      }
      let size = document.descendants(of: index).count
      if node.name == "ul" || node.name == "ol" {
        lists += 1
        let lines = node.children.filter { document.nodes[$0].name == "li" }
          .map { line(document.text(of: $0)) }.filter { !$0.isEmpty }
        let quantified = lines.filter { $0.count < 160 && startsWithQuantity($0) }.count
        if lines.count >= 3, quantified * 3 >= lines.count * 2 {
          let groups = groupLists(
            after: position + 1 + size, of: position, in: order, document: document)
          return (lines + groups.items, groups.end)
        }
      }
      position += 1 + size
    }
    return ([], nil)
  }

  /// The lists that go on from the ingredients list at `first` (ending at `end`), each under
  /// a heading of the level of the one right over that list ("Produce", then "Pantry",
  /// "Dairy": a shop's aisles as groups), with at least half their lines quantities; up to
  /// anything else with text of its own. Returns their lines and where the last one ends.
  private static func groupLists(
    after end: Int, of first: Int, in order: [Int],
    document: HTMLDocument
  ) -> (items: [String], end: Int) {
    var level: String?
    var back = first - 1
    while back >= 0, first - back < 50 {
      let node = document.nodes[order[back]]
      if HeadingRecipeReader.headings.contains(node.name) {
        level = node.name
        break
      }
      if ["p", "ul", "ol", "li", "table"].contains(node.name) || boundaries.contains(node.name) {
        break
      }
      back -= 1
    }
    guard let level else { return ([], end) }
    var items: [String] = []
    var last = end
    var position = end
    var titled = false
    while position < order.count, position - end < 2_000 {
      let index = order[position]
      let node = document.nodes[index]
      let size = document.descendants(of: index).count
      if HeadingRecipeReader.headings.contains(node.name) {
        let title = document.text(of: index).lowercased()
        guard node.name == level, !titled, !title.isEmpty, title.count < 40,
          !HeadingRecipeReader.methodWords.contains(where: title.contains)
        else { break }
        titled = true
      } else if node.name == "ul" || node.name == "ol" {
        let lines = node.children.filter { document.nodes[$0].name == "li" }
          .map { line(document.text(of: $0)) }.filter { !$0.isEmpty }
        let quantified = lines.filter { $0.count < 160 && startsWithQuantity($0) }.count
        guard titled, !lines.isEmpty, quantified * 2 >= lines.count else { break }
        items += lines
        titled = false
        last = position + 1 + size
      } else if boundaries.contains(node.name)
        || node.children.contains(where: {
          document.nodes[$0].isText && !HTMLText.collapse(document.nodes[$0].text).isEmpty
        })
      {
        break
      } else {
        position += 1
        continue
      }
      position += 1 + size
    }
    return (items, last)
  }

  /// A step's text without a number on a line of its own before it.
  private static func stepText(_ item: Int, document: HTMLDocument) -> String {
    var lines = document.lines(of: item)
    if lines.count > 1, lines[0].allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }) {
      lines.removeFirst()
    }
    return line(lines.joined(separator: " "))
  }

  /// A bullet or dash a page writes as text before a line.
  private static func isBullet(_ character: Character) -> Bool {
    "•·●▪◦*–-".contains(character)
  }

  /// A list line without a leading bullet character that the page writes as text.
  private static func line(_ text: String) -> String {
    var text = Substring(text)
    while let first = text.first, isBullet(first) {
      text = text.dropFirst().drop { $0 == " " }
    }
    return String(text)
  }

  /// Whether a line starts with a number or a vulgar fraction ("2 cups", "½ tsp").
  static func startsWithQuantity(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first else { return false }
    return ("0"..."9").contains(first) || ("\u{00BC}"..."\u{00BE}").contains(first)
      || ("\u{2150}"..."\u{215E}").contains(first)
  }
}
