import Testing

@testable import Recipes

@Suite("Normalising times, yields and text")
struct NormalisationTests {
  @Test(
    "durations in minutes",
    arguments: [
      ("PT1H30M", 90), ("P1DT0H15M", 1455), ("P0DT1H25M", 85), ("PT90M", 90), ("PT0.5H", 30),
      ("PT45S", 1), ("1 hour 30 minutes", 90), ("45 mins", 45), ("1h30", 90), ("2 hrs", 120),
      ("90", 90), ("10-15 minutes", 15), ("1 day", 1440), ("1 Stunde 20 Minuten", 80),
      ("15 to 30 minutes", 30), ("10 bis 15 Minuten", 15), ("1 to 2 hours", 120),
      ("15 minutes or less", 15), ("1 hour to cool", 60),
    ] as [(String, Int)])
  func durations(text: String, minutes: Int) {
    #expect(RecipeDuration.minutes(text) == minutes)
  }

  @Test("no duration in text without numbers")
  func noDuration() {
    #expect(RecipeDuration.minutes("") == nil)
    #expect(RecipeDuration.minutes("overnight") == nil)
    #expect(RecipeDuration.minutes("PXYZ") == nil)
  }

  @Test("ISO output")
  func iso() {
    #expect(RecipeDuration.iso(minutes: 0) == "PT0M")
    #expect(RecipeDuration.iso(minutes: 90) == "PT1H30M")
    #expect(RecipeDuration.iso(minutes: 120) == "PT2H")
    #expect(RecipeDuration.iso(minutes: 1455) == "PT24H15M")
  }

  @Test(
    "yields",
    arguments: [
      ("4", "4 servings"), ("4-6 servings", "6 servings"), ("Serves 2 to 4", "4 servings"),
      ("1 loaf", "1 loaf"), ("2 loaves", "2 loaves"), ("Makes 12", "12 items"),
      ("1 serving", "1 serving"), ("24 cookies", "24 cookies"), ("3 dozen", "3 dozen"),
      ("4 servings (12–16 lollipops)", "4 servings"), ("15 fritters", "15 fritters"),
      ("8 skewers", "8 skewers"), ("500 g", "500 grams"), ("2 lbs", "2 pounds"),
      ("4 good servings", "4 servings"), ("2 - 4 porcje", "2 servings"),
      ("2-4 porcje", "4 servings"),
    ])
  func yields(text: String, expected: String) {
    #expect(RecipeYield.normalise(text) == expected)
  }

