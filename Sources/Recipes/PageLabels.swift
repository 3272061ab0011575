/// Times and yields a page states in words beside a label, outside any recipe markup:
/// "Serves 5", "Prep Time: 35m", a "Servings" cell beside an "8" cell, a "Time:" label before
/// "10-20 minutes". Used for what a recipe's markup leaves out.
struct PageLabels {
  /// Text of each value found, by schema.org key (`recipeYield`, `totalTime`, `prepTime`,
  /// `cookTime`); the first on the page wins.
  private(set) var values: [String: String] = [:]

  /// Labels, lowercased, and the key each names; longer labels are tried first.
  private static let labels: [(label: String, key: String)] = [
    ("prep & cook time", "totalTime"), ("prep and cook time", "totalTime"),
    ("preparation time", "prepTime"), ("cooking time", "cookTime"), ("total time", "totalTime"),
    ("prep time", "prepTime"), ("cook time", "cookTime"), ("ready in", "totalTime"),
    ("servings", "recipeYield"), ("serving", "recipeYield"), ("portions", "recipeYield"),
    ("serves", "recipeYield"), ("yields", "recipeYield"), ("yield", "recipeYield"),
    ("makes", "recipeYield"), ("serve", "recipeYield"), ("time", "totalTime"),
    ("prep", "prepTime"), ("cook", "cookTime"),
    // The same labels in other languages (French, Dutch, German, Spanish, Italian,
    // Portuguese, Scandinavian, Polish). Their time values must read as a duration.
    ("temps total", "totalTime"), ("temps de préparation", "prepTime"),
    ("temps de cuisson", "cookTime"), ("préparation", "prepTime"), ("cuisson", "cookTime"),
    ("totale tijd", "totalTime"), ("bereidingstijd", "prepTime"), ("kooktijd", "cookTime"),
    ("gesamtzeit", "totalTime"), ("zubereitungszeit", "prepTime"), ("arbeitszeit", "prepTime"),
    ("kochzeit", "cookTime"), ("backzeit", "cookTime"), ("tiempo total", "totalTime"),
    ("tiempo de preparación", "prepTime"), ("tiempo de cocción", "cookTime"),
    ("tempo totale", "totalTime"), ("tempo di preparazione", "prepTime"),
    ("tempo di cottura", "cookTime"), ("tempo total", "totalTime"),
    ("tempo de preparo", "prepTime"), ("tempo de cozimento", "cookTime"),
    ("tid i alt", "totalTime"), ("total tid", "totalTime"), ("tilberedningstid", "totalTime"),
    ("tillagningstid", "cookTime"), ("czas przygotowania", "prepTime"),
    ("personnes", "recipeYield"), ("portionen", "recipeYield"), ("porciones", "recipeYield"),
    ("porzioni", "recipeYield"), ("personen", "recipeYield"), ("porsjoner", "recipeYield"),
    ("portioner", "recipeYield"), ("porcje", "recipeYield"), ("porções", "recipeYield"),
  ]
  /// What separates a label from its value besides spaces ("Serves: 4", "Prep time | 15 min").
  private static let separators: Set<Character> = [":", "|"]
  /// Short labels that name a field only before a colon ("Prep: 10 mins"; "Cook 10 minutes"
  /// is a step).
  private static let colonOnly: Set<String> = ["prep", "cook"]
  /// Words a count of servings is written with after its number ("4 porce", "2 Portionen").
  private static let servingWords: Set<String> = [
    "servings", "portions", "people", "persons", "porce", "porcí", "porcje", "porcji",
    "porções", "porciones", "porzioni", "personas", "personnes", "portionen", "personen",
    "porsjoner", "portioner", "personer", "porties", "annosta",
  ]

