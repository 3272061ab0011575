/// Why a page gave no recipe: says what was looked for, or what was wrong with the input.
public struct RecipeImportError: Error, Equatable, Sendable {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }
}
