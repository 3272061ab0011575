import JSON

/// The last road, for pages with no recipe markup at all: an "Ingredients" heading followed by
/// a list, and a "Method"/"Instructions" heading followed by a list or paragraphs. Both must be
/// there, so an article that only mentions ingredients is not taken for a recipe.
enum HeadingRecipeReader {
  private static let ingredientWords = [
    "ingredient", "zutaten", "ingrédient", "ingredienti", "ingrediënten", "ingredientes",
  ]
  private static let methodWords = [
    "method", "instruction", "direction", "preparation", "procedure", "steps", "zubereitung",
    "préparation", "preparación", "preparazione", "bereiding",
  ]
  private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

  static func recipe(in document: HTMLDocument) -> JSONValue? {
    let order = document.descendants()
    var ingredients: [String] = []
    var steps: [String] = []
    for (position, index) in order.enumerated() where headings.contains(document.nodes[index].name)
    {
      let title = document.text(of: index).lowercased()
      guard title.count < 60 else { continue }
      if ingredients.isEmpty, ingredientWords.contains(where: { title.contains($0) }) {
        ingredients = items(after: position, in: order, document: document, paragraphs: false)
      } else if steps.isEmpty, methodWords.contains(where: { title.contains($0) }) {
        steps = items(after: position, in: order, document: document, paragraphs: true)
      }
    }
    guard ingredients.count >= 2, !steps.isEmpty else { return nil }
    var recipe: [String: JSONValue] = [
      "@type": "Recipe",
      "recipeIngredient": .array(ingredients.map(JSONValue.string)),
      "recipeInstructions": .array(steps.map(JSONValue.string)),
    ]
    if let h1 = order.first(where: { document.nodes[$0].name == "h1" }) {
      let name = document.text(of: h1)
      if !name.isEmpty { recipe["name"] = .string(name) }
    }
    return .object(recipe)
  }

  /// The items of the first list after the heading at `position`, before the next heading;
  /// or, when `paragraphs`, the paragraphs there if there is no list.
  private static func items(
    after position: Int, in order: [Int], document: HTMLDocument, paragraphs: Bool
  ) -> [String] {
    var texts: [String] = []
    for index in order[(position + 1)...].prefix(2_000) {
      let node = document.nodes[index]
      if headings.contains(node.name) { break }
      if document.ancestor(of: index, where: { $0.name == "ul" || $0.name == "ol" }) != nil {
        continue
      }
      if node.name == "ul" || node.name == "ol" {
        let lines = node.children.filter { document.nodes[$0].name == "li" }
          .map { document.text(of: $0) }.filter { !$0.isEmpty }
        if !lines.isEmpty { return lines }
      }
      if paragraphs, node.name == "p" {
        let text = document.text(of: index)
        if !text.isEmpty { texts.append(text) }
      }
    }
    return texts
  }
}