  init(document: HTMLDocument) {
    // Only text that starts with a label is looked at: one pass over the text nodes, and at
    // most 256 of them read around (a hostile page of labels costs no more).
    var looked = 0
    // The text node that gave the yield, for a time stated beside it without a label.
    var servings: Int?
    for index in document.nodes.indices where document.nodes[index].isText && looked < 256 {
      // Long text (a script's, a paragraph's) is no label: skipped before any work on it.
      guard document.nodes[index].text.utf8.count <= 200,
        Self.mayStartALabel(document.nodes[index].text)
      else { continue }
      let line = HTMLText.collapse(document.nodes[index].text)
      var segments = [Substring(line)]
      if line.contains("|") {
        segments = line.split(separator: " | ")
      } else if line.contains("—") {
        segments = line.split(separator: " — ")
      }
      if segments.count > 1, segments.count <= 6, !Self.inSkipped(index, document: document) {
        // "Serves 2 | Total time: 15 minutes | Whole30", "4 servings — 20 minutes": each
        // part is a label's line.
        looked += 1
        readParts(segments.map(String.init))
        continue
      }
      let text = line.lowercased()
      guard !text.isEmpty, text.count <= 40 else { continue }
      if values["recipeYield"] == nil, Self.isServingCount(text),
        !Self.inSkipped(index, document: document)
      {
        // "4 porce" beside an icon: a count of servings in words of its own.
        looked += 1
        values["recipeYield"] = text
        servings = index
        continue
      }
      // Only labels with the text's first word are tried (most texts start with none).
      guard Self.firstWords.contains(String(text.prefix(while: \.isLetter))),
        let (label, key) = Self.labels.first(where: { Self.starts(text, with: $0.label) }),
        values[key] == nil, !Self.inSkipped(index, document: document)
      else { continue }
      looked += 1
      if Self.isLineOfItsOwn(index, in: document) {
        // "Prep: 10 mins<br>Cook: 25 mins<br>Serves 4": each line is read by itself.
        if let value = Self.inlineValue(labelled: label, in: line) {
          Self.keep(value, for: key, in: &values)
        }
      } else if let value = Self.value(
        labelled: label, from: document.nodes[index].parent, in: document)
      {
        Self.keep(value, for: key, in: &values)
      }
      if key == "recipeYield", values[key] != nil { servings = index }
    }
    if let servings { timeBeside(servings, in: document) }
  }

  /// The parts of a line split by bars or dashes: labels' lines, a count of servings, and a
  /// time alone right after that count ("4 servings — 20 minutes").
  private mutating func readParts(_ parts: [String]) {
    var afterServings = false
    for part in parts {
      let lower = part.lowercased()
      defer { afterServings = values["recipeYield"] == part.lowercased() }
      if values["recipeYield"] == nil, Self.isServingCount(lower) {
        values["recipeYield"] = lower
        continue
      }
      if let (label, key) = Self.labels.first(where: { Self.starts(lower, with: $0.label) }) {
        if values[key] == nil, let value = Self.inlineValue(labelled: label, in: part) {
          Self.keep(value, for: key, in: &values)
        }
      } else if afterServings, Self.isTimeAlone(part) {
        values["totalTime"] = part
      }
    }
  }

  /// A time stated without a label right after the page's count of servings: the element
  /// after the one that holds the count holds only a duration ("<li>Serves 4</li><li>30mins
  /// </li>"). It is the total time when no label gave one.
  private mutating func timeBeside(_ servings: Int, in document: HTMLDocument) {
    guard !RecipeDuration.keys.contains(where: { values[$0] != nil }),
      let next = Self.nextElement(after: document.nodes[servings].parent, in: document),
      Self.isSmall(next, in: document)
    else { return }
    let text = HTMLText.collapse(document.text(of: next))
    if Self.isTimeAlone(text) { values["totalTime"] = text }
  }

  /// Whether a short text is a duration and nothing else of note ("30mins", "1 hour 30
  /// minutes + marinating time").
  private static func isTimeAlone(_ text: String) -> Bool {
    text.count <= 40 && RecipeDuration.isDuration(text)
  }

