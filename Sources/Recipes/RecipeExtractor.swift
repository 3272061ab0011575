import JSON

/// Every schema.org Recipe found in a page, normalised, in page order.
///
/// Roads, in order: JSON-LD, microdata, microformats (h-recipe, hRecipe), RDFa (a recipe one
/// vocabulary marks takes the fields it lacks from another marking the same element), then
/// (pages with no markup) an "Ingredients" heading (or any element whose whole text names the
/// section) with lists or lines and a "Method" heading or numbered step headings, the first
/// list of quantities with the paragraphs after it, lists named by their class
/// ("ingredients", "instructions"), or a "Recipe" heading with a list and paragraphs, then
/// the page's application state (JSON its scripts keep: `AppStateReader`); the first that
/// finds a recipe wins. Open Graph and the page's own title and
/// images fill a recipe's missing name, image and description, and labelled text ("Serves 4",
/// "Prep Time: 35m") its missing yield and times. No code for any particular site.
public enum RecipeExtractor {
  /// What a page without a recipe is said to lack.
  public static let notFound = "no schema.org Recipe, h-recipe or microdata found"

  /// The recipes of `html` (bytes of a page, UTF-8 or what its `<meta charset>` says), each a
  /// schema.org `Recipe` object; `url` is the page's address, used to resolve relative image
  /// links and as the recipe's `url` when the page gives none.
  public static func recipes(html: [UInt8], url: String?) throws(RecipeImportError) -> [JSONValue] {
    let document = HTMLDocument(bytes: html)
    var found = rawRecipes(in: document)
    if found.isEmpty { found = JSONLDReader.recipes(inRaw: html).filter(hasContent) }
    guard !found.isEmpty else {
      throw RecipeImportError(
        "\(notFound) (looked for JSON-LD, microdata, h-recipe/hRecipe, RDFa, and headings "
          + "or lists named for ingredients and method)")
    }
    let page = PageFallback(document: document)
    return found.enumerated().map { offset, raw in
      var recipe = RecipeNormalizer.normalise(raw, url: url)
      if offset == 0, case .object(var members) = recipe,
        let names = members["recipeIngredient"]?.arrayValue?.compactMap(\.stringValue),
        let rows = RenderedIngredients.rows(for: names, in: document)
      {
        // Markup that names only the ingredients: the rows the page shows with amounts.
        members["recipeIngredient"] = .array(rows.map { .string(HTMLText.tidy($0)) })
        recipe = .object(members)
      }
      return page.fill(
        recipe, ownImages: raw["image"] ?? raw["thumbnailUrl"], url: url, main: offset == 0)
    }
  }

  /// The recipes as the page gives them, before normalising (for the dev tools).
  package static func rawRecipes(html: [UInt8]) -> [JSONValue] {
    rawRecipes(in: HTMLDocument(bytes: html))
  }

  private static func rawRecipes(in document: HTMLDocument) -> [JSONValue] {
    var found = JSONLDReader.recipes(in: document)
    if found.isEmpty { found = markupRecipes(in: document) }
    found = sameRecipesMerged(found.filter(hasContent))
    if found.isEmpty, let recipe = HeadingRecipeReader.recipe(in: document) { found = [recipe] }
    // A page whose recipe is only in its scripts' state: no markup, no text to read.
    if found.isEmpty, let recipe = AppStateReader.recipe(in: document) { found = [recipe] }
    if found.count == 1, var members = found[0].objectValue, lacksListsOfItsOwn(members),
      let page = HeadingRecipeReader.recipe(in: document)?.objectValue
        ?? AppStateReader.recipe(in: document)?.objectValue
    {
      // Markup that names the recipe but not its lists: the page's headed or class-named
      // lists give the ingredients and steps it lacks.
      if !hasText(members["recipeIngredient"] ?? members["ingredients"]) {
        members["recipeIngredient"] = page["recipeIngredient"]
      }
      if !hasText(members["recipeInstructions"]) {
        members["recipeInstructions"] = page["recipeInstructions"]
      }
      found[0] = .object(members)
    }
    return found
  }

