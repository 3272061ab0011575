import JSON

/// The last road, for pages with no recipe markup at all: an "Ingredients" heading followed by
/// lists, and a "Method"/"Instructions" heading followed by a list or paragraphs. A heading is
/// an `<h1>`–`<h6>` that names the section, or any element whose whole text is the section's
/// name ("Ingredients", "Method:"); numbered step headings ("Step 1") belong to the method.
/// Ingredients given as lines rather than a list (paragraphs, `<br>`s) are read line by line,
/// a group's name in bold left out. Without a method heading, the paragraphs after the
/// ingredients are the steps; without an ingredients heading, the first list whose lines mostly
/// start with a quantity is the ingredients. Ingredients and steps must both be there, so an
/// article that only mentions ingredients is not taken for a recipe.
enum HeadingRecipeReader {
  static let ingredientWords = [
    "ingredien", "zutaten", "ingrédient", "ingrediënt", "składniki", "benodigdheden",
    "you'll need", "you’ll need", "you will need", "what you need", "υλικά", "hozzávalók",
    "suroviny", "ainekset", "malzemeler", "ингредиенты", "材料", "用料",
  ]
  static let methodWords = [
    "method", "instruction", "direction", "preparation", "procedure", "steps", "zubereitung",
    "préparation", "preparación", "preparazione", "bereiding", "fremgangsm", "werkwijze",
    "elaboración", "tilberedning", "przygotowanie", "step-by-step", "step by step",
    "εκτέλεση", "οδηγίες", "elkészítés", "postup", "gör så här", "tillagning", "modo de preparo",
    "procedimento", "valmistus", "fremgangsmåte", "yapılışı", "приготовление", "作り方", "做法",
  ]
  static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

  static func recipe(in document: HTMLDocument) -> JSONValue? {
    let order = document.descendants()
    let stray = strayProperties(in: order, document: document)
    if stray.ingredients.count >= 2, !stray.steps.isEmpty {
      var found = recipe(
        stray.ingredients, stray.steps, title: title(in: order, document: document))
      if let yield = stray.yield { found["recipeYield"] = .string(yield) }
      return .object(found)
    }
    let marks = headingMarks(in: order, document: document)
    var ingredients: [String] = []
    var ingredientsEnd: Int?
    var steps: [String] = []
    for (number, mark) in marks.enumerated() {
      // Lower headings that open a section name its groups and do not end it.
      let grouped = opensWithGroups(marks, at: number, in: order, document: document)
      let limit =
        marks[(number + 1)...].first { !(grouped && mark.holds($0)) }?.position ?? order.count
      if ingredients.count < 2, mark.kind == .ingredients {
        (ingredients, ingredientsEnd) = checkboxRows(
          from: mark.end, to: limit, in: order, document: document)
        if ingredients.isEmpty {
          (ingredients, ingredientsEnd) = listItems(
            from: mark.end, to: limit, in: order, document: document)
        }
        if ingredients.isEmpty {
          (ingredients, ingredientsEnd) = lineItems(
            from: mark.end, to: limit, in: order, document: document)
        }
      } else if steps.isEmpty, mark.kind == .method || mark.kind == .step {
        // Numbered step headings ("Step 1", "2. Bake") belong to the method's section, and
        // so do lower headings that name its groups: the first list under each is its steps.
        let limit =
          marks[(number + 1)...].first { $0.kind != .step && !(grouped && mark.holds($0)) }?
          .position ?? order.count
        let groups = marks[(number + 1)...].prefix {
          $0.position < limit && grouped && mark.holds($0)
        }
        var start = mark.end
        for group in groups + [HeadingMark(position: limit, end: limit, kind: .other)] {
          steps +=
            listItems(
              from: start, to: group.position, in: order, document: document, steps: true
            ).items
          start = group.end
        }
        if steps.isEmpty {
          steps = paragraphs(from: mark.end, to: limit, in: order, document: document)
        }
      }
    }
    if ingredients.count < 2 {
      (ingredients, ingredientsEnd) = quantityList(in: order, document: document)
    }
    if ingredients.count >= 2, steps.isEmpty, let ingredientsEnd,
      ingredients.contains(where: startsWithQuantity)
    {
      // No heading for the method: two or more paragraphs after ingredients that state
      // quantities, up to the next heading, are the steps.
      let limit = marks.first { $0.position >= ingredientsEnd }?.position ?? order.count
      let texts = paragraphs(from: ingredientsEnd, to: limit, in: order, document: document)
      if texts.count >= 2 { steps = texts }
    }
    if ingredients.count >= 2, steps.isEmpty, let ingredientsEnd,
      let next = marks.firstIndex(where: { $0.position >= ingredientsEnd }),
      marks[next].kind == .other
    {
      // No heading names the method, but the heading right after the ingredients titles it
      // in its own words ("Let's get started!"): its numbered list, or its paragraphs when
      // they read as steps, are the method.
      let limit = next + 1 < marks.count ? marks[next + 1].position : order.count
      steps = stepsUnder(marks[next], to: limit, in: order, document: document)
    }
    if ingredients.count < 2 || steps.isEmpty {
      (ingredients, steps) = namedContainers(in: order, document: document)
    }
    if ingredients.count < 2 || steps.isEmpty {
      (ingredients, steps) = recipeHeading(in: order, document: document)
    }
    guard ingredients.count >= 2, !steps.isEmpty else { return nil }
    return .object(recipe(ingredients, steps, title: title(in: order, document: document)))
  }

