import JSON
import Recipes

extension FuzzTarget {
  /// Any bytes as a recipe page: recipes come out or a clear error, never a crash; each recipe
  /// serializes to JSON that parses back equal, and each ingredient line parses.
  static func recipe(_ bytes: [UInt8]) {
    guard let recipes = try? RecipeExtractor.recipes(html: bytes, url: "https://example.com/r")
    else { return }
    for recipe in recipes {
      let text = recipe.serialized()
      guard let again = try? JSONValue.parse(text, maxDepth: 128) else {
        preconditionFailure(
          "a recipe's JSON does not parse: \(String(decoding: text, as: UTF8.self))")
      }
      precondition(again == recipe, "a recipe changed in a serialize-parse round trip")
      if case .array(let lines)? = recipe["recipeIngredient"] {
        for line in lines { _ = line.stringValue.map(IngredientLine.parse) }
      }
    }
  }
}