  /// Recipes marked up in attributes: those of the first vocabulary that has any, each with
  /// the fields it lacks taken from a recipe another vocabulary marks on the same element or
  /// around it (a page marking its recipe with microdata for the name and image and with
  /// hRecipe classes for the ingredients and steps).
  private static func markupRecipes(in document: HTMLDocument) -> [JSONValue] {
    let marked = [MarkupVocabulary.microdata, .microformats, .rdfa].map {
      MarkupItemReader(document: document, vocabulary: $0).rootedRecipes()
    }
    guard let primary = marked.firstIndex(where: { !$0.isEmpty }) else { return [] }
    return marked[primary].map { root, value in
      guard var members = value.objectValue else { return value }
      for (offset, others) in marked.enumerated() where offset != primary {
        for other in others where related(root, other.root, in: document) {
          for (key, field) in other.value.objectValue ?? [:] where members[key] == nil {
            members[key] = field
          }
        }
      }
      return .object(members)
    }
  }

  /// Whether two elements are one, or one holds the other.
  private static func related(_ first: Int, _ second: Int, in document: HTMLDocument) -> Bool {
    first == second || isAncestor(first, of: second, in: document)
      || isAncestor(second, of: first, in: document)
  }

  private static func isAncestor(_ candidate: Int, of index: Int, in document: HTMLDocument)
    -> Bool
  {
    var current = document.nodes[index].parent
    while current >= 0 {
      if current == candidate { return true }
      current = document.nodes[current].parent
    }
    return false
  }

  /// `recipes` with each one that lacks its lists merged into a recipe of the same name that
  /// has them, where the first of the two stood: one recipe described twice (a page's SEO
  /// plugin writes a summary, its recipe plugin the whole). The whole one's fields win; the
  /// summary fills those it lacks.
  private static func sameRecipesMerged(_ recipes: [JSONValue]) -> [JSONValue] {
    guard recipes.count > 1 else { return recipes }
    // NB: each name is read once, and the whole recipes are found by name: a page may hold
    // thousands of recipes, and comparing each with every other was quadratic.
    let names = recipes.map { recipe -> String? in
      guard let name = recipe["name"]?.stringValue else { return nil }
      let key = HTMLText.collapse(HTMLText.clean(name)).lowercased()
      return key.isEmpty ? nil : key
    }
    let summaries = recipes.map { $0.objectValue.map(lacksListsOfItsOwn) ?? false }
    var wholeByName: [String: Int] = [:]
    for index in recipes.indices where !summaries[index] && recipes[index].objectValue != nil {
      if let name = names[index], wholeByName[name] == nil { wholeByName[name] = index }
    }
    var merged = recipes.map(Optional.some)
    for index in recipes.indices where summaries[index] {
      guard let name = names[index], let whole = wholeByName[name],
        let summary = recipes[index].objectValue, var members = merged[whole]?.objectValue
      else { continue }
      for (field, value) in summary where !hasText(members[field]) { members[field] = value }
      merged[whole] = nil
      merged[index] = nil
      merged[min(index, whole)] = .object(members)
      wholeByName[name] = min(index, whole)
    }
    return merged.compactMap { $0 }
  }

  /// Whether a recipe lacks its ingredients or its steps (an empty list, `[null]` or `[""]`
  /// lacks them as much as a missing one).
  private static func lacksListsOfItsOwn(_ members: [String: JSONValue]) -> Bool {
    !hasText(members["recipeIngredient"] ?? members["ingredients"])
      || !hasText(members["recipeInstructions"])
  }

  /// Whether a field holds any text: a non-blank string or number somewhere inside it.
  private static func hasText(_ value: JSONValue?, depth: Int = 0) -> Bool {
    guard let value, depth < 16 else { return false }
    switch value {
    case .string(let string): return string.contains { !$0.isWhitespace }
    case .number: return true
    case .array(let elements): return elements.contains { hasText($0, depth: depth + 1) }
    case .object(let members):
      return members.contains { key, field in key != "@type" && hasText(field, depth: depth + 1) }
    default: return false
    }
  }

  /// A recipe worth returning: it has a name, ingredients or instructions.
  private static func hasContent(_ raw: JSONValue) -> Bool {
    ["name", "recipeIngredient", "ingredients", "recipeInstructions"].contains { raw[$0] != nil }
  }
}
