import JSON

/// recipeInstructions in every form pages use (one string, HTML, a list of strings,
/// HowToStep, HowToSection, ItemList) as a list of `HowToStep`s and named `HowToSection`s.
enum RecipeInstructions {
  static func normalise(_ value: JSONValue?) -> [JSONValue] {
    guard let value else { return [] }
    var output: [JSONValue] = []
    var pending: [JSONValue] = []
    func flush() {
      output.append(contentsOf: pending)
      pending.removeAll()
    }
    var elements = value.arrayValue ?? [value]
    // One section around every step that only names the method is no grouping
    // ("Preparation": the steps). One with a name of its own ("For the filling") is kept, as
    // the sites' own pages and recipe-scrapers' reading keep it.
    if elements.count == 1, isSection(elements[0]), let inner = elements[0]["itemListElement"],
      elements[0]["name"].flatMap(RecipeNormalizer.text).map(HeadingRecipeReader.isMethodTitle)
        ?? true
    {
      elements = inner.arrayValue ?? [inner]
    }
    for element in elements {
      if let titled = titledStep(element) {
        flush()
        output.append(titled)
      } else if isSection(element) {
        flush()
        let steps = sectionSteps(element["itemListElement"])
        let name = element["name"].flatMap(RecipeNormalizer.text)
        if let name {
          output.append([
            "@type": "HowToSection", "name": .string(name),
            "itemListElement": .array(steps),
          ])
        } else {
          output.append(contentsOf: steps)
        }
      } else if elements.count > 1, let string = element.stringValue {
        let line = HTMLText.clean(string)
        if !line.isEmpty { pending.append(contentsOf: (numberedRun(line) ?? [line]).map(step)) }
      } else {
        pending.append(contentsOf: steps(element, depth: 0))
      }
    }
    flush()
    return output.filter { !isStepLabel($0) && !isPunctuation($0) }
  }

  /// A step with no letter or digit ("," left between steps a page joined into one text
  /// with ", "): no step.
  private static func isPunctuation(_ value: JSONValue) -> Bool {
    guard let text = value["text"]?.stringValue else { return false }
    return !text.contains { $0.isLetter || $0.isNumber }
  }

  /// A step that is only its own number's label ("Step 2", "Stap 3:", "1:", "4."): a heading
  /// the page draws above each step, not a step.
  private static func isStepLabel(_ value: JSONValue) -> Bool {
    guard let text = value["text"]?.stringValue, text.dropFirst(12).isEmpty,
      text.utf8.contains(where: { $0 >= 0x80 || (0x30...0x39).contains($0) })
    else {
      // Plain ASCII without a digit numbers nothing: answered from its bytes, before the
      // Characters below (150,000 short lines "Stir" spent a third of an import there).
      return false
    }
    var rest = Substring(HTMLText.collapse(text).lowercased())
    if let word = HeadingRecipeReader.stepWords.first(where: { rest.hasPrefix($0) }) {
      rest = rest.dropFirst(word.count).drop { $0 == " " }
    }
    guard rest.first?.isNumber == true else { return false }
    rest = rest.drop(while: \.isNumber)
    return rest.isEmpty || rest == ":" || rest == "." || rest == ")"
  }

  /// A step with a title of its own ("Parboil the fries": "Once the water has boiled, ..."),
  /// as a section of that name holding the step; nil for steps without one (a number, a label
  /// ending in the step's number such as "Step 1" or "stap 2", or the text itself or its
  /// start, as many plugins write).
  private static func titledStep(_ value: JSONValue) -> JSONValue? {
    guard types(value).contains("HowToStep"), let name = value["name"]?.stringValue,
      let text = value["text"]?.stringValue
    else { return nil }
    let title = HTMLText.clean(name)
    let body = HTMLText.clean(text)
    // The title as the text would start: cut before an ellipsis ("Preheat the oven..."), and
    // without its full stop ("Bake." over "Bake for 45 minutes").
    let start =
      title.hasSuffix("...") || title.hasSuffix("…")
      ? String(title.prefix(while: { $0 != "." && $0 != "…" }))
      : String(title.dropLast(title.reversed().prefix(while: { $0 == "." }).count))
    guard title.contains(where: \.isLetter), title.last?.isNumber != true, !body.isEmpty,
      title.count < body.count, !body.hasPrefix(start)
    else { return nil }
    return [
      "@type": "HowToSection", "name": .string(title),
      "itemListElement": [step(body)],
    ]
  }

  /// The steps of a section: its plain steps, and each step with a title of its own
  /// (`titledStep`) or named section inside it as a section of that name within it. Before,
  /// the titles of steps inside a section were dropped ("For the sauce": "Make tomato sauce":
  /// "Scoop out the tomatoes"), where recipe-scrapers' reading and the sites' own keep them.
  private static func sectionSteps(_ value: JSONValue?) -> [JSONValue] {
    guard let value else { return [] }
    return (value.arrayValue ?? [value]).flatMap { element -> [JSONValue] in
      if let titled = titledStep(element) { return [titled] }
      guard isSection(element), let name = element["name"].flatMap(RecipeNormalizer.text) else {
        return steps(element, depth: 1)
      }
      let inner = steps(element["itemListElement"], depth: 1)
      return [["@type": "HowToSection", "name": .string(name), "itemListElement": .array(inner)]]
    }
  }

