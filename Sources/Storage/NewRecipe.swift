/// A recipe to add to a book: its name, the schema.org object as JSON text, tags, and the text
/// full-text search looks in (name, ingredients, steps, keywords...).
public struct NewRecipe: Sendable, Equatable {
  public var name: String
  public var recipe: String
  public var tags: [String]
  public var searchText: String

  public init(name: String, recipe: String, tags: [String], searchText: String) {
    self.name = name
    self.recipe = recipe
    self.tags = tags
    self.searchText = searchText
  }
}
