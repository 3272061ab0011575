import JSON
import Recipes
import Testing

@Suite("Recipes from JSON-LD")
struct JSONLDTests {
  @Test("a plain Recipe object, every field normalised")
  func plain() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@context":"https://schema.org","@type":"Recipe","name":"Pancakes &amp; syrup",
         "recipeIngredient":["2 eggs","1 <b>cup</b> flour"],
         "recipeInstructions":[{"@type":"HowToStep","text":"Mix."},{"@type":"HowToStep","text":"Fry."}],
         "prepTime":"PT10M","cookTime":"PT20M","recipeYield":"4-6 servings",
         "image":"/img/p.jpg","author":{"@type":"Person","name":"Ann"},
         "keywords":["quick","sweet"],"recipeCuisine":"French","nutrition":{"calories":"200 kcal"}}
        """#))
    let recipes = try RecipePages.recipes(html)
    #expect(recipes.count == 1)
    let recipe = recipes[0]
    #expect(recipe["@type"] == "Recipe")
    #expect(recipe["name"] == "Pancakes & syrup")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 eggs", "1 cup flour"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Mix.", "Fry."])
    #expect(recipe["prepTime"] == "PT10M")
    #expect(recipe["cookTime"] == "PT20M")
    #expect(recipe["totalTime"] == "PT30M")
    #expect(recipe["recipeYield"] == "6 servings")
    #expect(recipe["image"] == "https://example.com/img/p.jpg")
    #expect(recipe["author"] == "Ann")
    #expect(recipe["keywords"] == "quick, sweet")
    #expect(recipe["recipeCuisine"] == "French")
    #expect(recipe["nutrition"]?["calories"] == "200 kcal")
    #expect(recipe["url"] == "https://example.com/r/1")
  }

  @Test("@graph with @id references, after an empty ld+json block")
  func graph() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON("") + RecipePages.ldJSON("{")
        + RecipePages.ldJSON(
          #"""
          {"@context":"https://schema.org","@graph":[
            {"@type":"WebPage","@id":"#page"},
            {"@type":"ImageObject","@id":"#img","url":"https://x.test/big.jpg","width":1200,"height":800},
            {"@type":"Person","@id":"#ann","name":"Ann"},
            {"@type":["Recipe","NewsArticle"],"name":"Soup","image":{"@id":"#img"},
             "author":{"@id":"#ann"},"recipeIngredient":["water"],"totalTime":"P1DT0H15M"}]}
          """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Soup")
    #expect(recipe["image"] == "https://x.test/big.jpg")
    #expect(recipe["author"] == "Ann")
    #expect(recipe["totalTime"] == "PT24H15M")
  }

  @Test(
    "a type written in any case (\"recipe\", \"schema:RECIPE\") is a Recipe; others, ending in it or not, are not"
  )
  func typeCase() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"[{"@type":"recipe","name":"Tagine","recipeIngredient":["1 cauliflower"]},"#
          + #"{"@type":["Thing","schema:RECIPE"],"name":"Stew","recipeIngredient":["2 carrots"]},"#
          + #"{"@type":"HowTo","name":"Not one"},{"@type":"NotRecipe","name":"Nor this"},"#
          + #"{"@type":["schema:MyRecipe"],"name":"Nor that"}]"#))
    let names = try RecipePages.recipes(html).map { $0["name"]?.stringValue ?? "" }
    #expect(names == ["Tagine", "Stew"])
  }

  @Test("a property written in another case (\"ItemListElement\") is read under its name")
  func propertyCase() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","Name":"Tikka","RecipeIngredient":["1 chicken"],"recipeInstructions":[
          {"@type":"HowToSection","name":"Rice","ItemListElement":[
            {"@type":"HowToStep","Text":"Boil the rice."}]},
          {"@type":"HowToSection","name":"Curry","ItemListElement":[
            {"@type":"HowToStep","text":"Brown the chicken."}],
            "itemListElement":[{"@type":"HowToStep","text":"Simmer."}]}]}
        """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Tikka")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["1 chicken"])
    // Where the page also has the name as schema.org spells it, that one is read.
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Rice", "Boil the rice.", "Curry", "Simmer.",
      ])
  }

  @Test("mainEntity, arrays and several recipes on one page, in page order")
  func several() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"[{"@type":"WebPage","mainEntity":{"@type":"Recipe","name":"One","recipeIngredient":["a"]}}]"#
      )
        + RecipePages.ldJSON(
          #"[{"@type":"Recipe","name":"Two","recipeIngredient":["b"]},{"@type":"Recipe","name":"Three","recipeIngredient":["c"]}]"#
        ))
    let names = try RecipePages.recipes(html).map { $0["name"]?.stringValue ?? "" }
    #expect(names == ["One", "Two", "Three"])
  }

  @Test("a recipe described twice (a summary without lists, then the whole) is one recipe")
  func describedTwice() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@graph":[{"@type":"Recipe","name":"Malva pudding ","recipeYield":"6 servings","#
          + #""image":"https://example.com/a.jpg","recipeIngredient":[]}]}"#)
        + RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Malva  Pudding","image":"https://example.com/b.jpg","#
            + #""recipeIngredient":["1 egg"],"recipeInstructions":["Bake."]}"#)
        + RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Custard","recipeYield":"4 servings"}"#))
    let recipes = try RecipePages.recipes(html)
    #expect(recipes.map { $0["name"]?.stringValue ?? "" } == ["Malva Pudding", "Custard"])
    #expect(RecipePages.strings(recipes[0]["recipeIngredient"]) == ["1 egg"])
    #expect(RecipePages.lines(recipes[0]["recipeInstructions"]) == ["Bake."])
    #expect(recipes[0]["recipeYield"] == "6 servings")
    #expect(recipes[0]["image"]?.stringValue == "https://example.com/b.jpg")
    // Summaries before and after the whole, thousands of them (found by name, not each
    // compared with every other: 5,000 took over two minutes of CPU that way), are one recipe.
    let summary = #"{"@type":"Recipe","name":"Stew","description":"Slow."}"#
    let many = RecipePages.page(
      head: RecipePages.ldJSON(
        "[" + Array(repeating: summary, count: 1_500).joined(separator: ",")
          + #",{"@type":"Recipe","name":"stew","recipeIngredient":["1 beef"],"recipeInstructions":["Stew."]},"#
          + Array(repeating: summary, count: 1_500).joined(separator: ",") + "]"))
    let stew = try RecipePages.recipes(many)
    #expect(stew.count == 1)
    #expect(RecipePages.strings(stew.first?["recipeIngredient"]) == ["1 beef"])
    #expect(stew.first?["description"] == "Slow.")
  }

  @Test("malformed JSON-LD read where safe: comments, raw newlines, trailing commas, repeats")
  func lenient() throws {
    let json =
      "<!-- {\"@type\":\"Recipe\",\"name\":\"Stew\",\"name\":\"Again\",\n"
      + "\"recipeInstructions\":\"Chop.\nSimmer.\",\"recipeIngredient\":[\"beef\",],} -->"
    let recipe = try #require(
      try RecipePages.recipes(RecipePages.page(head: RecipePages.ldJSON(json))).first)
    #expect(recipe["name"] == "Stew")
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Chop.", "Simmer."])
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["beef"])
  }

  @Test("HowToSection as named groups; titled steps; one section around all steps is none")
  func sections() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Tart","recipeInstructions":[
          {"@type":"HowToSection","name":"Pastry","itemListElement":[
            {"@type":"HowToStep","text":"Rub in."},{"@type":"HowToStep","text":"Chill."}]},
          {"@type":"HowToSection","name":"Filling","itemListElement":[
            {"@type":"HowToStep","text":"Whisk."}]},
          {"@type":"HowToStep","name":"Bake","text":"Put it in the oven for 25 minutes."},
          {"@type":"HowToStep","name":"Cool the tart...","text":"Cool the tart on a rack."}]}
        """#)
        + RecipePages.ldJSON(
          #"""
          {"@type":"Recipe","name":"Single","recipeInstructions":[{"@type":"HowToSection",
            "name":"Method","itemListElement":[{"@type":"HowToStep","name":1,"text":"Stir."}]}]}
          """#))
    let recipes = try RecipePages.recipes(html)
    #expect(
      RecipePages.lines(recipes[0]["recipeInstructions"]) == [
        "Pastry", "Rub in.", "Chill.", "Filling", "Whisk.", "Bake",
        "Put it in the oven for 25 minutes.",
        "Cool the tart on a rack.",
      ])
    #expect(recipes[0]["recipeInstructions"]?[0]?["@type"] == "HowToSection")
    #expect(RecipePages.lines(recipes[1]["recipeInstructions"]) == ["Stir."])
  }

  @Test("instructions as one HTML string; nested ingredient groups; entities twice encoded")
  func htmlStrings() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Salsa &amp;#8211; red",
         "recipeInstructions":"<ol><li>Chop&nbsp;tomatoes.</li><li>Add <a href='x'>salt</a>.</li></ol>",
         "recipeIngredient":[["2 tomatoes","1 onion"],["salt"]]}
        """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Salsa – red")
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Chop tomatoes.", "Add salt."])
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 tomatoes", "1 onion", "salt"])
  }

  @Test("the largest ImageObject wins; without sizes the first")
  func images() throws {
    let sized = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"A","image":[
          {"@type":"ImageObject","url":"https://x.test/s.jpg","width":300,"height":200},
          {"@type":"ImageObject","url":"https://x.test/l.jpg","width":"1200","height":"800"},
          {"@type":"ImageObject","url":"https://x.test/m.jpg","width":600,"height":400}]}
        """#))
    #expect(try RecipePages.recipes(sized).first?["image"] == "https://x.test/l.jpg")
    let plain = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"A","image":["//cdn.test/1.jpg","https://x.test/2.jpg"]}"#))
    #expect(try RecipePages.recipes(plain).first?["image"] == "https://cdn.test/1.jpg")
  }
}
