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
    for element in value.arrayValue ?? [value] {
      if isSection(element) {
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
        return HTMLText.lines(string).map(step)
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
