import JSON
import Testing

@testable import Recipes

/// Pages whose recipe is only in the state a script framework embeds for itself.
@Suite("Recipes from a page's application state")
struct AppStateTests {
  @Test("a streaming renderer's pushed rows: amount, unit and name; step bodies; minutes")
  func pushedRows() throws {
    let state =
      #"{"recipe":{"name":"Udon bowl","preparationTimeInMinutes":25,"ingredients":["#
      + #"{"name":"Pak Choi","displayIngredientQuantity":3,"displayUnitOfMeasurement":"Stk."},"#
      + #"{"name":"Ginger","displayIngredientQuantity":null,"displayUnitOfMeasurement":null},"#
      + #"{"name":"Spring onions","displayIngredientQuantity":0.5,"displayUnitOfMeasurement":"bunch"}],"#
      + #""preparationInstructions":[{"header":"Step 1","body":"Wash the **pak choi**."},"#
      + #"{"header":"Step 2","body":"Boil the noodles."}]}}"#
    // The row as a script pushes it: a JSON string holding "ID:" and the value.
    let row = try #require(
      String(bytes: JSONValue.string("5:" + state + "\n").serialized(), encoding: .utf8))
    let html = RecipePages.page(
      head: #"<meta property="og:image" content="https://x.test/bowl.jpg">"#,
      body: #"<div id="app"></div><script>self.__next_f.push([1,"#
        + row.replacing("</", with: "<\\/") + "])</script>")
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Udon bowl")
    #expect(
      RecipePages.strings(recipe["recipeIngredient"])
        == ["3 Stk. Pak Choi", "Ginger", "0.5 bunch Spring onions"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Wash the **pak choi**.", "Boil the noodles.",
      ])
    #expect(recipe["totalTime"] == "PT25M")
    #expect(recipe["image"] == "https://x.test/bowl.jpg")
  }

  @Test("a JSON attribute gives the steps a microdata recipe lacks; groups read in order")
  func attributeState() throws {
    let state =
      #"{"props":{"recipe":{"grouped_ingredients":[{"title":null,"ingredients":[{"amount":2,"#
      + #""unit":{"name_singular":"stalk"},"ingredient":{"name_singular":"celery"}}]}],"#
      + #""grouped_instructions":[{"title":null,"instructions":[{"instruction":"Slice the celery."},"#
      + #"{"instruction":"Fry it."}]}]}}}"#
    let escaped = state.replacing("\"", with: "&quot;")
    let html = RecipePages.page(
      body:
        #"<div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Pie</h1></div>"#
        + #"<div id="app" data-page=""# + escaped + #""></div>"#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Pie")
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Slice the celery.", "Fry it."])
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 stalk celery"])
  }

  @Test("state without both lists is no recipe")
  func noLists() {
    let html = RecipePages.page(
      body: #"<script type="application/json">{"ingredients":["flour"],"related":[]}</script>"#)
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(html) }
  }
}
