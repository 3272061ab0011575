import JSON

/// A recipe's images as candidates for `ImageCandidate.best`: strings, lists, `ImageObject`s
/// (with their stated sizes) and `@id` references, in order, the first ranked above the others.
enum RecipeImage {
  static func best(_ value: JSONValue?, base: String?) -> String? {
    ImageCandidate.best(candidates(value), base: base)
  }

  static func candidates(_ value: JSONValue?) -> [ImageCandidate] {
    var candidates: [ImageCandidate] = []
    var stack: [JSONValue] = value.map { [$0] } ?? []
    var budget = 1_000
    while let current = stack.popLast(), budget > 0 {
      budget -= 1
      let rank = candidates.isEmpty ? ImageCandidate.first : ImageCandidate.own
      switch current {
      case .string(let text):
        candidates.append(ImageCandidate(url: text, rank: rank))
      case .array(let elements):
        stack.append(contentsOf: elements.reversed())
      case .object:
        let link = current["url"] ?? current["@id"] ?? current["contentUrl"]
        if let url = link?.stringValue ?? link?.arrayValue?.first?.stringValue {
          candidates.append(
            ImageCandidate(
              url: url,
              width: side(current, ["width", "pixelWidth", "contentWidth"]),
              height: side(current, ["height", "pixelHeight", "contentHeight"]), rank: rank))
        } else if let nested = link {
          stack.append(nested)
        }
      default:
        break
      }
    }
    return candidates
  }

  /// The first of `keys` present, read as a size.
  private static func side(_ object: JSONValue, _ keys: [String]) -> Int? {
    keys.lazy.compactMap { object[$0] }.first.flatMap { number($0) }
  }

  /// A size: a number, the first digits of a string ("1200", "1200px") or a
  /// QuantitativeValue's value.
  private static func number(_ value: JSONValue) -> Int? {
    switch value {
    case .number(let number): return number.isFinite && abs(number) < 1e9 ? Int(number) : nil
    case .string(let text):
      let digits = text.drop { !$0.isASCII || !$0.isNumber }.prefix { $0.isASCII && $0.isNumber }
      return Int(digits.prefix(9))
    case .object:
      return ["value", "maxValue", "minValue"].lazy.compactMap { value[$0] }.first.flatMap(number)
    default: return nil
    }
  }
}
