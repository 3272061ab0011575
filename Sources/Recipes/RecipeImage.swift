import JSON

/// The best image among a recipe's: strings, lists, `ImageObject`s and `@id` references.
/// The largest wins when sizes are known; otherwise the first.
enum RecipeImage {
  static func best(_ value: JSONValue?, base: String?) -> String? {
    var candidates: [(url: String, area: Double?)] = []
    var stack: [JSONValue] = value.map { [$0] } ?? []
    var budget = 1_000
    while let current = stack.popLast(), budget > 0 {
      budget -= 1
      switch current {
      case .string(let text):
        let url = HTMLText.collapse(text)
        if PageFallback.isPhoto(url) { candidates.append((url, nil)) }
      case .array(let elements):
        stack.append(contentsOf: elements.reversed())
      case .object:
        let url =
          current["url"]?.stringValue ?? current["contentUrl"]?.stringValue
          ?? current["@id"]?.stringValue
        if let url, PageFallback.isPhoto(url) {
          let width = number(current["width"])
          let height = number(current["height"])
          let area = width.map { $0 * (height ?? $0) }
          candidates.append((HTMLText.collapse(url), area))
        } else if let nested = current["url"] {
          stack.append(nested)
        }
      default:
        break
      }
    }
    guard !candidates.isEmpty else { return nil }
    var best = candidates[0]
    for candidate in candidates.dropFirst() {
      if let area = candidate.area, area > (best.area ?? 0) { best = candidate }
    }
    return PageURL.resolve(best.url, base: base)
  }

  /// A size: a number, a numeric string ("1200", "1200px") or a QuantitativeValue.
  private static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .number(let number): return number
    case .string(let text): return Double(text.prefix { $0.isNumber })
    case .object: return number(value?["value"])
    default: return nil
    }
  }
}
