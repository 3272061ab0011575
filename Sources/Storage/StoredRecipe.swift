/// One recipe of a book as stored: the schema.org Recipe object as JSON text, its tags.
public struct StoredRecipe: Sendable, Equatable {
  public var id: Int64
  public var bookID: String
  public var name: String
  /// The schema.org `Recipe` object, serialized JSON.
  public var recipe: String
  /// Lowercase tags, sorted, without duplicates.
  public var tags: [String]
  public var createdAt: Double
  public var updatedAt: Double

  public init(
    id: Int64, bookID: String, name: String, recipe: String, tags: [String], createdAt: Double,
    updatedAt: Double
  ) {
    self.id = id
    self.bookID = bookID
    self.name = name
    self.recipe = recipe
    self.tags = tags
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}
