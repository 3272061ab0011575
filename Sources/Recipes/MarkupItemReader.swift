import JSON

/// Recipes marked up in HTML attributes (microdata, RDFa, microformats), as schema.org JSON
/// objects of strings and nested objects, ready for `RecipeNormalizer`.
///
/// Text values keep their line breaks ("\n" between blocks and list items) so that
/// instructions and ingredients given as one element split into steps.
struct MarkupItemReader {
  let document: HTMLDocument
  let vocabulary: MarkupVocabulary

  func recipes() -> [JSONValue] {
    rootedRecipes().map(\.value)
  }

  /// The recipes with the index of the element each starts at.
  func rootedRecipes() -> [(root: Int, value: JSONValue)] {
    var found: [(root: Int, value: JSONValue)] = []
    var inside: Set<Int> = []
    for index in document.descendants() {
      let node = document.nodes[index]
      guard vocabulary.startsItem(node), vocabulary.isRecipe(node) else { continue }
      // A recipe nested in another recipe (a sub-recipe) is read as its own recipe too, but a
      // recipe root marked twice (hRecipe inside an itemscope of the same element) is one.
      if inside.contains(index) { continue }
      inside.insert(index)
      found.append((index, item(at: index)))
    }
    return found
  }

  /// Property names that give the same member under an older name: an element of one wraps
  /// the values of the other (`<div itemprop="recipeIngredient">` around
  /// `<li itemprop="ingredients">` lines).
  private static let synonyms = [
    "recipeIngredient": "ingredients", "ingredients": "recipeIngredient",
  ]

  /// Whether an element below `index` (outside nested items) gives a value to one of `names`:
  /// then the element at `index` only wraps the values (`<div class="instructions">` around
  /// `<p class="instructions">` steps) and gives none itself.
  private func wraps(_ index: Int, names: [String]) -> Bool {
    var stack = Array(document.nodes[index].children.reversed())
    var budget = 20_000
    while let child = stack.popLast(), budget > 0 {
      budget -= 1
      let node = document.nodes[child]
      guard !node.isText else { continue }
      if vocabulary.properties(node).contains(where: { name in
        names.contains(name) || names.contains { Self.synonyms[$0] == name }
      }) {
        return true
      }
      if !vocabulary.startsItem(node) { stack.append(contentsOf: node.children.reversed()) }
    }
    return false
  }

  /// The item an element starts: its properties down to nested items.
  func item(at root: Int) -> JSONValue {
    var members: [String: [JSONValue]] = [:]
    var sources: [String: [Int]] = [:]
    var order: [String] = []
    var stack = Array(document.nodes[root].children.reversed())
    while let index = stack.popLast() {
      let node = document.nodes[index]
      guard !node.isText else { continue }
      let names = vocabulary.properties(node)
      let nested = vocabulary.startsItem(node)
      if !names.isEmpty, nested || !wraps(index, names: names) {
        let value = nested ? item(at: index) : self.value(of: index)
        for name in names {
          if members[name] == nil { order.append(name) }
          members[name, default: []].append(value)
          sources[name, default: []].append(nested ? -1 : index)
        }
      }
      if !nested { stack.append(contentsOf: node.children.reversed()) }
    }
    for name in ["recipeIngredient", "ingredients"] {
      guard let values = members[name], let indices = sources[name] else { continue }
      let wrapped = Set(indices.filter { wrapper(at: $0) != nil })
      let names = Set(
        wrapped.filter { isGroupName($0, lines: indices.filter { !wrapped.contains($0) }) })
      // Most values wrapped alike are the lines' own style, not group names.
      if !names.isEmpty, names.count * 2 < indices.count {
        members[name] = zip(values, indices).filter { !names.contains($0.1) }.map(\.0)
      }
    }
    var object: [String: JSONValue] = [:]
    if let type = vocabulary.type(document.nodes[root]) { object["@type"] = .string(type) }
    for name in order {
      let values = members[name]!
      object[name] = values.count == 1 ? values[0] : .array(values)
    }
    return .object(object)
  }

  /// The one child that holds all the text of the element at `index`, when that text has no
  /// digit (whitespace beside the child aside); nil otherwise.
  private func wrapper(at index: Int) -> Int? {
    guard index >= 0 else { return nil }
    let text = document.text(of: index)
    guard !text.isEmpty, !text.contains(where: \.isNumber) else { return nil }
    var only: Int?
    for child in document.nodes[index].children {
      let node = document.nodes[child]
      if node.isText {
        if !HTMLText.collapse(node.text).isEmpty { return nil }
        continue
      }
      if only != nil { return nil }
      only = child
    }
    guard let only, document.text(of: only) == text else { return nil }
    return only
  }

  /// Whether the ingredient element at `index` is a group's name the markup marks as one
  /// ("<li itemprop="ingredients"><strong>For the sauce</strong></li>"): no digit, and all its
  /// text in one child that is bold, a heading, or has a class that none of the ingredients'
  /// own `lines` (the elements not wrapped so) has.
  private func isGroupName(_ index: Int, lines: [Int]) -> Bool {
    guard let only = wrapper(at: index) else { return false }
    let node = document.nodes[only]
    if ["strong", "b"].contains(node.name) || HeadingRecipeReader.headings.contains(node.name) {
      return true
    }
    let classes = Set(node.tokens("class"))
    guard !classes.isEmpty else { return false }
    return !lines.contains { line in
      line >= 0
        && ([line] + document.descendants(of: line)).contains {
          !Set(document.nodes[$0].tokens("class")).isDisjoint(with: classes)
        }
    }
  }

  /// The value an element gives its property (microdata's rules, RDFa's `content`, and the
  /// microformats' `value-title` and `<abbr title>`).
  private func value(of index: Int) -> JSONValue {
    let node = document.nodes[index]
    if let content = node.attribute("content") { return .string(content) }
    switch node.name {
    case "img", "audio", "video", "source", "embed", "iframe":
      let source = node.attribute("src") ?? node.attribute("data-src") ?? ""
      return image(source, node: node)
    case "a", "area", "link":
      if let href = node.attribute("href"), vocabulary.properties(node).contains("image") {
        return image(href, node: node)
      }
      if let href = node.attribute("href"), node.name == "link" { return .string(href) }
    case "data", "meter":
      if let value = node.attribute("value") { return .string(value) }
    case "time":
      if let time = node.attribute("datetime") { return .string(time) }
    case "abbr":
      if let title = node.attribute("title") { return .string(title) }
    default:
      break
    }
    if let resource = node.attribute("resource") ?? node.attribute("datetime") {
      return .string(resource)
    }
    // Microformats' value-title pattern: <span class="value-title" title="PT30M">.
    for child in node.children where document.nodes[child].tokens("class").contains("value-title") {
      if let title = document.nodes[child].attribute("title") { return .string(title) }
    }
    if vocabulary.properties(node).contains("image") {
      if let img = document.descendants(of: index).first(where: { document.nodes[$0].name == "img" }
      ),
        let source = document.nodes[img].attribute("src")
      {
        return image(source, node: document.nodes[img])
      }
    }
    return .string(document.lines(of: index).joined(separator: "\n"))
  }

  /// An image value: an ImageObject with the size the markup gives, so the largest can win.
  private func image(_ source: String, node: HTMLNode) -> JSONValue {
    var object: [String: JSONValue] = ["@type": "ImageObject", "url": .string(source)]
    if let width = node.attribute("width").flatMap(Double.init) { object["width"] = .number(width) }
    if let height = node.attribute("height").flatMap(Double.init) {
      object["height"] = .number(height)
    }
    return .object(object)
  }
}
