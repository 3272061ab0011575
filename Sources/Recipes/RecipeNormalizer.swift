import JSON

/// Turns a recipe as found (JSON-LD, or markup read into the same shape) into the normalised
/// schema.org `Recipe` the extractor returns.
enum RecipeNormalizer {
  static func normalise(_ raw: JSONValue, url: String?) -> JSONValue {
    var recipe: [String: JSONValue] = [:]
    let members = raw.objectValue ?? [:]
    // Everything else found, strings cleaned, passed through first; the known fields below
    // replace theirs. Names that are no schema.org terms but another recipe vocabulary's
    // ("instructions", "yields", "title", ...) are not passed through: a reader of either
    // vocabulary would take a page's stray `"instructions": []` for the recipe's steps.
    for (key, value) in members where key != "@context" && !notPassedThrough.contains(key) {
      recipe[key] = clean(value, depth: 0)
    }
    recipe["@type"] = "Recipe"
    if let name = members["name"].flatMap(text) ?? members["headline"].flatMap(text) {
      recipe["name"] = .string(withoutNamespace(name))
    }
    let ingredients = self.ingredients(members["recipeIngredient"] ?? members["ingredients"])
    if !ingredients.isEmpty {
      recipe["recipeIngredient"] = .array(ingredients.map(JSONValue.string))
    }
    let steps = RecipeInstructions.normalise(
      members["recipeInstructions"] ?? members["instructions"])
    if !steps.isEmpty { recipe["recipeInstructions"] = .array(steps) }
    var times: [String: String] = [:]
    for key in RecipeDuration.keys {
      recipe.removeValue(forKey: key)
      times[key] = members[key].flatMap(text)
    }
    for (key, value) in RecipeDuration.times(times) { recipe[key] = .string(value) }
    recipe.removeValue(forKey: "recipeYield")
    if let yield = yieldText(members["recipeYield"] ?? members["yield"]),
      let normalised = RecipeYield.normalise(yield)
    {
      recipe["recipeYield"] = .string(normalised)
    }
    recipe.removeValue(forKey: "image")
    if let image = RecipeImage.best(members["image"] ?? members["thumbnailUrl"], base: url) {
      recipe["image"] = .string(image)
    }
    for key in ["author", "keywords", "recipeCategory", "recipeCuisine"] {
      recipe.removeValue(forKey: key)
      if let value = members[key].map(names), !value.isEmpty { recipe[key] = .string(value) }
    }
    if let description = members["description"].flatMap(text) {
      recipe["description"] = .string(description)
    }
    if let link = members["url"]?.stringValue {
      recipe["url"] = .string(PageURL.resolve(link, base: url))
    } else if let url {
      recipe["url"] = .string(PageURL.absolute(url))
    }
    return .object(recipe)
  }

  /// A wiki page's title without its namespace ("Cookbook:Pumpkin Pie" → "Pumpkin Pie"): one
  /// capitalised word glued by a colon to a capitalised title.
  static func withoutNamespace(_ title: String) -> String {
    guard let colon = title.firstIndex(of: ":"), colon != title.startIndex else { return title }
    let prefix = title[..<colon]
    let rest = title[title.index(after: colon)...]
    guard prefix.count <= 20, prefix.first?.isUppercase == true,
      prefix.allSatisfy(\.isLetter), rest.first?.isUppercase == true
    else { return title }
    return String(rest)
  }

  /// Members read below rather than passed through: the lists, and the field names of
  /// recipe-scrapers' vocabulary that schema.org does not define.
  private static let notPassedThrough: Set<String> = [
    "recipeIngredient", "recipeInstructions",
    "ingredients", "instructions", "instructions_list", "title", "yields", "total_time",
  ]