  /// Keeps a label's value; a time must read as a duration ("20 min", "1 h 05", "1:15"),
  /// so that a section named like a label ("Préparation" over "1. Preheat the oven to 180")
  /// gives no time.
  private static func keep(_ value: String, for key: String, in values: inout [String: String]) {
    guard key == "recipeYield" || RecipeDuration.isDuration(value) else { return }
    values[key] = value
  }

  /// The value of the label that starts the text of `element`: what follows it in the same
  /// short line ("Serves 5", "Yield: 4 loaves"), or the next element's text when the element
  /// holds the label alone ("<th>Servings</th><td>8</td>"); up to two enclosing elements are
  /// tried. The value must hold a digit.
  private static func value(labelled label: String, from element: Int, in document: HTMLDocument)
    -> String?
  {
    var current = element
    for _ in 0..<3 {
      guard current > 0, isSmall(current, in: document) else { return nil }
      let lines = document.lines(of: current)
      let text = lines.joined(separator: " ")
      guard lines.count <= 2, text.count <= 80 else { return nil }
      let lower = text.lowercased()
      guard starts(lower, with: label) else { return nil }
      var rest = Substring(text.dropFirst(label.count))
      let colon = rest.first { !$0.isWhitespace }.map(separators.contains) ?? false
      rest = rest.drop { $0.isWhitespace || separators.contains($0) }
      if rest.isEmpty {
        // "<strong>Serves:</strong> 6-8<br>": the value is the text right after the label.
        if let value = textAfter(current, in: document) {
          return value.count <= 60 && value.contains(where: \.isNumber) ? value : nil
        }
        if let cell = cellBelow(current, in: document) {
          let value = document.text(of: cell)
          return value.count <= 60 && value.contains(where: \.isNumber) ? value : nil
        }
        guard let sibling = nextElement(after: current, in: document) else {
          // "<li><strong>Serves:</strong> 2</li>": the value is text beside the label's
          // element, read with its parent.
          current = document.nodes[current].parent
          continue
        }
        guard isSmall(sibling, in: document) else { return nil }
        let value = document.text(of: sibling)
        return value.count <= 60 && value.contains(where: \.isNumber) ? value : nil
      }
      if let value = inlineValue(labelled: label, in: text) { return value }
      if colon || rest.first?.isNumber == true { return nil }
      guard lines.count == 1 else { return nil }
      current = document.nodes[current].parent
    }
    return nil
  }

  /// The value after `label` in one line of text: what follows a colon, or a number ("Cook
  /// for 10 minutes" is a step, not a label; "Ready in around 20 mins": a word of
  /// approximation may come first). A short label ("Prep") needs its colon.
  private static func inlineValue(labelled label: String, in text: String) -> String? {
    guard starts(text.lowercased(), with: label) else { return nil }
    var rest = Substring(text.dropFirst(label.count))
    let colon = rest.first { !$0.isWhitespace }.map(separators.contains) ?? false
    rest = rest.drop { $0.isWhitespace || separators.contains($0) }
    guard colon || !colonOnly.contains(label) else { return nil }
    for word in ["around ", "about ", "approximately ", "approx. ", "approx ", "ca. "]
    where rest.lowercased().hasPrefix(word) {
      rest = rest.dropFirst(word.count)
      break
    }
    guard colon || rest.first?.isNumber == true, rest.contains(where: \.isNumber) else {
      return nil
    }
    return String(rest)
  }

  /// Whether a text node is a line of its own among others: `<br>`s or nothing on both sides,
  /// and at least one `<br>` beside it.
  private static func isLineOfItsOwn(_ index: Int, in document: HTMLDocument) -> Bool {
    let parent = document.nodes[index].parent
    guard parent >= 0 else { return false }
    let siblings = document.nodes[parent].children
    guard let position = siblings.firstIndex(of: index) else { return false }
    let before = position > 0 ? document.nodes[siblings[position - 1]].name : nil
    let after = position + 1 < siblings.count ? document.nodes[siblings[position + 1]].name : nil
    return (before == nil || before == "br") && (after == nil || after == "br")
      && (before == "br" || after == "br")
  }

