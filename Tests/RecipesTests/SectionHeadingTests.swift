import JSON
import Testing

@testable import Recipes

/// Pages with no recipe markup whose sections are named by elements other than headings, or
/// not named at all.
@Suite("Recipes from pages whose sections are not marked up")
struct SectionHeadingTests {
  @Test("any element whose whole text names a section is its heading; every list of the group")
  func textHeadings() throws {
    let html = RecipePages.page(
      head: "<title>Shortbread</title>",
      body: #"""
        <nav><a href="/pay">Payment Methods</a></nav>
        <ul class="tabs"><li><span>Ingredients</span></li><li><span>Method</span></li></ul>
        <h1>Shortbread</h1>
        <h2><div>Ingredienser</div></h2>
        <div><p><b>BASE</b></p><ul><li><div>•</div><p>130 g flour</p></li>
          <li><div>•</div><p>50 g sugar</p></li></ul></div>
        <div><p><b>CARAMEL</b></p><ul><li><div>•</div><p>1 can milk</p></li></ul></div>
        <div><span>Method:</span><button>Copy</button></div>
        <div><p>Mix the flour and sugar.</p></div><div><p>Bake for 20 minutes.</p></div>
        <footer><p>Newsletter</p></footer>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Shortbread")
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "130 g flour", "50 g sugar", "1 can milk",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Mix the flour and sugar.", "Bake for 20 minutes.",
      ])
  }

  @Test("an ingredients heading and no method heading: the paragraphs after the lists are steps")
  func stepsAfterIngredients() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Ribs</h1><p>Watch the video first.</p>
        <p>Ingredients</p>
        <ul><li>Baby back ribs</li><li>1 cup of vinegar</li></ul>
        <p>Optional</p><ul><li>Your favourite sauce</li></ul>
        <p><span>Prepare your smoker at 275 degrees, with hickory wood for this smoke.</span></p>
        <p>Smoke for three hours.</p>
        <h3>Related recipes</h3><p>Brisket.</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "Baby back ribs", "1 cup of vinegar", "Your favourite sauce",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Prepare your smoker at 275 degrees, with hickory wood for this smoke.",
        "Smoke for three hours.",
      ])
    // Without a method heading, one paragraph after the lists is no method.
    let note = RecipePages.page(
      body: "<h1>A</h1><p>Ingredients</p><ul><li>1 egg</li><li>2 figs</li></ul><p>Text.</p>")
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(note) }
  }

  @Test("no headings at all: the first list of quantities, then the paragraphs after it")
  func quantityList() throws {
    let html = RecipePages.page(
      body: #"""
        <header><ul><li>1 Home</li><li>2 Shop</li><li>3 Help</li></ul></header>
        <h1>Chicken salad</h1>
        <ul><li>Fresh</li><li>Quick</li><li>Cheap</li></ul>
        <ul><li>6 cups chicken, shredded</li><li>&frac12; cup blue cheese</li>
          <li>Salt, to taste</li></ul>
        <hr><p>Combine the chicken and cheese.</p><p>Season. Makes 6 servings.</p>
        <footer><p>Contact us</p></footer>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "6 cups chicken, shredded", "½ cup blue cheese", "Salt, to taste",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Combine the chicken and cheese.", "Season. Makes 6 servings.",
      ])
    // A page of lists that are not quantities, with prose, is still no recipe.
    let article = RecipePages.page(
      body: "<h1>Our shops</h1><ul><li>Oslo</li><li>Bergen</li><li>Tromsø</li></ul><p>Open.</p>")
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(article) }
  }

  @Test("a \"Step-by-step\" heading names the method; its list is the steps, not later lists")
  func stepByStep() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Stroganoff</h1>
        <h3>Ingredients</h3><select><option>Metric</option></select>
        <strong>For the pickle</strong><ul><li>50 g cucumber</li><li>1 shallot</li></ul>
        <strong>For the beef</strong><ul><li>250 g beef fillet</li></ul>
        <h3>Step-by-step</h3><ol><li>Slice the cucumber.</li><li>Fry the beef.</li></ol>
        <ul class="tags"><li>Dinner</li><li>Beef</li></ul>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "50 g cucumber", "1 shallot", "250 g beef fillet",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Slice the cucumber.", "Fry the beef."])
  }

  @Test("a step's number drawn in a cell of its own is no part of the step; soft hyphens go")
  func stepNumbers() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Skewers</h1><h3>Ingredients</h3><ul><li>1 C strawberries</li><li>8 skewers</li></ul>
        <h3>Directions</h3><ul>
          <li><table><tr><td><span>1</span></td><td>Thread the straw&shy;berries.</td></tr></table></li>
          <li><table><tr><td><span>2</span></td><td>Serve 2 skewers each.</td></tr></table></li>
        </ul>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Thread the strawberries.", "Serve 2 skewers each.",
      ])
    // An ingredient's quantity drawn in its own element is kept.
    let drawn = RecipePages.page(
      body: #"""
        <h1>Sauce</h1><div><span>Ingredients</span></div>
        <ul><li><div>1</div><div><p>can tomato puree</p></div></li>
          <li><div>3</div><div><p>cups water</p></div></li></ul>
        <h2>Method</h2><p>Simmer.</p>
        """#)
    let sauce = try #require(try RecipePages.recipes(drawn).first)
    #expect(
      RecipePages.strings(sauce["recipeIngredient"]) == ["1 can tomato puree", "3 cups water"])
  }

  @Test("ingredients as lines, not a list: each line, a bold group name left out")
  func ingredientLines() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Lamb curry</h1>
        <h2>INGREDIENTS</h2><div><p><strong>Meatballs&nbsp;</strong><br> 400 grams lamb mince<br>
          • 2 cloves garlic, crushed</p><p><strong>Sauce</strong></p><p>1 cup coconut cream</p>
          <p><b>2 eggs</b></p></div>
        <p>Zubereitung</p>
        <p>– Roll the meatballs<br>– Simmer them in the sauce</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "400 grams lamb mince", "2 cloves garlic, crushed", "1 cup coconut cream", "2 eggs",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Roll the meatballs", "Simmer them in the sauce",
      ])
    // Lines inside an element that also holds the method heading: read up to the heading.
    let wrapped = RecipePages.page(
      body: #"""
        <h1>Scones</h1><p>Ingredients</p>
        <div><div><p>2 cups flour</p><p>1 cup cream</p></div>
          <div><p>Method</p><p>Mix.</p><p>Bake.</p></div></div>
        """#)
    let scones = try #require(try RecipePages.recipes(wrapped).first)
    #expect(RecipePages.strings(scones["recipeIngredient"]) == ["2 cups flour", "1 cup cream"])
    #expect(RecipePages.lines(scones["recipeInstructions"]) == ["Mix.", "Bake."])
  }

  @Test("numbered step headings belong to the method; inside a list item they title the item")
  func numberedStepHeadings() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Potatoes</h1><h3>Ingredients:</h3><ul><li>4 sweet potatoes</li><li>4 tbsp butter</li></ul>
        <h3>Preparation:</h3><h6>STEP 1.</h6><p>Smash the garlic.</p>
        <h6>Step 2</h6><p>Roast the potatoes.</p><h2>Comments</h2><p>Lovely!</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Smash the garlic.", "Roast the potatoes.",
      ])
    // Without a method heading, the first numbered step heading starts the method.
    let unheaded = RecipePages.page(
      body: #"""
        <h1>Chowder</h1><h2>What You’ll Need</h2><ul><li>4 slices bacon</li><li>1 onion</li></ul>
        <h2>Make ahead</h2><p>Dice the onions a day ahead.</p>
        <h3>Step 1: Cook the bacon</h3><p>Cook the bacon.</p><h3>Step 2: Add</h3><p>Add the onion.</p>
        """#)
    let chowder = try #require(try RecipePages.recipes(unheaded).first)
    #expect(
      RecipePages.lines(chowder["recipeInstructions"]) == ["Cook the bacon.", "Add the onion."])
    let titled = RecipePages.page(
      body: #"""
        <h1>Rice</h1><ul class="ingredients"><li>1 cup rice</li><li>2 cups water</li></ul>
        <div class="method"><ul><li><h5>1. TO COOK:</h5><p>Boil the rice.</p></li>
          <li><h5>2. TO SERVE:</h5><p>Fluff it.</p></li></ul></div>
        """#)
    let rice = try #require(try RecipePages.recipes(titled).first)
    #expect(
      RecipePages.lines(rice["recipeInstructions"]) == [
        "1. TO COOK: Boil the rice.", "2. TO SERVE: Fluff it.",
      ])
    #expect(HeadingRecipeReader.isNumberedStep("stap 2:"))
    #expect(HeadingRecipeReader.isNumberedStep("4. bake"))
    #expect(!HeadingRecipeReader.isNumberedStep("10 minute dinners"))
    #expect(!HeadingRecipeReader.isNumberedStep("steps"))
  }

  @Test("an absolute address glued after a bare origin is the inner address")
  func gluedAddress() {
    #expect(
      PageURL.resolve("http://a.testhttps://cdn.test/x.jpg", base: "https://a.test/r")
        == "https://cdn.test/x.jpg")
    #expect(
      PageURL.resolve("https://cdn.test/scale/https%3A%2F%2Fa.test%2Fx.png", base: nil)
        == "https://cdn.test/scale/https%3A%2F%2Fa.test%2Fx.png")
    #expect(
      PageURL.resolve("https://cdn.test/img?src=https://a.test/x.png", base: nil)
        == "https://cdn.test/img?src=https://a.test/x.png")
  }

  @Test("lines drawn in a heading's tag are content; steps numbered in order lose their numbers")
  func linesInAHeadingTag() throws {
    let html = RecipePages.page(
      head: "<title>Butter Chicken</title>",
      body: #"""
        <h1>Butter Chicken</h1>
        <h4>Ingredients</h4>
        <h5>• 2 tablespoons olive oil<br/> • 50g butter<br/> • 1.6kg chicken thighs</h5>
        <h4><i class="icon"></i> Method</h4>
        <p><strong>1.</strong> Brown the chicken.</p><p><strong>2.</strong> Add the butter.</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "2 tablespoons olive oil", "50g butter", "1.6kg chicken thighs",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Brown the chicken.", "Add the butter.",
      ])
    // Numbers out of order are the steps' own text.
    #expect(HeadingRecipeReader.unnumbered(["2. Fry.", "1. Boil."]) == ["2. Fry.", "1. Boil."])
    #expect(HeadingRecipeReader.unnumbered(["1. Fry.", "2) Boil."]) == ["Fry.", "Boil."])
  }

  @Test("section names in more languages: Greek, Hungarian, Swedish, Portuguese, Japanese")
  func moreLanguages() throws {
    for (ingredients, method) in [
      ("Υλικά", "Εκτέλεση"), ("Hozzávalók", "Elkészítés"), ("Ingredienser", "Gör så här"),
      ("Ingredientes", "Modo de preparo"), ("材料", "作り方"),
    ] {
      let html = RecipePages.page(
        body: """
          <h1>Dish</h1><h2>\(ingredients)</h2><ul><li>2 eggs</li><li>1 cup milk</li></ul>
          <div>\(method)</div><p>Whisk the eggs.</p><p>Add the milk.</p>
          """)
      let recipe = try #require(try RecipePages.recipes(html).first, "\(method)")
      #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["2 eggs", "1 cup milk"])
      #expect(
        RecipePages.lines(recipe["recipeInstructions"]) == ["Whisk the eggs.", "Add the milk."],
        "\(method)")
    }
  }

  @Test("no method heading: the heading after the ingredients titles the method in its own words")
  func headingAfterIngredients() throws {
    let listed = RecipePages.page(
      body: #"""
        <h1>Fondant</h1><h4>Shopping</h4><em>Ingredients</em>
        <ul><li>1 bag marshmallows</li><li>3 tablespoons water</li></ul>
        <h4>Let's get started!</h4>
        <ol><li>Melt the marshmallows.</li><li>Knead in the sugar.</li></ol>
        """#)
    let recipe = try #require(try RecipePages.recipes(listed).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "1 bag marshmallows", "3 tablespoons water",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Melt the marshmallows.", "Knead in the sugar.",
      ])
    let step =
      "Beat the eggs with the sugar until pale, fold in the flour and bake for fifty minutes."
    let prose = RecipePages.page(
      body: """
        <h1>Kuglóf</h1><h2><span>Hozzávalók</span></h2>
        <ul><li><span>4 db</span> <span>tojás</span></li><li><span>250 g</span> liszt</li></ul>
        <h2><span>A recept</span></h2><section><p>\(step)</p></section>
        """)
    let cake = try #require(try RecipePages.recipes(prose).first)
    #expect(RecipePages.lines(cake["recipeInstructions"]) == [step])
    // A heading over a short line of links, or over a bulleted list, names no method.
    let afters = ["<h3>Related recipes</h3><p>Brisket.</p>", "<h3>Tags</h3><ul><li>Cake</li></ul>"]
    for after in afters {
      let related = RecipePages.page(
        body: "<h1>A</h1><h2>Ingredients</h2><ul><li>1 egg</li><li>2 figs</li></ul>\(after)")
      #expect(throws: RecipeImportError.self, "\(after)") { try RecipePages.recipes(related) }
    }
  }

  @Test("tabs name the sections they show; a group's heading inside a tab does not end it")
  func tabLinks() throws {
    let padding = String(repeating: " ", count: 60)
    let html = RecipePages.page(
      head: "<title>Buns</title>",
      body: """
        <h1>Buns</h1>
        <ul class="nav"><li><a href="#ing" role="tab">Ingredients</a></li>
          <li><a href="javascript:void(0)" aria-controls="none" data-target="#prep">
          Method\(padding)</a></li></ul>
        <div id="ing"><div>Flour</div><div>Sugar</div></div>
        <div id="prep"><h4>Dough</h4><ol><li>Mix the flour.</li><li>Bake.</li></ol></div>
        """)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["name"] == "Buns")
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["Flour", "Sugar"])
    #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Mix the flour.", "Bake."])
    // A link to another page, or to nothing on this one, names no section.
    let links = RecipePages.page(
      body: """
        <h1>Buns</h1><a href="/ing">Ingredients</a><a href="#gone">Method</a>
        <div><div>Flour</div><div>Sugar</div></div><ol><li>Mix.</li><li>Bake.</li></ol>
        """)
    #expect(throws: RecipeImportError.self) { try RecipePages.recipes(links) }
  }

  @Test("lower headings that open a section name its groups; checkbox rows are ingredient lines")
  func groupsAndCheckboxRows() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Gemista</h1>
        <div><div><h2>Ingredients</h2></div><h3>For the vegetables</h3>
          <div><input type="checkbox" id="i1"><label for="i1"><span>6 </span><p>tomatoes</p>
          </label></div>
          <div><input type="checkbox" id="i2"><label for="i2"><span>3 </span><p>peppers</p>
          </label></div>
          <h3>For the filling</h3>
          <div><input type="checkbox" id="i3"><label for="i3"><span>12 tbsp</span><p>rice</p>
          </label></div></div>
        <h2>Method</h2><h3></h3><ol><li>Hollow the tomatoes.</li></ol>
        <h3>Filling</h3><ol><li>Fry the rice.</li><li>Fill them.</li></ol>
        <h2>More recipes</h2><ol><li>Moussaka</li></ol>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "6 tomatoes", "3 peppers", "12 tbsp rice",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == [
        "Hollow the tomatoes.", "Fry the rice.", "Fill them.",
      ])
    // A lower heading after the section's own lines ends it ("Tips", "Each serving contains").
    let tips = RecipePages.page(
      body: #"""
        <h1>Muffins</h1><h2>Ingredients</h2><ul><li>1 cup oats</li><li>2 eggs</li></ul>
        <h3>Each serving contains</h3><ul><li>Fat 10g</li></ul>
        <h2>Directions</h2><ol><li>Mix.</li><li>Bake.</li></ol><h3>Tips</h3><ul><li>Oats</li></ul>
        """#)
    let muffins = try #require(try RecipePages.recipes(tips).first)
    #expect(RecipePages.strings(muffins["recipeIngredient"]) == ["1 cup oats", "2 eggs"])
    #expect(RecipePages.lines(muffins["recipeInstructions"]) == ["Mix.", "Bake."])
  }

  @Test("microdata's recipe properties without their item give the ingredients, steps and yield")
  func strayProperties() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Carbonara</h1><p>Not the traditional way.</p>
        <h3 itemprop="recipeYield">For 2 people:</h3><ul><li itemprop="ingredients"><span>250 g tagliatelle</span></li>
          <li itemprop="ingredients">1 egg</li></ul>
        <div itemprop="recipeInstructions"><p><img src="a.jpg"></p><p>1- Beat the egg.</p>
          <p>2- Toss the pasta.</p></div>
        <p>Previous article</p><p>Risotto</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(RecipePages.strings(recipe["recipeIngredient"]) == ["250 g tagliatelle", "1 egg"])
    #expect(recipe["recipeYield"] == "2 servings")
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["1- Beat the egg.", "2- Toss the pasta."])
  }

  @Test("a list of tabs in a section is passed over, and so are the parts its other tabs show")
  func unitTabs() throws {
    for (us, metric) in [("", #" aria-selected="true""#), (#" class="active""#, "")] {
      let html = RecipePages.page(
        body: """
          <h1>Pancakes</h1><h3><span>Ingredients</span></h3>
          <ul class="nav"><li><a href="#us" role="tab"\(us)>US</a></li>
            <li><a href="#metric" data-toggle="tab"\(metric)>Metric</a></li></ul>
          <div><div id="us"><p>8.8oz flour</p><p>1 egg</p></div>
            <div id="metric"><p>250g flour</p><p>1 egg</p></div></div>
          <h3>Method</h3><ol><li>Whisk.</li><li>Fry.</li></ol>
          """)
      let recipe = try #require(try RecipePages.recipes(html).first)
      let shown = us.isEmpty ? ["250g flour", "1 egg"] : ["8.8oz flour", "1 egg"]
      #expect(RecipePages.strings(recipe["recipeIngredient"]) == shown)
      #expect(RecipePages.lines(recipe["recipeInstructions"]) == ["Whisk.", "Fry."])
    }
  }

  @Test("no ingredients heading: lists under headings of the first list's level are its groups")
  func aisleGroups() throws {
    let html = RecipePages.page(
      body: #"""
        <h1>Tuna melt</h1>
        <div><h2><span>Produce</span></h2></div>
        <div><ul><li>1 red onion</li><li>2 celery stalks</li><li>1 lemon</li></ul></div>
        <div><h2><span>Pantry</span></h2></div>
        <div><ul><li>2 cans tuna</li><li>Kosher salt</li><li>2 slices rye bread</li></ul></div>
        <div><h2>Dairy</h2></div><ul><li>6 ounces cheddar</li></ul>
        <h2>Method</h2><ol><li>Chop the onion.</li><li>Melt the cheese.</li></ol>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(
      RecipePages.strings(recipe["recipeIngredient"]) == [
        "1 red onion", "2 celery stalks", "1 lemon", "2 cans tuna", "Kosher salt",
        "2 slices rye bread", "6 ounces cheddar",
      ])
    #expect(
      RecipePages.lines(recipe["recipeInstructions"]) == ["Chop the onion.", "Melt the cheese."])
    // A heading of another level, or text between, ends the groups.
    let other = RecipePages.page(
      body: #"""
        <h1>Tuna melt</h1><h2>Produce</h2>
        <ul><li>1 red onion</li><li>2 celery stalks</li><li>1 lemon</li></ul>
        <p>Shop early.</p><h2>Tips</h2><ul><li>2 ideas</li></ul>
        <h2>Method</h2><ol><li>Chop the onion.</li></ol>
        """#)
    let melt = try #require(try RecipePages.recipes(other).first)
    #expect(
      RecipePages.strings(melt["recipeIngredient"]) == [
        "1 red onion", "2 celery stalks", "1 lemon",
      ])
  }
}
