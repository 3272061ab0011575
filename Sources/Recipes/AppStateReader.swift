import JSON

/// A recipe a page keeps only in its application state: the JSON a script framework embeds
/// for its own use, with no recipe markup and no text to read. Looked at: `<script>`s of a
/// JSON type (not JSON-LD), the chunks a streaming renderer pushes
/// (`self.__next_f.push([1,"5:{...}"])`, rows of `ID:JSON`), and attributes holding a JSON
/// object (`data-page="{...}"`). The first object with both a list named for ingredients and
/// a list named for steps is the recipe: ingredient lines from their own text, or from
/// amount, unit and name; steps from their text; groups of either read in order.
enum AppStateReader {
  /// At most this many bytes of JSON are parsed for one page (a hostile page costs no more).
  private static let budget = 4 << 20

  static func recipe(in document: HTMLDocument) -> JSONValue? {
    var spent = 0
    for text in jsonTexts(in: document) {
      guard spent + text.utf8.count <= budget else { break }
      spent += text.utf8.count
      guard let value = try? JSONValue.parse(text, maxDepth: 128) else { continue }
      if let recipe = find(in: value, depth: 0) { return recipe }
    }
    return nil
  }

  /// The JSON texts of the page, in page order.
  private static func jsonTexts(in document: HTMLDocument) -> [String] {
    var texts: [String] = []
    var stream = ""
    for index in document.descendants() {
      let node = document.nodes[index]
      for attribute in node.attributes where attribute.value.utf8.count >= 100 {
        if attribute.value.first == "{" { texts.append(attribute.value) }
      }
      guard node.name == "script" else { continue }
      let body = node.children.map { document.nodes[$0].text }.joined()
      let type = (node.attribute("type") ?? "").lowercased()
      if type.contains("json"), !type.contains("ld+json") {
        texts.append(body)
      } else if let chunk = pushedChunk(body) {
        stream += chunk
      }
    }
    // The pushed chunks make one stream of rows, "ID:" and a value each.
    for row in stream.split(separator: "\n") {
      guard let colon = row.firstIndex(of: ":") else { continue }
      let value = row[row.index(after: colon)...]
      if value.first == "{" || value.first == "[" { texts.append(String(value)) }
    }
    return texts
  }

  /// The string a script pushes to a streaming renderer's queue: `self.__next_f.push([1,"..."])`.
  private static func pushedChunk(_ script: String) -> String? {
    guard let start = script.firstRange(of: ".push(")?.upperBound,
      let end = script.lastIndex(of: ")"), start < end,
      let array = try? JSONValue.parse(String(script[start..<end])),
      let chunk = array[1]?.stringValue
    else { return nil }
    return chunk
  }

  private static func find(in value: JSONValue, depth: Int) -> JSONValue? {
    guard depth < 96 else { return nil }
    switch value {
    case .array(let elements):
      for element in elements {
        if let recipe = find(in: element, depth: depth + 1) { return recipe }
      }
    case .object(let members):
      if let recipe = recipe(from: members) { return recipe }
      for key in members.keys.sorted() {
        if let recipe = find(in: members[key]!, depth: depth + 1) { return recipe }
      }
    default:
      break
    }
    return nil
  }

  /// A recipe from an object with a list of ingredients and a list of steps, or nil.
  private static func recipe(from members: [String: JSONValue]) -> JSONValue? {
    func list(_ names: [String]) -> [JSONValue]? {
      members.keys.sorted().lazy.filter { key in
        let lower = key.lowercased()
        return names.contains { lower.contains($0) }
      }.compactMap { members[$0]?.arrayValue }.first { !$0.isEmpty }
    }
    guard let ingredients = list(["ingredient"]),
      let steps = list(["instruction", "step", "direction", "method", "preparation"])
    else { return nil }
    var lines: [String] = []
    walk(ingredients, groups: ["ingredient"], into: &lines, depth: 0, line: ingredientLine)
    var stepLines: [String] = []
    walk(steps, groups: ["instruction", "step"], into: &stepLines, depth: 0, line: stepText)
    guard !lines.isEmpty, !stepLines.isEmpty else { return nil }
    var recipe: [String: JSONValue] = [
      "@type": "Recipe",
      "recipeIngredient": .array(lines.map { .string($0) }),
      "recipeInstructions": .array(stepLines.map { .string($0) }),
    ]
    if let name = (members["name"] ?? members["title"])?.stringValue {
      recipe["name"] = .string(name)
    }
    // Times in minutes under keys that say so ("preparationTimeInMinutes"): the longest.
    let minutes = members.compactMap { key, value -> Double? in
      let lower = key.lowercased()
      return lower.contains("time") && lower.contains("minute") ? value.doubleValue : nil
    }.max()
    if let minutes, minutes > 0 {
      recipe["totalTime"] = .string(RecipeDuration.iso(minutes: Int(minutes.rounded())))
    }
    return .object(recipe)
  }

  /// The lines of `items`: a string as it is, an object's member list whose key names one of
  /// `groups` as a group of its own (walked the same way), any other object as `line` makes it.
  private static func walk(
    _ items: [JSONValue], groups: [String], into lines: inout [String], depth: Int,
    line: ([String: JSONValue]) -> String?
  ) {
    guard depth < 8 else { return }
    for item in items {
      let text: String?
      if let string = item.stringValue {
        text = HTMLText.collapse(string)
      } else if let members = item.objectValue {
        if let group = members.first(where: { key, value in
          let lower = key.lowercased()
          return groups.contains { lower.contains($0) } && value.arrayValue != nil
        })?.value.arrayValue {
          walk(group, groups: groups, into: &lines, depth: depth + 1, line: line)
          continue
        }
        text = line(members)
      } else {
        text = nil
      }
      if let text, !text.isEmpty { lines.append(text) }
    }
  }

  /// "3 Stk. Pak Choi": the item's own text, or its amount, unit and name.
  private static func ingredientLine(_ members: [String: JSONValue]) -> String {
    for key in ["text", "display", "displayText", "original", "raw", "line"] {
      if let text = members[key]?.stringValue, !text.isEmpty { return HTMLText.collapse(text) }
    }
    func first(_ words: [String]) -> JSONValue? {
      members.keys.sorted().first { key in
        let lower = key.lowercased()
        return words.contains { lower.contains($0) } && !(members[key]?.isNull ?? true)
      }.flatMap { members[$0] }
    }
    var parts: [String] = []
    switch first(["quantity", "amount"]) {
    case .number(let number)?:
      parts.append(number == number.rounded() ? String(Int(number)) : String(number))
    case .string(let text)?: parts.append(text)
    default: break
    }
    if let unit = first(["unit"]) {
      if let text = unit.stringValue ?? name(of: unit) { parts.append(text) }
    }
    if let name = members["name"]?.stringValue ?? members["ingredient"].flatMap(name(of:)) {
      parts.append(name)
    }
    return HTMLText.collapse(parts.joined(separator: " "))
  }

  private static func name(of value: JSONValue) -> String? {
    if let text = value.stringValue { return text }
    for key in ["name", "abbreviation", "name_singular", "title"] {
      if let text = value[key]?.stringValue, !text.isEmpty { return text }
    }
    return nil
  }

  /// A step's own text, under the first of the usual keys that holds one.
  private static func stepText(_ members: [String: JSONValue]) -> String? {
    for key in ["text", "body", "instruction", "description", "content"] {
      if let text = members[key]?.stringValue { return HTMLText.collapse(text) }
    }
    return nil
  }
}