  private static func recipe(_ ingredients: [String], _ steps: [String], title: String?)
    -> [String: JSONValue]
  {
    var recipe: [String: JSONValue] = [
      "@type": "Recipe",
      "recipeIngredient": .array(ingredients.map(JSONValue.string)),
      "recipeInstructions": .array(steps.map(JSONValue.string)),
    ]
    if let title { recipe["name"] = .string(title) }
    return recipe
  }

  /// Microdata's recipe properties given without their item (`<li itemprop="ingredients">`,
  /// `<div itemprop="recipeInstructions">` and no `itemscope` around them): each ingredient
  /// element is a line, the instructions' list items or paragraphs are the steps, and the
  /// first `recipeYield` is the yield.
  private static func strayProperties(in order: [Int], document: HTMLDocument) -> (
    ingredients: [String], steps: [String], yield: String?
  ) {
    var ingredients: [String] = []
    var steps: [String] = []
    var yield: String?
    for index in order {
      let names = document.nodes[index].tokens("itemprop").map { $0.lowercased() }
      guard !names.isEmpty else { continue }
      let ingredient = names.contains("recipeingredient") || names.contains("ingredients")
      let method = names.contains("recipeinstructions")
      let yields = names.contains("recipeyield")
      guard ingredient || method || yields,
        document.nodes[index].attribute("itemscope") == nil,
        document.ancestor(of: index, where: { $0.attribute("itemscope") != nil }) == nil
      else { continue }
      if ingredient {
        let text = document.text(of: index)
        if !text.isEmpty { ingredients.append(text) }
      } else if method, steps.isEmpty {
        steps = entries(of: index, document: document, paragraphs: true)
      } else if yields, yield == nil {
        yield = document.text(of: index)
      }
    }
    return (ingredients, steps, yield)
  }

  /// The longest of the page's `<h1>`s that the document title names (a site's name is often
  /// an `<h1>` too), else its first `<h1>`.
  private static func title(in order: [Int], document: HTMLDocument) -> String? {
    let titles = order.filter { document.nodes[$0].name == "h1" }.map { document.text(of: $0) }
      .filter { !$0.isEmpty }
    let page =
      order.first { document.nodes[$0].name == "title" }
      .map { document.text(of: $0).lowercased() } ?? ""
    return titles.filter { page.contains($0.lowercased()) }.max { $0.count < $1.count }
      ?? titles.first
  }

  /// Ingredients and steps in elements named for them by their class (`<dl
  /// class="ingredients">`, `<ul class="instructions">`), as pages without markup often do.
  private static func namedContainers(in order: [Int], document: HTMLDocument) -> (
    [String], [String]
  ) {
    var ingredients: [String] = []
    var steps: [String] = []
    // Each candidate reads its subtree: a hostile page of many nested candidates gets 64 reads.
    var reads = 0
    for index in order where reads < 64 {
      let classes = document.nodes[index].tokens("class").map { $0.lowercased() }
      guard !classes.isEmpty else { continue }
      if ingredients.count < 2, classes.contains(where: { $0.contains("ingredient") }) {
        reads += 1
        ingredients = entries(of: index, document: document, paragraphs: false)
      } else if steps.isEmpty,
        classes.contains(where: { name in stepClasses.contains { name.contains($0) } })
      {
        reads += 1
        steps = entries(of: index, document: document, paragraphs: true)
      }
    }
    return (ingredients, steps)
  }

  private static let stepClasses = ["instruction", "direction", "method", "steps", "preparation"]

  /// The list items (`li`, `dt`) below an element, or its paragraphs when it has no list.
  private static func entries(of root: Int, document: HTMLDocument, paragraphs: Bool) -> [String] {
    let below = document.descendants(of: root)
    let items = below.filter { ["li", "dt"].contains(document.nodes[$0].name) }
    let chosen =
      items.isEmpty && paragraphs
      ? below.filter { document.nodes[$0].name == "p" } : items
    return chosen.map { document.text(of: $0) }.filter { !$0.isEmpty }
  }

  /// A heading that names a recipe ("Recipe: Orange juice carrots") followed by a list (the
  /// ingredients) and paragraphs (the steps) before the next heading.
  private static func recipeHeading(in order: [Int], document: HTMLDocument) -> (
    [String], [String]
  ) {
    var tried = 0
    for (position, index) in order.enumerated() where headings.contains(document.nodes[index].name)
    {
      guard tried < 16, document.text(of: index).lowercased().hasPrefix("recipe") else { continue }
      tried += 1
      var ingredients: [String] = []
      var steps: [String] = []
      for next in order[(position + 1)...].prefix(2_000) {
        let node = document.nodes[next]
        if headings.contains(node.name) { break }
        if ingredients.isEmpty, node.name == "ul" || node.name == "ol" {
          ingredients = node.children.filter { document.nodes[$0].name == "li" }
            .map { document.text(of: $0) }.filter { !$0.isEmpty }
        } else if !ingredients.isEmpty, node.name == "p" {
          let text = document.text(of: next)
          if !text.isEmpty { steps.append(text) }
        }
      }
      if ingredients.count >= 2, !steps.isEmpty { return (ingredients, steps) }
    }
    return ([], [])
  }
}