  /// "4 porce", "2-4 servings": a number (or a range), then one word naming servings.
  private static func isServingCount(_ text: String) -> Bool {
    let words = text.split(separator: " ")
    guard words.count >= 2, words.count <= 4, let last = words.last,
      servingWords.contains(String(last))
    else { return false }
    return words.dropLast().allSatisfy { word in
      word.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "-" || $0 == "–" }
    } && words[0].first?.isNumber == true
  }

  /// The first word of each label ("prep" of "prep & cook time").
  private static let firstWords = Set(labels.map { String($0.label.prefix(while: \.isLetter)) })

  /// Whether a text node may be read below: false only for plain ASCII text whose first word
  /// starts no label and that is no count of servings (no digit first) and no line of parts
  /// (no "|"), answered from its bytes. Every page's text nodes pass here; most are "Stir the
  /// onions", which the reading below would collapse and lowercase only to find no label.
  private static func mayStartALabel(_ text: String) -> Bool {
    let bytes = text.utf8
    guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "|") }) else { return true }
    let start = bytes.drop { $0 == UInt8(ascii: " ") || (0x09...0x0D).contains($0) }
    guard let first = start.first else { return false }
    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) { return true }
    let word = start.prefix { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
    return firstWords.contains(String(decoding: word.map { $0 | 0x20 }, as: UTF8.self))
  }

  /// Whether `text` starts with the word or words `label` ("time", not "timer").
  private static func starts(_ text: String, with label: String) -> Bool {
    guard text.hasPrefix(label) else { return false }
    return text.dropFirst(label.count).first.map { !$0.isLetter } ?? true
  }

  /// Whether an element holds at most 64 nodes (a label's line, not a section of the page).
  private static func isSmall(_ index: Int, in document: HTMLDocument) -> Bool {
    var stack = [index]
    var count = 1
    while let current = stack.popLast() {
      let children = document.nodes[current].children
      count += children.count
      if count > 64 { return false }
      stack.append(contentsOf: children)
    }
    return true
  }

  /// For a header cell in a row of header cells (`<tr><th>Yields</th><th>Serving
  /// Size</th></tr>`), the cell in the same column of the next row.
  private static func cellBelow(_ index: Int, in document: HTMLDocument) -> Int? {
    let node = document.nodes[index]
    let row = node.parent
    guard node.name == "th", row > 0, document.nodes[row].name == "tr" else { return nil }
    let cells = document.nodes[row].children.filter { !document.nodes[$0].isText }
    guard cells.allSatisfy({ document.nodes[$0].name == "th" }),
      let column = cells.firstIndex(of: index),
      let next = nextElement(after: row, in: document), document.nodes[next].name == "tr"
    else { return nil }
    let below = document.nodes[next].children.filter { !document.nodes[$0].isText }
    return column < below.count ? below[column] : nil
  }

  /// The text node right after an element, when it holds more than whitespace.
  private static func textAfter(_ index: Int, in document: HTMLDocument) -> String? {
    let parent = document.nodes[index].parent
    guard parent >= 0, let position = document.nodes[parent].children.firstIndex(of: index),
      position + 1 < document.nodes[parent].children.count
    else { return nil }
    let next = document.nodes[document.nodes[parent].children[position + 1]]
    guard next.isText else { return nil }
    let text = HTMLText.collapse(next.text)
    return text.isEmpty ? nil : text
  }

  private static func nextElement(after index: Int, in document: HTMLDocument) -> Int? {
    let parent = document.nodes[index].parent
    guard parent >= 0 else { return nil }
    let siblings = document.nodes[parent].children
    guard let position = siblings.firstIndex(of: index) else { return nil }
    return siblings[(position + 1)...].first { !document.nodes[$0].isText }
  }

  private static func inSkipped(_ index: Int, document: HTMLDocument) -> Bool {
    document.ancestor(of: index) { HTMLText.skipped.contains($0.name) || $0.name == "nav" }
      != nil
  }
}
