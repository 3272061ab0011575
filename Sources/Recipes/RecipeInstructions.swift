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
    // One section around every step is no grouping ("Preparation": the steps).
    if elements.count == 1, isSection(elements[0]), let inner = elements[0]["itemListElement"] {
      elements = inner.arrayValue ?? [inner]
    }
    for element in elements {
      if let titled = titledStep(element) {
        flush()
        output.append(titled)
      } else if isSection(element) {
        flush()
        let steps = self.steps(element["itemListElement"], depth: 0)
        let name = element["name"].flatMap(RecipeNormalizer.text)
        if let name {
          output.append([
            "@type": "HowToSection", "name": .string(name),
            "itemListElement": .array(steps),
          ])
        } else {
          output.append(contentsOf: steps)
        }
      } else {
        pending.append(contentsOf: steps(element, depth: 0))
      }
    }
    flush()
    return output
  }

  /// A step with a title of its own ("Parboil the fries": "Once the water has boiled, ..."),
  /// as a section of that name holding the step; nil for steps without one (a number, or the
  /// text itself or its start, as many plugins write).
  private static func titledStep(_ value: JSONValue) -> JSONValue? {
    guard types(value).contains("HowToStep"), let name = value["name"]?.stringValue,
      let text = value["text"]?.stringValue
    else { return nil }
    let title = HTMLText.clean(name)
    let body = HTMLText.clean(text)
    guard title.contains(where: \.isLetter), !body.isEmpty, title.count < body.count,
      !body.hasPrefix(
        title.hasSuffix("...") || title.hasSuffix("…")
          ? String(title.prefix(while: { $0 != "." && $0 != "…" })) : title)
    else { return nil }
    return [
      "@type": "HowToSection", "name": .string(title),
      "itemListElement": [step(body)],
    ]
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
      return HTMLText.lines(string).map(step)
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
        return line.isEmpty ? [] : [step(line)]
      }
      if let text, text.arrayValue != nil { return steps(text, depth: depth + 1) }
      if let list = value["itemListElement"] { return steps(list, depth: depth + 1) }
      if let name = value["name"].flatMap(RecipeNormalizer.text) { return [step(name)] }
      return []
    default:
      return []
    }
  }

  private static func step(_ text: String) -> JSONValue {
    ["@type": "HowToStep", "text": .string(text)]
  }
}
