/// One recipe of a book as a list shows it: what the store keeps for lists, never the whole
/// recipe, except for a recipe stored before summaries were (`summary` nil, `recipe` set).
public struct ListedRecipe: Sendable, Equatable {
  public var id: Int64
  public var name: String
  /// Lowercase tags, sorted, without duplicates.
  public var tags: [String]
  public var createdAt: Double
  /// What the list shows of it, JSON text (`NewRecipe.summary`).
  public var summary: String?
  /// The whole schema.org `Recipe` object, only when there is no `summary`.
  public var recipe: String?

  public init(
    id: Int64, name: String, tags: [String], createdAt: Double, summary: String?, recipe: String?
  ) {
    self.id = id
    self.name = name
    self.tags = tags
    self.createdAt = createdAt
    self.summary = summary
    self.recipe = recipe
  }
}
