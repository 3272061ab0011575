/// A recipe's id from the path: a positive whole number (so `/api/recipes/export` is not one).
struct RecipeID: PathParameter {
  let value: Int64

  init?(segments: ArraySlice<String>) {
    guard segments.count == 1, let text = segments.first, text.allSatisfy(\.isASCII),
      let value = Int64(text), value > 0
    else { return nil }
    self.value = value
  }

  static let example = ["999999"]
}