  @Test("of several yields, the first that counts in a unit, else the first")
  func severalYields() throws {
    for (yields, expected) in [
      (#"["15", "15 fritters"]"#, "15 fritters"), (#"["4", "4 to 6 servings"]"#, "4 servings"),
      (#"["Serves 6", "6"]"#, "6 servings"),
    ] {
      let html = RecipePages.page(
        head: RecipePages.ldJSON(#"{"@type":"Recipe","name":"A","recipeYield":\#(yields)}"#))
      let recipe = try #require(try RecipePages.recipes(html).first)
      #expect(recipe["recipeYield"]?.stringValue == expected)
    }
  }

  @Test("group names among the ingredient lines are left out: a colon, or capitals")
  func ingredientGroupNames() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"A","recipeIngredient":["For the cookies:","3 cups flour","MASHED POTATOES","2 lbs potatoes","Salt","DRESSING (whisk together; chill)","1/2 cup mayonnaise","Pour la pâte :","1 oeuf"]}"#
      ))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "3 cups flour", "2 lbs potatoes", "Salt", "1/2 cup mayonnaise", "1 oeuf",
      ])
    // A recipe written all in capitals keeps its lines.
    let shouted = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"B","recipeIngredient":["2 CUPS FLOUR","SALT","PEPPER"]}"#))
    let loud = try #require(try RecipePages.recipes(shouted).first)
    #expect(RecipePages.strings(loud["recipeIngredient"]) == ["2 CUPS FLOUR", "SALT", "PEPPER"])
  }

  @Test("no yield without a number")
  func noYield() {
    #expect(RecipeYield.normalise("a few") == nil)
    #expect(RecipeYield.normalise("") == nil)
  }

  @Test("entities and tags stripped, scripts dropped, whitespace collapsed")
  func text() {
    #expect(HTMLText.clean("Fish &amp; chips&nbsp;&#8211; <b>hot</b>") == "Fish & chips – hot")
    #expect(HTMLText.clean("a<script>alert(1)</script>b") == "ab")
    #expect(HTMLText.clean("  many \n\t spaces  ") == "many spaces")
    #expect(HTMLText.lines("one<br>two<p>three</p>") == ["one", "two", "three"])
    #expect(HTMLText.clean("5 < 6 & 7 > 2") == "5 < 6 & 7 > 2")
  }

  @Test("links resolved against the page")
  func links() {
    let base = "https://example.com/a/b.html?x=1"
    #expect(PageURL.resolve("c.jpg", base: base) == "https://example.com/a/c.jpg")
    #expect(PageURL.resolve("/c.jpg", base: base) == "https://example.com/c.jpg")
    #expect(PageURL.resolve("//cdn.test/c.jpg", base: base) == "https://cdn.test/c.jpg")
    #expect(PageURL.resolve("http://o.test/c.jpg", base: base) == "http://o.test/c.jpg")
    #expect(PageURL.resolve("c.jpg", base: nil) == "c.jpg")
  }

  @Test(
    "ingredient lines: a doubled note keeps one pair when the line has both, no space before commas"
  )
  func tidyIngredients() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Dish","recipeIngredient":["2 eggs ((or flax eggs))","#
          + #""1/3 cup foam ((recipe below)*)","1 lb sprouts , halved","#
          + #""1 cup beans, (drained (439g))"]}"#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "2 eggs (or flax eggs)", "1/3 cup foam ((recipe below)*)", "1 lb sprouts, halved",
        "1 cup beans, (drained (439g))",
      ])
  }

  @Test("\"Â\" before a no-break space (that space's bytes read as Latin-1) is a space")
  func mojibakeSpaces() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        "{\"@type\":\"Recipe\",\"name\":\"Couscous\",\"recipeIngredient\":"
          + "[\"2/3 cup\u{00C2}\u{00A0} orange juice\",\"1\u{00C2}\u{00A0}cup \u{00C2}me de pain\"]}"
      ))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "2/3 cup orange juice", "1 cup \u{00C2}me de pain",
      ])
  }

  @Test("JSON-LD value objects ({\"@value\": \"PT50M\"}) are their values")
  func valueObjects() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"""
        {"@type":"Recipe","name":"Flan","recipeIngredient":["4 eggs"],"recipeInstructions":"Bake.",
         "prepTime":{"@type":"Duration","@value":"P0DT0H10M0S"},
         "totalTime":{"@type":"Duration","@value":"P0DT0H50M0S"},
         "recipeYield":{"@value":"8"}}
        """#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["totalTime"] == "PT50M")
    #expect(recipe["prepTime"] == "PT10M")
    #expect(recipe["recipeYield"] == "8 servings")
  }

  @Test("a dash drawn between an amount and its ingredient goes; a range stays")
  func dashAfterAmount() {
    for (line, expected) in [
      ("300g - dried chickpeas", "300g dried chickpeas"),
      ("3 tbsp - olive oil", "3 tbsp olive oil"),
      ("8 - garlic cloves, crushed", "8 garlic cloves, crushed"), ("¼ tsp – soda", "¼ tsp soda"),
      ("1 - 2 cloves garlic", "1 - 2 cloves garlic"), ("½ - 1 tsp chilli", "½ - 1 tsp chilli"),
      ("Salt - to taste", "Salt - to taste"),
      ("2 tablespoons - divided", "2 tablespoons - divided"),
    ] {
      #expect(HTMLText.tidy(line) == expected, "\(line)")
    }
  }

  @Test("a step named by its number (\"Step 1\", \"stap 2\") is one step; a real title stays")
  func numberedStepNames() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Dish","recipeIngredient":["x"],"recipeInstructions":["#
          + #"{"@type":"HowToStep","name":"stap 1","text":"Kook de pasta."},"#
          + #"{"@type":"HowToStep","name":"tart step2","text":"Bake the tart."},"#
          + #"{"@type":"HowToStep","name":"Make the sauce","text":"Stir the butter in."}]}"#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Kook de pasta.", "Bake the tart.", "Make the sauce", "Stir the butter in.",
      ])
  }

  @Test("a titled step inside a section keeps its title, as a section within the section")
  func titledStepsInSections() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Peppers","recipeIngredient":["x"],"recipeInstructions":["#
          + #"{"@type":"HowToSection","name":"For the sauce","itemListElement":["#
          + #"{"@type":"HowToStep","name":"Make tomato sauce","text":"Scoop out the tomatoes."},"#
          + #"{"@type":"HowToStep","name":"Simmer","text":"Simmer it for 10 minutes."},"#
          + #"{"@type":"HowToStep","name":"Season.","text":"Season to taste."}]},"#
          + #"{"@type":"HowToSection","name":"For the filling","itemListElement":["#
          + #"{"@type":"HowToStep","text":"Mix the rice and beans."}]}]}"#))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        // "Simmer" and "Season." start their own texts: no titles of their own.
        "For the sauce", "Make tomato sauce", "Scoop out the tomatoes.",
        "Simmer it for 10 minutes.", "Season to taste.", "For the filling",
        "Mix the rice and beans.",
      ])
    let sauce = try #require(recipe["recipeInstructions"]?.arrayValue?.first)
    #expect(sauce["itemListElement"]?.arrayValue?.first?["name"] == "Make tomato sauce")
    // Exported and imported again, the sections within sections stay as they were.
    let exported = RecipePages.page(head: RecipePages.ldJSON(recipe.jsonString))
    let again = try #require(try RecipePages.recipes(exported).first)
    #expect(again["recipeInstructions"] == recipe["recipeInstructions"])
  }

  /// The instruction lines of a page whose one recipe's `recipeInstructions` is the JSON
  /// `instructions`.
  private func instructionLines(_ instructions: String) throws -> [String] {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Cake","recipeIngredient":["x"],"recipeInstructions":"#
          + instructions + "}"))
    return RecipePages.lines(
      try #require(try RecipePages.recipes(html).first)["recipeInstructions"])
  }

  @Test("one section around every step is unwrapped only when its name just says \"method\"")
  func loneSections() throws {
    func lines(_ name: String) throws -> [String] {
      try instructionLines(
        #"[{"@type":"HowToSection","name":"\#(name)","itemListElement":["#
          + #"{"@type":"HowToStep","text":"Blend the dates."},"#
          + #"{"@type":"HowToStep","text":"Spread it on the cake."}]}]"#)
    }
    let steps = ["Blend the dates.", "Spread it on the cake."]
    for name in ["Zubereitung", "Modo de Preparo", "INSTRUCTIONS:", "Method"] {
      #expect(try lines(name) == steps, "\(name)")
    }
    for name in ["To make the frosting:", "For the filling"] {
      #expect(try lines(name) == [name] + steps, "\(name)")
    }
  }

  @Test("each text of a list of texts is one step, its line breaks soft; one text is split")
  func listedTexts() throws {
    let lines = instructionLines
    #expect(
      try lines(#"["Heat the oven.","Make the crust:\nMix the oats in.\nPress it down.","Bake."]"#)
        == ["Heat the oven.", "Make the crust: Mix the oats in. Press it down.", "Bake."])
    // The whole method in one text, alone or alone in a list: a step per line.
    for whole in [#""Mix.\nBake.""#, #"["Mix.\nBake."]"#] {
      #expect(try lines(whole) == ["Mix.", "Bake."], "\(whole)")
    }
  }

  @Test("numbered steps run together in one text are split, their numbers dropped")
  func numberedRun() throws {
    for (instructions, expected) in [
      (
        #"[{"@type":"HowToStep","text":"1. Make the dressing. Season.2. Boil the pasta. 3. Melt the butter.4. Serve."}]"#,
        ["Make the dressing. Season.", "Boil the pasta.", "Melt the butter.", "Serve."]
      ),
      (#""1.番茄切丁 2.土豆切丁 3.鸡肉切块""#, ["番茄切丁", "土豆切丁", "鸡肉切块"]),
      (#""1. Add 2.5 cups of flour. 2. Stir.""#, ["1. Add 2.5 cups of flour. 2. Stir."]),
    ] {
      let html = RecipePages.page(
        head: RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Pasta","recipeInstructions":"# + instructions + "}"))
      let recipe = try #require(try RecipePages.recipes(html).first)
      #expect(RecipePages.lines(recipe["recipeInstructions"]) == expected, "\(instructions)")
    }
  }

  @Test("the rules that read a line letter by letter read a letter and its accents as one")
  func combiningMarks() {
    // "é" written as "e" and U+0301 (as macOS often stores it) is a lower-case letter before
    // the glued full stop, as "é" in one scalar is.
    for accent in ["\u{00E9}", "e\u{0301}"] {
      #expect(
        RecipeInstructions.sentences("Make the pur\(accent)e.Add the caf\(accent).Serve.") == [
          "Make the pur\(accent)e.", "Add the caf\(accent).", "Serve.",
        ])
    }
    // A digit with a mark on it ("1" and U+0301) is no step number.
    #expect(RecipeInstructions.numberedRun("1\u{0301}. Mix. 2. Bake. 3. Cool.") == nil)
    #expect(RecipeInstructions.numberedRun("1. Mix. 2\u{0301}. Bake. 3. Cool.") == nil)
    #expect(
      RecipeInstructions.numberedRun("1. Hache\u{0301}. 2. Saute\u{0301}. 3. Servi.") == [
        "Hache\u{0301}.", "Saute\u{0301}.", "Servi.",
      ])
    // A line of thousands of glued sentences or numbered steps is read in one pass.
    let long = String(repeating: "stir.Then ", count: 20_000)
    #expect(RecipeInstructions.sentences(long).count == 20_001)
    let numbered = (1...5_000).map { "\($0). Stir." }.joined(separator: " ")
    #expect(RecipeInstructions.numberedRun(numbered)?.count == 5_000)
    let spaced = " a\u{00A0}\u{2003}b\u{00AD}c\u{200B}\r\n\u{00C2}\u{00A0}d\u{0301} "
    #expect(HTMLText.collapse(spaced) == "a bc d\u{0301}")
  }

  @Test("a step that is only its number's label (\"Step 2\", \"1:\") is no step")
  func stepLabels() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Rolls","recipeInstructions":["Step 1","Mix.","Stap 2:","Bake.","Step 3 Cool."]}"#
      ))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Mix.", "Bake.", "Step 3 Cool."])
    // One HTML text with each paragraph's number before it, as a page's template writes it.
    let numbered = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Dumplings","recipeInstructions":" 1: <p>Knead the dough.</p> 2: <p>Cut it.</p> 3) <p>Boil 5 min.</p> 4."}"#
      ))
    let dumplings = try #require(try RecipePages.recipes(numbered).first)
    #expect(
      RecipePages.lines(dumplings["recipeInstructions"]) == [
        "Knead the dough.", "Cut it.", "Boil 5 min.",
      ])
  }

  @Test("a step of punctuation only (steps joined with \", \" in one text) is no step")
  func punctuationSteps() throws {
    let html = RecipePages.page(
      head: RecipePages.ldJSON(
        #"{"@type":"Recipe","name":"Cookies","recipeInstructions":"<p>Preheat.</p>\n, <p>Mix.</p>\n, <p>Bake 12 min.</p>"}"#
      ))
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Preheat.", "Mix.", "Bake 12 min."])
  }
}
