/// A book of recipes, and what the token that found it may do there.
public struct RecipeBook: Sendable, Equatable {
  /// Its id, random, not secret.
  public var id: String
  /// What the caller may do in it.
  public var access: RecipeAccess
  /// Whether the owner has handed out links that still work.
  public var hasReadLink: Bool
  public var hasWriteLink: Bool

  public init(id: String, access: RecipeAccess, hasReadLink: Bool, hasWriteLink: Bool) {
    self.id = id
    self.access = access
    self.hasReadLink = hasReadLink
    self.hasWriteLink = hasWriteLink
  }
}
