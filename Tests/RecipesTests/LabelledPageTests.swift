import JSON
import Testing

@testable import Recipes

/// Pages whose markup leaves fields out, or that have none: what the page itself states.
@Suite("Recipes from what the page states beside its markup")
struct LabelledPageTests {
  @Test("one recipe marked with microdata and hRecipe classes on the same element: both read")
  func mixedVocabularies() throws {
    let html = RecipePages.page(
      body: #"""
        <div class="hrecipe" itemscope itemtype="http://schema.org/Recipe">
          <h2 class="fn" itemprop="name">Dumplings</h2>
          <meta itemprop="image" content="https://x.test/d.jpg">
          <div class="intro instructions" itemprop="about"><p>Popular.</p>
            <h3>Filling</h3><ul><li class="ingredient">2 onions</li>
            <li class="ingredient">1 lb beef</li><li class="ingredient"></li></ul>
            <h3>Method</h3><h4>Step 1</h4><p class="instructions">Fry the beef.</p>
            <h4>Step 2</h4><p class="instructions">Add the onions.</p></div>
          <span class="ingredient">Ingredients: <a href="/t/beef">Beef</a>, <a>Onion</a></span>
        </div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Dumplings")
    #expect(recipe["image"] == "https://x.test/d.jpg")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 onions", "1 lb beef"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Fry the beef.", "Add the onions."])
  }

  @Test("yield and times beside labels: label and value elements, one line, table cells")
  func labels() throws {
    let infoList = RecipePages.page(
      body: #"""
        <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Mantu</h1>
          <span itemprop="recipeIngredient">flour</span>
          <ul class="info"><li><strong>Servings :</strong> <span>4</span></li>
            <li><strong>Prep Time :</strong> <span>35m</span></li>
            <li><strong>Ready In :</strong> <span>1:15 h</span></li></ul>
          <p itemprop="recipeInstructions">Cook for 10 minutes, then serve 2 plates.</p></div>
        """#)
    let recipe = try #require(try RecipePages.recipes(infoList).first)
    #expect(recipe["recipeYield"] == "4 servings")
    #expect(recipe["prepTime"] == "PT35M")
    #expect(recipe["totalTime"] == "PT1H15M")
    #expect(recipe["cookTime"] == nil)

    let table = RecipePages.page(
      body: #"""
        <div class="hrecipe"><h1 class="fn">Pie</h1><span class="ingredient">pumpkin</span>
          <table><tr><th>Servings</th><td>8</td></tr>
            <tr><th>Time</th><td>60 minutes + cooling</td></tr></table>
          <ul><li>Serves <b>5</b></li></ul></div>
        """#)
    let pie = try #require(try RecipePages.recipes(table).first)
    #expect(pie["recipeYield"] == "8 servings")
    #expect(pie["totalTime"] == "PT1H")

    let inline = RecipePages.page(
      body: #"""
        <div class="hrecipe"><h1 class="fn">Stew</h1><span class="ingredient">beef</span>
          <p>Cook for 3 hours.</p><ul><li class="servings">Serves <strong>5</strong></li></ul>
          <div class="label">Time:&nbsp;</div><div><a href="/t">Time required: 10-20 minutes</a></div>
        </div>
        """#)
    let stew = try #require(try RecipePages.recipes(inline).first)
    #expect(stew["recipeYield"] == "5 servings")
    #expect(stew["totalTime"] == "PT20M")
  }

  @Test("labels are read whatever their text's first bytes: case, spaces, accents, bars, digits")
  func labelFirstWords() throws {
    // Text nodes that start no label are passed over from their bytes alone; these pin
    // what must still be read (and what must not) on either side of that shortcut.
    func read(_ body: String) throws -> JSONValue {
      let html = RecipePages.page(
        body: #"<div class="hrecipe"><h1 class="fn">Soup</h1><span class="ingredient">leek</span>"#
          + body + "</div>")
      return try #require(try RecipePages.recipes(html).first)
    }
    #expect(try read("<p>\n\t SERVES 6</p>")["recipeYield"] == "6 servings")
    #expect(try read("<p>PREP: 10 mins</p>")["prepTime"] == "PT10M")
    #expect(try read("<p>\u{00A0}Préparation : 15 min</p>")["prepTime"] == "PT15M")
    #expect(try read("<p>Zubereitungszeit: 20 Minuten</p>")["prepTime"] == "PT20M")
    #expect(try read("<p>4 porce</p>")["recipeYield"] == "4 servings")
    #expect(try read("<p>Vegan | Serves 2 | Total time: 15 minutes</p>")["totalTime"] == "PT15M")
    #expect(try read("<p>Timer 5 minutes</p><p>Stir 3 servings</p>")["totalTime"] == nil)
    #expect(try read("<p>Servesx 4</p>")["recipeYield"] == nil)
  }

  @Test("the markup's own yield and times are kept over the page's labels")
  func markupWins() throws {
    let html = RecipePages.page(
      body: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"A","recipeIngredient":["x"],"recipeYield":"2","cookTime":"PT5M"}"#
      )
        + "<p>Serves: 6</p><p>Total time: 1 hour</p>")
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["recipeYield"] == "2 servings")
    #expect(recipe["totalTime"] == "PT5M")
  }

  @Test("no markup: lists named by their class, the h1 the title names, the first photo")
  func namedContainers() throws {
    let html = Array(
      #"""
      <!doctype html><html><head><title>Site — black sesame brittle</title>
      <meta property="og:image" content="https://x.test/media/icon.jpg"></head><body>
      <header><img src="../media/logo.png"><h1>Site</h1></header>
      <main><h1>black sesame brittle</h1><img src="../media/recipes/brittle.jpg">
        <p>Looks impressive.</p>
        <dl class="ingredients"><dt>sugar 45 g</dt><dt>sesame 35 g</dt></dl>
        <ul class="instructions"><li>Melt the sugar.</li><li>Add the sesame.</li></ul></main>
      </body></html>
      """#.utf8)
    let recipe = try #require(try RecipePages.recipes(html, url: "x.test/site/brittle.html").first)
    #expect(recipe["name"] == "black sesame brittle")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["sugar 45 g", "sesame 35 g"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Melt the sugar.", "Add the sesame."])
    #expect(recipe["image"] == "http://x.test/media/recipes/brittle.jpg")
  }

  @Test("no markup: a \"Recipe:\" heading, a list, then the steps as paragraphs")
  func recipeHeading() throws {
    let html = RecipePages.page(
      head: "<title>Orange carrots | Bento</title>",
      body: #"""
        <h1 id="site">Bento</h1><h1 class="title">Orange carrots</h1>
        <p><img src="/files/logo-small.png"><img src="/files/carrots.jpg" width="500"></p>
        <p>What, yet another carrot recipe?</p>
        <h3>Recipe: Orange Juice Carrots</h3>
        <ul><li>3 carrots</li><li>Orange juice</li></ul>
        <p>Cut the carrots.</p><p>Boil in the juice.</p>
        <h3>Variation</h3><p>Add stock.</p>
        <div class="field-label">Time:&nbsp;</div><div><a>Time required: 10-20 minutes</a></div>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Orange carrots")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["3 carrots", "Orange juice"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Cut the carrots.", "Boil in the juice."])
    #expect(recipe["image"] == "https://example.com/files/carrots.jpg")
    #expect(recipe["totalTime"] == "PT20M")
  }

