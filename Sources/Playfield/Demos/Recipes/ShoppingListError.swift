/// A shopping-list message that cannot be applied; `message` says why.
struct ShoppingListError: Error, Sendable, Equatable {
  let message: String

  init(_ message: String) {
    self.message = message
  }
}
