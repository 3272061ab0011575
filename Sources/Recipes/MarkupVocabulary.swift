import JSON

/// One way of marking up items with properties in HTML attributes: microdata, RDFa or
/// microformats. `MarkupItemReader` walks a page with it.
struct MarkupVocabulary: Sendable {
  /// Whether an element starts an item (its properties are not its parent item's).
  var startsItem: @Sendable (HTMLNode) -> Bool
  /// Whether the item an element starts is a recipe.
  var isRecipe: @Sendable (HTMLNode) -> Bool
  /// The schema.org type the item an element starts has ("Recipe", "Person", ...).
  var type: @Sendable (HTMLNode) -> String?
  /// The schema.org property names an element gives a value to (none for most elements).
  var properties: @Sendable (HTMLNode) -> [String]

  /// The last segment of a type or property IRI: "http://schema.org/Recipe" → "Recipe",
  /// "schema:name" → "name".
  static func localName(_ token: some StringProtocol) -> String {
    var name = Substring(token)
    if let slash = name.lastIndex(where: { $0 == "/" || $0 == "#" }) {
      name = name[name.index(after: slash)...]
    }
    if let colon = name.lastIndex(of: ":") { name = name[name.index(after: colon)...] }
    return String(name)
  }

  /// Whether a type token names a schema.org Recipe: its last segment is "Recipe", in any case
  /// ("http://schema.org/Recipe", "schema:recipe"); "NotRecipe" is not one (before, any type
  /// ending in "Recipe" was).
  static func isRecipeType(_ token: some StringProtocol) -> Bool {
    localName(token).lowercased() == "recipe"
  }

  /// schema.org microdata: `itemscope`, `itemtype`, `itemprop`.
  static let microdata = MarkupVocabulary(
    startsItem: { $0.attribute("itemscope") != nil },
    isRecipe: { node in node.tokens("itemtype").contains { isRecipeType($0) } },
    type: { node in node.tokens("itemtype").first.map { localName($0) } },
    properties: { node in node.tokens("itemprop").map { localName($0) } })

  /// RDFa (Lite and 1.1) with the schema.org vocabulary: `typeof`, `property`.
  static let rdfa = MarkupVocabulary(
    startsItem: { $0.attribute("typeof") != nil },
    isRecipe: { node in node.tokens("typeof").contains { isRecipeType($0) } },
    type: { node in node.tokens("typeof").first.map { localName($0) } },
    properties: { node in
      node.tokens("property").filter { !$0.hasPrefix("og:") }.map { localName($0) }
    })

  /// Microformats: h-recipe (microformats2) and hRecipe (classic), mapped to schema.org names.
  static let microformats = MarkupVocabulary(
    startsItem: { node in
      node.tokens("class").contains { $0 == "hrecipe" || $0.hasPrefix("h-") }
    },
    isRecipe: { node in node.tokens("class").contains { $0 == "hrecipe" || $0 == "h-recipe" } },
    type: { node in
      node.tokens("class").contains { $0 == "hrecipe" || $0 == "h-recipe" } ? "Recipe" : nil
    },
    properties: { node in node.tokens("class").compactMap { microformatNames[String($0)] } })

  private static let microformatNames: [String: String] = [
    "fn": "name", "p-name": "name", "ingredient": "recipeIngredient",
    "p-ingredient": "recipeIngredient", "instructions": "recipeInstructions",
    "e-instructions": "recipeInstructions", "yield": "recipeYield", "p-yield": "recipeYield",
    "duration": "totalTime", "dt-duration": "totalTime", "p-duration": "totalTime",
    "preptime": "prepTime", "cooktime": "cookTime", "photo": "image", "u-photo": "image",
    "summary": "description", "p-summary": "description", "author": "author",
    "p-author": "author", "category": "recipeCategory", "p-category": "recipeCategory",
    "tag": "keywords", "published": "datePublished", "dt-published": "datePublished",
    "nutrition": "nutrition", "p-nutrition": "nutrition",
  ]
}