  @Test("instructions as one string whose steps run together: split where sentences are glued")
  func gluedSentences() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"A","recipeInstructions":"Heat to 200 degrees.Fry the bacon. Add the leeks, approx. 2 minutes. Stir (keep it crisp!)Serve."}"#
      ))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Heat to 200 degrees.",
        "Fry the bacon. Add the leeks, approx. 2 minutes. Stir (keep it crisp!)", "Serve.",
      ])
    // The step's own sentences, spaced, stay together.
    #expect(
      RecipeInstructions.sentences("Preheat the oven. Line a tin.Snap the chocolate. Stir.") == [
        "Preheat the oven. Line a tin.", "Snap the chocolate. Stir.",
      ])
    #expect(RecipeNormalizer.withoutNamespace("Cookbook:Pumpkin Pie I") == "Pumpkin Pie I")
    for title in ["Pie: A Story", "Ratio 1:2 Bread", "Salsa:verde"] {
      #expect(RecipeNormalizer.withoutNamespace(title) == title)
    }
    #expect(
      RecipeInstructions.sentences("Mix well. Bake for 20 min. Serve.") == [
        "Mix well. Bake for 20 min. Serve."
      ])
  }

  @Test("hours and minutes written 1:15; dot segments and bases without a scheme in links")
  func clockTimesAndLinks() {
    #expect(RecipeDuration.minutes("1:15 h") == 75)
    #expect(RecipeDuration.minutes("0:45") == 45)
    #expect(
      PageURL.resolve("../img/a.jpg", base: "https://x.test/r/b/c.html")
        == "https://x.test/r/img/a.jpg")
    #expect(PageURL.resolve("../../../a.jpg", base: "https://x.test/r/c") == "https://x.test/a.jpg")
    #expect(
      PageURL.resolve("./a.jpg?v=../1", base: "https://x.test/r/")
        == "https://x.test/r/a.jpg?v=../1")
    #expect(PageURL.resolve("/m/a.jpg", base: "x.test") == "http://x.test/m/a.jpg")
  }

  @Test("markup that names the recipe but not its lists: the page's headed lists fill them")
  func markupWithoutLists() throws {
    let html = RecipePages.page(
      body: #"""
        <div itemscope itemtype="https://schema.org/Recipe">
          <h1 itemprop="name">Lemonade</h1><meta itemprop="recipeYield" content="4">
          <p itemprop="description">Summer.</p></div>
        <h2>Ingredients</h2><ul><li>3 lemons</li><li>1 l water</li></ul>
        <h2>Method</h2><p>Squeeze the lemons.</p><p>Stir in the water.</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Lemonade")
    #expect(recipe["recipeYield"] == "4 servings")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["3 lemons", "1 l water"])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Squeeze the lemons.", "Stir in the water.",
      ])
    // Lists the markup gives are its own, whatever the page shows elsewhere.
    let marked = RecipePages.page(
      body: #"""
        <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Tea</h1>
          <span itemprop="recipeIngredient">1 tea bag</span>
          <p itemprop="recipeInstructions">Steep.</p></div>
        <h2>Ingredients</h2><ul><li>3 lemons</li></ul><h2>Method</h2><p>Squeeze.</p>
        """#)
    let tea = try #require(try RecipePages.recipes(marked).first)
    #expect(RecipePages.strings(tea["recipeIngredient"]) == ["1 tea bag"])
    #expect(RecipePages.lines(tea["recipeInstructions"]) == ["Steep."])
  }

  @Test("labels on lines of their own between <br>s; a count of servings in its own words")
  func labelLinesAndServingWords() throws {
    let lines = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Chilli","recipeIngredient":["500 g beef"],"recipeInstructions":"Cook."}"#
      ),
      body: #"<p>Prep: 10 mins<br/>Cook: 25 mins<br/>Serves 4</p><p>Cook 5 minutes more.</p>"#)
    let chilli = try #require(try RecipePages.recipes(lines).first)
    #expect(chilli["recipeYield"] == "4 servings")
    #expect(chilli["prepTime"] == "PT10M")
    #expect(chilli["cookTime"] == "PT25M")
    #expect(chilli["totalTime"] == "PT35M")

    for (body, expected) in [
      (#"<div class="point"><i class="icon"></i> 4 porce </div>"#, "4 servings"),
      (#"<dl><dt>Serve</dt><dd>Até 2 porções</dd></dl>"#, "2 servings"),
      (#"<h3>Składniki</h3><div> 2 - 4 porcje </div>"#, "2 servings"),
    ] {
      let html = RecipePages.page(
        head: RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Soup","recipeIngredient":["1 l water"],"recipeInstructions":"Boil."}"#
        ),
        body: body)
      let soup = try #require(try RecipePages.recipes(html).first)
      #expect(soup["recipeYield"]?.stringValue == expected, "\(body)")
    }
    // "Cook 10 minutes" alone is a step, not a cooking time; "Serve with rice" no yield.
    let steps = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Rice","recipeIngredient":["1 cup rice"],"recipeInstructions":"Boil."}"#
      ),
      body: #"<p>Rinse.<br>Cook 10 minutes<br>Serve with rice</p>"#)
    let rice = try #require(try RecipePages.recipes(steps).first)
    #expect(rice["cookTime"] == nil)
    #expect(rice["recipeYield"] == nil)
  }

  @Test("markup naming only the ingredients: the rows the page shows, amount first")
  func renderedIngredientRows() throws {
    let microdata = RecipePages.page(
      body: #"""
        <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Margarita</h1>
          <ul><li><span> 4 cl <a href="/i/tequila"><span itemprop="recipeIngredient">Tequila</span></a></span></li>
          <li><span> 2 cl <a href="/i/lime"><span itemprop="recipeIngredient">Lime juice</span></a></span></li>
          <li><span itemprop="recipeIngredient">Ice</span></li></ul>
          <p itemprop="recipeInstructions">Shake.</p></div>
        """#)
    let margarita = try #require(try RecipePages.recipes(microdata).first)
    #expect(
      RecipePages.strings(margarita["recipeIngredient"]) == [
        "4 cl Tequila", "2 cl Lime juice", "Ice",
      ])

    let table = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Cookies","recipeIngredient":["flour","butter","butter"],
         "recipeInstructions":"Mix."}
        """#),
      body: #"""
        <p>Tags: <a>flour</a></p>
        <table><tr><td>1 ½</td><td>cups</td><td><a>flour</a></td></tr>
          <tr><td>1</td><td>stick</td><td><a>butter</a> room temp.</td></tr>
          <tr><td>½</td><td>stick</td><td><a>butter</a> flavored</td></tr></table>
        """#)
    let cookies = try #require(try RecipePages.recipes(table).first)
    #expect(
      RecipePages.strings(cookies["recipeIngredient"]) == [
        "1 ½ cups flour", "1 stick butter room temp.", "½ stick butter flavored",
      ])

    // A table of names then amounts is the page's display: the markup's names stay.
    let namesFirst = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Pesto","recipeIngredient":["Basil","Pine nuts"],
         "recipeInstructions":"Blend."}
        """#),
      body: #"<ul><li><span>Basil</span> 20 g</li><li><span>Pine nuts</span> 70 g</li></ul>"#)
    let pesto = try #require(try RecipePages.recipes(namesFirst).first)
    #expect(RecipePages.strings(pesto["recipeIngredient"]) == ["Basil", "Pine nuts"])
  }

  @Test("JSON-LD lists that are empty or hold only null are missing: the page's lists fill them")
  func emptyMarkupLists() throws {
    for lists in [
      #""recipeIngredient":[],"recipeInstructions":[]"#,
      #""recipeIngredient":[null],"recipeInstructions":[{"@type":"HowToStep","text":""}]"#,
    ] {
      let html = RecipePages.page(
        head: RecipePages.ldJSON(#"{"@type":"Recipe","name":"Lemonade",\#(lists)}"#),
        body: #"""
          <h2>Ingredients</h2><ul><li>3 lemons</li><li>1 l water</li></ul>
          <h2>Method</h2><p>Squeeze the lemons.</p><p>Stir in the water.</p>
          """#)
      let recipe = try #require(try RecipePages.recipes(html).first)
      #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["3 lemons", "1 l water"])
      #expect(
        RecipePages.lines(recipe["recipeInstructions"]) == [
          "Squeeze the lemons.", "Stir in the water.",
        ])
    }
  }

  @Test("another vocabulary's names in the markup are not passed through as fields")
  func otherVocabularyNames() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Tea","title":"Tea | Shop","instructions":[],"yields":"x",
         "recipeIngredient":["1 tea bag"],"recipeInstructions":[{"@type":"HowToStep","text":"Steep."}]}
        """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    for key in ["title", "instructions", "yields", "ingredients"] { #expect(recipe[key] == nil) }
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Steep."])
    // Steps given only under the other name are the recipe's steps.
    let other = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Tea","recipeIngredient":["1 tea bag"],"instructions":"Steep."}"#
      ))
    let tea = try #require(try RecipePages.recipes(other).first)
    #expect(RecipePages.lines(tea["recipeInstructions"]) == ["Steep."])
  }

  @Test("a label alone in bold before its value as text; a row of header cells over values")
  func labelsBesideText() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Stroganoff</h1><h3>Ingredients</h3><ul><li>250 g beef</li><li>1 onion</li></ul>
        <ul><li><strong>Preparation Time:</strong> 20 mins</li>
          <li><strong>Cooking Time:</strong> 40 mins</li><li><strong>Serves:</strong> 2</li></ul>
        <h3>Method</h3><ol><li>Fry.</li></ol>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["recipeYield"] == "2 servings")
    #expect(recipe["totalTime"] == "PT1H")

    let table = RecipePages.page(
      body: #"""
        <h1>Skewers</h1>
        <table><tr><th>Prep time</th><th>Cook time</th><th>Yields</th><th>Serving Size</th></tr>
          <tr><td>15 minutes</td><td>0 minutes</td><td>4 servings</td><td>2 skewers</td></tr>
        </table>
        <h3>Ingredients</h3><ul><li>1 C strawberries</li><li>8 skewers</li></ul>
        <h3>Directions</h3><ol><li>Thread the fruit.</li></ol>
        """#)
    let skewers = try #require(try RecipePages.recipes(table).first)
    #expect(skewers["recipeYield"] == "4 servings")
    #expect(skewers["prepTime"] == "PT15M")
    #expect(skewers["totalTime"] == "PT15M")

    let combined = RecipePages.page(
      body: #"""
        <h1>Buns</h1><ul><li><strong>Prep &amp; Cook Time</strong><p>1 hour 20 minutes</p></li></ul>
        <p>Ready in around 20 mins</p>
        <h3>Ingredients</h3><ul><li>500 g flour</li><li>1 egg</li></ul><h3>Method</h3><p>Knead.</p>
        """#)
    let buns = try #require(try RecipePages.recipes(combined).first)
    #expect(buns["totalTime"] == "PT1H20M")
    let around = RecipePages.page(
      body: #"""
        <h1>Beef</h1><p>Ready in around 20 mins</p>
        <h3>Ingredients</h3><ul><li>1 steak</li><li>1 egg</li></ul><h3>Method</h3><p>Sear.</p>
        """#)
    #expect(try RecipePages.recipes(around).first?["totalTime"] == "PT20M")
  }

  @Test("a negative ISO duration is no time: the total is prep + cook")
  func negativeDuration() throws {
    #expect(RecipeDuration.minutes("PT-471406H28M55S") == nil)
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"A","prepTime":"PT5M","cookTime":"PT22M","totalTime":"PT-471406H28M55S"}"#
      ))
    #expect(try RecipePages.recipes(html).first?["totalTime"] == "PT27M")
  }

  @Test("a label's value as the text after its element, a bar after the label, parts of a line")
  func labelTextAfterAndBars() throws {
    let recipe =
      #"{"@type":"Recipe","name":"Chili","recipeIngredient":["1 lb beef"],"recipeInstructions":"Cook."}"#
    for (body, yield, total) in [
      (
        "<p><strong>Serves:</strong> 6-8<br><strong>Prep time:</strong> 20 minutes<br>"
          + "<strong>Cook time:</strong> 8 hours on low or 4 hours on high</p>",
        "8 servings", "PT8H20M"
      ),
      (
        "<h2><strong>Serves 6</strong></h2><h3><strong>Prep time |</strong> 15 minutes<br>"
          + "<strong>Cooking time |</strong> 20 minutes</h3>",
        "6 servings", "PT35M"
      ),
      (
        "<p><em>Serves 2 | Total time: 15 minutes | Whole30 compliant</em></p>", "2 servings",
        "PT15M"
      ),
    ] {
      let page = RecipePages.page(head: RecipePages.ldJSON(recipe), body: body)
      let chili = try #require(try RecipePages.recipes(page).first)
      #expect(chili["recipeYield"] == .string(yield), "\(body)")
      #expect(chili["totalTime"] == .string(total), "\(body)")
    }
  }

  @Test("labels of times and servings in other languages; a section named like one is no time")
  func labelsInOtherLanguages() throws {
    let recipe =
      #"{"@type":"Recipe","name":"Cake","recipeIngredient":["2 oeufs"],"recipeInstructions":"Cuire."}"#
    for (body, yield, total) in [
      (
        "<div><span>Temps total</span><span>1 h 05</span></div><div><span>Préparation</span>"
          + "<span>20 min</span></div><div><span>Personnes</span><span>6/8</span></div>",
        "6 servings", "PT1H5M"
      ),
      ("<div><div>Totale tijd</div><div>20 minuten</div></div>", nil, "PT20M"),
      ("<h2>Préparation</h2><p>1. Préchauffez le four à 180°C.</p>", nil, nil),
    ] as [(String, String?, String?)] {
      let page = RecipePages.page(head: RecipePages.ldJSON(recipe), body: body)
      let cake = try #require(try RecipePages.recipes(page).first)
      #expect(cake["recipeYield"] == yield.map { .string($0) }, "\(body)")
      #expect(cake["totalTime"] == total.map { .string($0) }, "\(body)")
    }
  }

  @Test("a time alone right after the count of servings is the total time")
  func timeBesideServings() throws {
    let recipe =
      #"{"@type":"Recipe","name":"Soup","recipeIngredient":["1 leek"],"recipeInstructions":"Cook."}"#
    for (body, yield, total) in [
      (
        #"<ul><li><img alt="serves" src="s.png"> Serves 4</li><li><img alt="" src="t.png"> 30mins</li></ul>"#,
        "4 servings", "PT30M"
      ),
      (#"<div class="meta"><div>4 personen</div><div>60 min</div></div>"#, "4 servings", "PT1H"),
      ("<h2>4 servings — 20 minutes</h2>", "4 servings", "PT20M"),
      ("<ul><li>Serves 4</li><li>Spicy</li></ul><p>20 minutes</p>", "4 servings", nil),
    ] as [(String, String, String?)] {
      let page = RecipePages.page(head: RecipePages.ldJSON(recipe), body: body)
      let soup = try #require(try RecipePages.recipes(page).first)
      #expect(soup["recipeYield"] == .string(yield), "\(body)")
      #expect(soup["totalTime"] == total.map { .string($0) }, "\(body)")
    }
  }
}
