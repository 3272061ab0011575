import JSON
import Recipes
import Testing

@Suite("Hostile pages")
struct HostileInputTests {
  @Test("100,000 nested divs around a recipe neither overflow the stack nor hide it")
  func deepNesting() throws {
    let depth = 100_000
    let html =
      "<html><head>"
      + RecipePages.ldJSON(#"{"@type":"Recipe","name":"Deep","recipeIngredient":["x"]}"#)
      + "</head><body>" + String(repeating: "<div>", count: depth) + "text"
      + String(repeating: "</div>", count: depth) + "</body></html>"
    let recipes = try RecipePages.recipes(Array(html.utf8))
    #expect(recipes.first?["name"] == "Deep")
    let microdata =
      "<div itemscope itemtype=\"http://schema.org/Recipe\"><span itemprop=\"name\">M</span>"
      + String(repeating: "<div>", count: depth) + String(repeating: "</div>", count: depth)
      + "</div>"
    #expect(try RecipePages.recipes(Array(microdata.utf8)).first?["name"] == "M")
  }

  @Test("a recipe after 100,000 nested divs (past where libxml2 stops the tree) is still found")
  func recipeAfterDeepNesting() throws {
    let depth = 100_000
    let html =
      "<html><body>" + String(repeating: "<div>", count: depth)
      + RecipePages.ldJSON(#"{"@type":"Recipe","name":"Below","recipeIngredient":["z"]}"#)
      + String(repeating: "</div>", count: depth) + "</body></html>"
    let recipes = try RecipePages.recipes(Array(html.utf8))
    #expect(recipes.first?["name"] == "Below")
    #expect(RecipePages.strings(recipes.first?["recipeIngredient"]) == ["z"])
  }

  @Test("a tag's attributes past the 200th are dropped before libxml2 reads the page")
  func crowdedTag() throws {
    func page(_ before: Int, quoted: String = "") -> [UInt8] {
      let words = (0..<before).map { "w\($0)=\"v\"" }.joined(separator: " ")
      return Array(
        ("<div itemscope itemtype=\"https://schema.org/Recipe\"><h1 itemprop=\"name\">Cake</h1>"
          + "<span \(quoted)\(words) itemprop=\"recipeIngredient\">1 egg</span>"
          + "<span itemprop=\"recipeIngredient\">2 cups flour</span></div>").utf8)
    }
    func ingredients(_ html: [UInt8]) throws -> [String] {
      RecipePages.strings(try RecipePages.recipes(html).first?["recipeIngredient"])
    }
    // The 200th attribute is read; the 201st is not.
    #expect(try ingredients(page(199)) == ["1 egg", "2 cups flour"])
    #expect(try ingredients(page(200)) == ["2 cups flour"])
    // Spaces, "=" and ">" inside a quoted value are no attributes, and unquoted values count once.
    let quoted = "title=\"" + String(repeating: "a = b > c ", count: 300) + "\" x=y "
    #expect(try ingredients(page(197, quoted: quoted)) == ["1 egg", "2 cups flour"])
    // A broken tag of 100,000 bare words (an unescaped quote in a meta's content, as on one real
    // page): the rest of the page is read as before.
    let broken = "<meta content=\"a \"" + String(repeating: " word", count: 100_000) + ">"
    let html = RecipePages.page(head: broken, body: String(decoding: page(3), as: UTF8.self))
    #expect(try ingredients(html) == ["1 egg", "2 cups flour"])
  }

  @Test("deeply nested JSON-LD is skipped, not a crash")
  func deepJSON() {
    let json = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
    #expect(throws: RecipeImportError.self) {
      try RecipePages.recipes(RecipePages.page(head: RecipePages.ldJSON(json)))
    }
  }

  @Test("a huge page (about 8 MB) is read whole")
  func huge() throws {
    let filler = String(repeating: "<p>lorem ipsum dolor sit amet</p>", count: 250_000)
    let html = RecipePages.page(
      body: filler
        + RecipePages.ldJSON(#"{"@type":"Recipe","name":"Late","recipeIngredient":["y"]}"#))
    #expect(html.count > 8_000_000)
    #expect(try RecipePages.recipes(html).first?["name"] == "Late")
  }

  @Test("scripts and event handlers in recipe text end up as text, never markup")
  func scripts() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"<img src=x onerror=alert(1)>Cake<script>alert(2)<\\/script>",
         "recipeIngredient":["<a href=\"javascript:alert(3)\" onclick=\"alert(4)\">flour</a>"],
         "recipeInstructions":"<p onmouseover=\"alert(5)\">Bake.</p><script>alert(6)<\\/script>",
         "description":"&lt;script&gt;alert(7)&lt;/script&gt;Nice"}
        """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Cake")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["flour"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Bake."])
    let text = recipe.jsonString
    for needle in ["<script", "onerror", "onclick", "onmouseover", "javascript:", "alert(2)"] {
      #expect(!text.contains(needle), "\(needle) kept in \(text)")
    }
  }

  @Test("JSON-LD that cannot be read, and nothing else, is a clear error")
  func malformed() {
    let html = RecipePages.page(head: RecipePages.ldJSON(#"{"@type":"Recipe","name": oops}"#))
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(html) }
  }

  @Test("bytes that are not UTF-8 still parse (as the page's declared charset)")
  func latin1() throws {
    var html = Array(
      "<html><head><meta charset=\"iso-8859-1\"></head><body><div itemscope itemtype=\"https://schema.org/Recipe\"><span itemprop=\"name\">Cr"
        .utf8)
    html.append(0xE8)  // è in ISO 8859-1
    html.append(contentsOf: Array("me</span></div></body></html>".utf8))
    #expect(try RecipePages.recipes(html).first?["name"] == "Crème")
  }
}
