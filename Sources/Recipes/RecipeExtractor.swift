import JSON

/// Every schema.org Recipe found in a page, normalised, in page order.
///
/// Roads, in order: JSON-LD, microdata, microformats (h-recipe, hRecipe), RDFa, then (pages
/// with no markup) an "Ingredients" heading with a list and a "Method" heading; the first that
/// finds a recipe wins. Open Graph and the page's own title and images fill a recipe's missing
/// name, image and description. No code for any particular site.
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
          + "for ingredients and method)")
    }
    let page = PageFallback(document: document)
    return found.enumerated().map { offset, raw in
      page.fill(RecipeNormalizer.normalise(raw, url: url), url: url, main: offset == 0)
    }
  }

  /// The recipes as the page gives them, before normalising (for the dev tools).
  package static func rawRecipes(html: [UInt8]) -> [JSONValue] {
    rawRecipes(in: HTMLDocument(bytes: html))
  }

  private static func rawRecipes(in document: HTMLDocument) -> [JSONValue] {
    var found = JSONLDReader.recipes(in: document)
    for vocabulary in [MarkupVocabulary.microdata, .microformats, .rdfa] where found.isEmpty {
      found = MarkupItemReader(document: document, vocabulary: vocabulary).recipes()
    }
    found = found.filter(hasContent)
    if found.isEmpty, let recipe = HeadingRecipeReader.recipe(in: document) { found = [recipe] }
    return found
  }

  /// A recipe worth returning: it has a name, ingredients or instructions.
  private static func hasContent(_ raw: JSONValue) -> Bool {
    ["name", "recipeIngredient", "ingredients", "recipeInstructions"].contains { raw[$0] != nil }
  }
}