  /// One line of text from a string, a number, the first of a list, or an object's name.
  static func text(_ value: JSONValue) -> String? {
    let result: String?
    switch value {
    case .string(let string): result = HTMLText.clean(string)
    case .number(let number):
      result = number == number.rounded() ? String(Int(number)) : String(number)
    case .array(let elements): result = elements.lazy.compactMap(text).first
    case .object:
      // A JSON-LD value object ({"@type": "Duration", "@value": "PT50M"}) is its value.
      result =
        value["name"].flatMap(text) ?? value["text"].flatMap(text)
        ?? value["@value"].flatMap(text)
    default: result = nil
    }
    return result?.isEmpty == false ? result : nil
  }

  /// Names of a list: "A, B" from strings, Persons, Things or comma lists.
  private static func names(_ value: JSONValue) -> String {
    var parts: [String] = []
    for element in value.arrayValue ?? [value] {
      guard let part = text(element) else { continue }
      if !parts.contains(part) { parts.append(part) }
    }
    return parts.joined(separator: ", ")
  }

  /// The yield to normalise: the first entry that counts in a unit, else the first.
  private static func yieldText(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    let entries = (value.arrayValue ?? [value]).compactMap { entry in
      // A QuantitativeValue: {"value": 6, "unitText": "servings"}.
      entry["value"].flatMap(text).map { number in
        [number, entry["unitText"].flatMap(text)].compactMap { $0 }.joined(separator: " ")
      } ?? text(entry)
    }
    // Of several, the first that counts in a unit ("15 fritters"), else the first.
    return entries.first(where: RecipeYield.hasUnit) ?? entries.first
  }

  private static func ingredients(_ value: JSONValue?) -> [String] {
    guard let value else { return [] }
    // Groups given as nested lists are flattened (the page's group names are not kept).
    var entries: [JSONValue] = []
    var stack = [value]
    while let current = stack.popLast(), entries.count < 10_000 {
      if let elements = current.arrayValue {
        stack.append(contentsOf: elements.reversed())
      } else {
        entries.append(current)
      }
    }
    let lines =
      entries.count == 1 && entries[0].stringValue != nil
      ? HTMLText.lines(entries[0].stringValue!).map(HTMLText.tidy)
      : entries.compactMap(text).filter { !isLabelLine($0) }.map(HTMLText.tidy)
    // Group names written among the lines ("For the glaze:", "MASHED POTATOES") are no
    // ingredients: a line without a number that ends in a colon, or is all capitals where
    // most lines are not.
    let capitals = lines.filter(isCapitals).count
    let kept = lines.filter { line in
      guard !line.contains(where: \.isNumber) else { return true }
      return !(line.hasSuffix(":") || (isCapitals(line) && capitals * 2 < lines.count))
    }
    return kept.isEmpty ? lines : kept
  }

  /// Whether a line has three letters or more outside brackets, all of them capitals
  /// ("DRESSING (whisk together)").
  private static func isCapitals(_ line: String) -> Bool {
    var depth = 0
    var letters = 0
    for character in line {
      if character == "(" { depth += 1 }
      if character == ")" { depth = max(0, depth - 1) }
      guard depth == 0, character.isLetter else { continue }
      if !character.isUppercase { return false }
      letters += 1
    }
    return letters >= 3
  }

  /// "Ingredients: Beef, Garlic" (a page's list of ingredient tags marked like ingredients):
  /// a line that starts by naming the field is a label, not an ingredient.
  private static func isLabelLine(_ line: String) -> Bool {
    let lower = line.lowercased()
    return lower.hasPrefix("ingredients:") || lower.hasPrefix("ingredients :")
  }

  /// Strings of a passed-through value cleaned (entities, tags, whitespace).
  private static func clean(_ value: JSONValue, depth: Int) -> JSONValue {
    guard depth < 16 else { return .null }
    switch value {
    case .string(let string): return .string(HTMLText.clean(string))
    case .array(let elements): return .array(elements.map { clean($0, depth: depth + 1) })
    case .object(let members): return .object(members.mapValues { clean($0, depth: depth + 1) })
    default: return value
    }
  }
}
