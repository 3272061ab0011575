/// A recipe to add to a book: its name, the schema.org object as JSON text, tags, the text
/// full-text search looks in (name, ingredients, steps, keywords...), and what a list shows of
/// it (JSON text; nil lists it from the whole recipe).
public struct NewRecipe: Sendable, Equatable {
  public var name: String
  public var recipe: String
  public var tags: [String]
  public var searchText: String
  public var summary: String?

  public init(
    name: String, recipe: String, tags: [String], searchText: String, summary: String? = nil
  ) {
    self.name = name
    self.recipe = recipe
    self.tags = tags
    self.searchText = searchText
    self.summary = summary
  }
}
