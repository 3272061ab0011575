import JSON
import Recipes

/// Small hand-written pages and helpers shared by the recipe tests.
enum RecipePages {
  static func page(head: String = "", body: String = "") -> [UInt8] {
    Array("<!doctype html><html><head>\(head)</head><body>\(body)</body></html>".utf8)
  }

  static func ldJSON(_ json: String) -> String {
    "<script type=\"application/ld+json\">\(json)</script>"
  }

  static func recipes(_ html: [UInt8], url: String? = "https://example.com/r/1")
    throws(RecipeImportError)
    -> [JSONValue]
  {
    try RecipeExtractor.recipes(html: html, url: url)
  }

  /// The steps' texts, section names as lines of their own.
  static func lines(_ instructions: JSONValue?) -> [String] {
    var result: [String] = []
    for element in instructions?.arrayValue ?? [] {
      if element["@type"] == "HowToSection" {
        result.append(element["name"]?.stringValue ?? "")
        result.append(contentsOf: lines(element["itemListElement"]))
      } else {
        result.append(element["text"]?.stringValue ?? "")
      }
    }
    return result
  }

  static func strings(_ value: JSONValue?) -> [String] {
    value?.arrayValue?.compactMap(\.stringValue) ?? []
  }
}