  private static func isSection(_ value: JSONValue) -> Bool {
    types(value).contains("HowToSection")
  }

  private static func types(_ value: JSONValue) -> [String] {
    switch value["@type"] {
    case .string(let type): [type]
    case .array(let types): types.compactMap(\.stringValue)
    default: []
    }
  }

  /// Steps of one value: a string split into lines, a step's text, a list's elements.
  private static func steps(_ value: JSONValue?, depth: Int) -> [JSONValue] {
    guard let value, depth < 8 else { return [] }
    switch value {
    case .string(let string):
      let lines = HTMLText.lines(string)
      return (lines.count == 1 ? numberedRun(lines[0]) ?? sentences(lines[0]) : lines).map(step)
    case .array(let elements):
      return elements.flatMap { steps($0, depth: depth + 1) }
    case .object:
      if isSection(value) {
        var result: [JSONValue] = []
        if let name = value["name"].flatMap(RecipeNormalizer.text) { result.append(step(name)) }
        return result + steps(value["itemListElement"], depth: depth + 1)
      }
      let text = value["text"] ?? value["description"]
      if let text, let string = text.stringValue {
        let line = HTMLText.clean(string)
        return line.isEmpty ? [] : (numberedRun(line) ?? [line]).map(step)
      }
      if let text, text.arrayValue != nil { return steps(text, depth: depth + 1) }
      if let list = value["itemListElement"] { return steps(list, depth: depth + 1) }
      if let name = value["name"].flatMap(RecipeNormalizer.text) { return [step(name)] }
      return []
    default:
      return []
    }
  }

  /// One line whose sentences run together without a space ("200 degrees.Heat the oil"):
  /// its line breaks were lost on the way (tags stripped), so it is split where they were,
  /// at the glued sentence ends; sentences a space apart stay one step. Any other line is
  /// one step.
  static func sentences(_ line: String) -> [String] {
    let units = TextUnits(line)
    func ends(_ index: Int) -> Bool {
      units.isOne(of: ".!?", at: index)
        || (units.isOne(of: ")", at: index) && index > 0 && units.isOne(of: ".!?", at: index - 1))
    }
    let glued = units.indices.dropFirst().dropLast().contains { index in
      units.isOne(of: ".", at: index) && units[index - 1].isLowercaseLetter
        && units[index + 1].isUppercaseLetter
    }
    guard glued else { return [line] }
    var result: [String] = []
    var start = 0
    for index in units.indices.dropLast() where ends(index) {
      let next = index + 1
      if units.isOne(of: ")", at: next) { continue }
      guard units[next].isUppercaseLetter else { continue }
      result.append(HTMLText.collapse(units.string(start..<next)))
      start = next
    }
    result.append(HTMLText.collapse(units.string(start..<units.count)))
    return result.filter { !$0.isEmpty }
  }

  /// One line that holds numbered steps run together ("1. Make the dressing.2. Boil the
  /// pasta. 3. Melt the butter", "1.番茄切丁 2.土豆切丁"): the steps, without their numbers.
  /// The numbers must count up from 1 at the line's start, at least to 3, each after a space
  /// or a sentence's end and before no digit ("2.5 cups" is no step); else nil.
  static func numberedRun(_ line: String) -> [String]? {
    // The run starts the line: a line that does not start with "1." is none.
    guard let dot = line.utf8.firstIndex(where: { !(0x30...0x39).contains($0) }),
      line.utf8[dot] == UInt8(ascii: "."), Int(line[..<dot]) == 1
    else { return nil }
    let units = TextUnits(line)
    func isDigit(_ index: Int) -> Bool { units.isASCII(index) && units[index].isDigit }
    var markers: [(start: Int, end: Int)] = []
    var index = 0
    while index < units.count {
      let startsRun =
        index == 0 || units[index - 1].isSpace || units.isOne(of: ".!?)", at: index - 1)
        || (!units.isASCII(index - 1) && units[index - 1].isLetter)
      guard isDigit(index), startsRun else {
        index += 1
        continue
      }
      var end = index
      while end < units.count, isDigit(end) { end += 1 }
      let number = Int(units.string(index..<end)) ?? 0
      if number == markers.count + 1, end < units.count, units.isOne(of: ".", at: end),
        end + 1 == units.count || !units[end + 1].isNumeral
      {
        markers.append((index, end + 1))
      }
      index = end
    }
    guard markers.count >= 3, markers[0].start == 0 else { return nil }
    return markers.indices.map { position in
      let stop = position + 1 < markers.count ? markers[position + 1].start : units.count
      return HTMLText.collapse(units.string(markers[position].end..<stop))
    }.filter { !$0.isEmpty }
  }

  private static func step(_ text: String) -> JSONValue {
    ["@type": "HowToStep", "text": .string(text)]
  }
}
