import JSON
import Recipes
import Testing

@Suite("Recipes from microdata, microformats, RDFa and the page itself")
struct MarkupRecipeTests {
  @Test("schema.org microdata, with nested items and block text split into steps")
  func microdata() throws {
    let html = RecipePages.page(
      body: #"""
        <div itemscope itemtype="http://schema.org/Recipe">
          <h1 itemprop="name">Toast</h1>
          <img itemprop="image" src="/toast.jpg" width="800" height="600">
          <span itemprop="author" itemscope itemtype="http://schema.org/Person">
            <span itemprop="name">Bob</span></span>
          <meta itemprop="totalTime" content="PT5M">
          <span itemprop="recipeYield">Makes: <b>2</b></span>
          <ul><li itemprop="recipeIngredient">1 slice <a>bread</a></li>
              <li itemprop="recipeIngredient">butter
              , soft</li></ul>
          <div itemprop="recipeInstructions"><p>Toast it.</p><p>Butter it.</p></div>
        </div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Toast")
    #expect(recipe["image"] == "https://example.com/toast.jpg")
    #expect(recipe["author"] == "Bob")
    #expect(recipe["totalTime"] == "PT5M")
    #expect(recipe["recipeYield"] == "2 items")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["1 slice bread", "butter, soft"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Toast it.", "Butter it."])
  }

  @Test("microformats2 h-recipe")
  func hRecipe2() throws {
    let html = RecipePages.page(
      body: #"""
        <article class="h-recipe"><h1 class="p-name">Tea</h1>
          <img class="u-photo" src="https://x.test/tea.jpg">
          <ul><li class="p-ingredient">1 tea bag</li><li class="p-ingredient">water</li></ul>
          <p class="p-yield">1 cup</p><time class="dt-duration" datetime="PT4M">4 min</time>
          <div class="e-instructions"><ol><li>Boil.</li><li>Steep.</li></ol></div></article>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Tea")
    #expect(recipe["image"] == "https://x.test/tea.jpg")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["1 tea bag", "water"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Boil.", "Steep."])
    #expect(recipe["recipeYield"] == "1 cup")
    #expect(recipe["totalTime"] == "PT4M")
  }

  @Test("classic hRecipe with value-title durations")
  func hRecipeClassic() throws {
    let html = RecipePages.page(
      body: #"""
        <div class="hrecipe"><h2 class="fn">Grilled cheese</h2>
          <span class="yield">4 sandwiches</span>
          <span class="duration"><span class="value-title" title="PT1H5M"></span>1 hour</span>
          <span class="ingredient">2 slices bread</span><span class="ingredient">cheese</span>
          <div class="instructions"><p>Assemble.</p><p>Grill.</p></div></div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Grilled cheese")
    #expect(recipe["recipeYield"] == "4 sandwiches")
    #expect(recipe["totalTime"] == "PT1H5M")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 slices bread", "cheese"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Assemble.", "Grill."])
  }

  @Test("a microdata or RDFa type is a Recipe when its last segment is, in any case; not NotRecipe")
  func recipeTypes() throws {
    let html = RecipePages.page(
      body: #"""
        <div itemscope itemtype="http://schema.org/NotRecipe"><h1 itemprop="name">Fake</h1>
          <span itemprop="recipeIngredient">1 lie</span></div>
        <div itemscope itemtype="https://schema.org/recipe"><h1 itemprop="name">Real</h1>
          <span itemprop="recipeIngredient">1 egg</span></div>
        <div vocab="https://schema.org/" typeof="MyRecipe"><h1 property="name">Mine</h1>
          <span property="recipeIngredient">1 pear</span></div>
        """#)
    let names = try RecipePages.recipes(html).map { $0["name"]?.stringValue ?? "" }
    #expect(names == ["Real"])
  }

  @Test("RDFa with the schema.org vocabulary")
  func rdfa() throws {
    let html = RecipePages.page(
      body: #"""
        <div vocab="https://schema.org/" typeof="Recipe"><h1 property="name">Rice</h1>
          <span property="recipeIngredient">1 cup rice</span>
          <span property="recipeIngredient">2 cups water</span>
          <meta property="cookTime" content="PT18M">
          <div property="recipeInstructions">Simmer covered.</div></div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Rice")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["1 cup rice", "2 cups water"])
    #expect(recipe["totalTime"] == "PT18M")
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Simmer covered."])
  }

  @Test("Open Graph fills what the recipe lacks; a logo is not a picture")
  func openGraph() throws {
    let html = RecipePages.page(
      head: #"<meta property="og:image" content="/share.jpg"><title>Page title</title>"#
        + RecipePages.ldJSON(#"{"@type":"Recipe","recipeIngredient":["x"]}"#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Page title")
    #expect(recipe["image"] == "https://example.com/share.jpg")
    let logo = RecipePages.page(
      head: #"<meta property="og:image" content="/site-logo.png">"#
        + RecipePages.ldJSON(#"{"@type":"Recipe","name":"A","image":"/a.jpg"}"#))
    #expect(try RecipePages.recipes(logo).first?["image"] == "https://example.com/a.jpg")
  }

  @Test("no markup: an Ingredients heading with a list and a Method heading")
  func headings() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Lemonade</h1><p>Summer.</p><h2>Ingredients</h2>
        <ul><li>3 lemons</li><li>1 l water</li><li>sugar</li></ul>
        <h2>Method</h2><p>Squeeze the lemons.</p><p>Stir in water and sugar.</p><h2>Comments</h2>
        <p>Nice!</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Lemonade")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["3 lemons", "1 l water", "sugar"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Squeeze the lemons.", "Stir in water and sugar.",
      ])
    // An ingredients list alone is not a recipe.
    let article = RecipePages.page(
      body: "<h1>Why</h1><h2>Ingredients</h2><ul><li>a</li><li>b</li></ul><p>Text.</p>")
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(article) }
  }

  @Test("a page without a recipe says what was looked for")
  func none() {
    let html = RecipePages.page(
      head: #"<meta property="og:title" content="News"><title>News</title>"#,
      body: "<p>Nothing to cook here.</p>")
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(html) }
    do {
      _ = try RecipePages.recipes(html)
    } catch {
      #expect(error.message.hasPrefix("no schema.org Recipe, h-recipe or microdata found"))
    }
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes([]) }
  }

  @Test("microdata ingredients: a group's name the markup sets apart is no line")
  func markedGroupNames() throws {
    // Bold, or in a child whose class no ingredient line has; under a wrapper that gives the
    // same member under its other name (recipeIngredient around ingredients).
    let html = RecipePages.page(
      body: #"""
        <div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Tacos</h1>
          <div itemprop="recipeIngredient"><ul>
            <li itemprop="ingredients"><strong>Pulled pork</strong></li>
            <li itemprop="ingredients">2 pounds pork shoulder</li>
            <li itemprop="ingredients">Juice of 1 lime</li>
            <li itemprop="ingredients"><span class="group big">Salsa</span></li>
            <li itemprop="ingredients">1 pear, diced</li>
            <li itemprop="ingredients"><span>Salt</span></li>
          </ul></div>
          <div itemprop="recipeInstructions"><p>Braise.</p><p>Serve.</p></div>
        </div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "2 pounds pork shoulder", "Juice of 1 lime", "1 pear, diced", "Salt",
      ])
    // Lines that are all set apart alike are the lines' own style: none is dropped.
    let styled = RecipePages.page(
      body: #"""
        <div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Salad</h1>
          <li itemprop="recipeIngredient"><b>Lettuce</b></li>
          <li itemprop="recipeIngredient"><b>Oil</b></li>
          <li itemprop="recipeIngredient">1 lemon</li>
          <p itemprop="recipeInstructions">Toss.</p></div>
        """#)
    let salad = try #require(try RecipePages.recipes(styled).first)
    #expect(RecipePages.strings(salad["recipeIngredient"]) == ["Lettuce", "Oil", "1 lemon"])
  }
}
