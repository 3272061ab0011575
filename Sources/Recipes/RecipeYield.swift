/// Yields as careful importers give them: "N servings", "N items" or "N <unit>"; a range
/// keeps its upper end ("4-6 servings" → "6 servings", "Serves 2 to 4" → "4 servings").
/// These are recipe-scrapers' conventions (the dev set's expected answers), rule for rule: a
/// range is "N-M" or "N to M" anywhere in the text (an en dash is not a range).
enum RecipeYield {
  /// Units a yield may count, singular and plural, longest match wins.
  private static let units: [(String, String)] = [
    ("dozen", "dozen"), ("batch", "batches"), ("cake", "cakes"), ("sandwich", "sandwiches"),
    ("bun", "buns"), ("hamburger bun", "hamburger buns"), ("cookie", "cookies"),
    ("muffin", "muffins"), ("cupcake", "cupcakes"), ("loaf", "loaves"), ("pie", "pies"),
    ("cup", "cups"), ("pint", "pints"), ("quart", "quarts"), ("gallon", "gallons"),
    ("ounce", "ounces"), ("pound", "pounds"), ("gram", "grams"), ("kilogram", "kilograms"),
    ("liter", "liters"), ("litre", "litres"), ("milliliter", "milliliters"),
    ("piece", "pieces"), ("layer", "layers"), ("scoop", "scoops"), ("bar", "bars"),
    ("patty", "patties"), ("pancake", "pancakes"), ("slice", "slices"), ("roll", "rolls"),
    ("falafel", "falafel"), ("appetizer", "appetizers"), ("bowl", "bowls"),
    ("scone", "scones"), ("brownie", "brownies"), ("blondie", "blondies"),
    ("churro", "churros"), ("crepe", "crepes"), ("croissant", "croissants"),
    ("donut", "donuts"), ("fritter", "fritters"), ("naan", "naan"), ("pierogi", "pierogies"),
    ("pizzelle", "pizzelles"), ("tart", "tarts"), ("turnover", "turnovers"),
    ("burrito", "burritos"), ("quesadilla", "quesadillas"), ("gordita", "gorditas"),
    ("wrap", "wraps"), ("skewer", "skewers"), ("jar", "jars"), ("square", "squares"),
  ]
  /// Abbreviated units written right after the number ("500 g", "2 lbs").
  private static let abbreviations: [(String, String, String)] = [
    ("kg", "kilogram", "kilograms"), ("lbs", "pound", "pounds"), ("lb", "pound", "pounds"),
    ("oz", "ounce", "ounces"), ("ml", "milliliter", "milliliters"), ("g", "gram", "grams"),
  ]
  private static let itemWords = ["makes", "items", "item", "sandwiches", "appetizer", "porzioni"]

  static func normalise(_ text: String) -> String? {
    let lower = HTMLText.collapse(text).lowercased()
    guard !lower.isEmpty else { return nil }
    var scalars = Array(lower.unicodeScalars)
    // A range: keep what follows its lower end.
    if let range = upperRangeStart(scalars) { scalars = Array(scalars[range...]) }
    var number = ""
    var index = 0
    while index < scalars.count, !(scalars[index] >= "0" && scalars[index] <= "9") { index += 1 }
    while index < scalars.count,
      (scalars[index] >= "0" && scalars[index] <= "9") || scalars[index] == "."
    {
      number.unicodeScalars.append(scalars[index])
      index += 1
    }
    guard let value = Double(number), value > 0 else {
      return nil
    }
    let count = value == value.rounded() ? String(Int(value)) : number
    let rest = String(String.UnicodeScalarView(scalars[index...]))
    var best: (String, String)?
    for (singular, plural) in units where containsWord(rest, singular) || containsWord(rest, plural)
    {
      if best == nil || singular.count > best!.0.count { best = (singular, plural) }
    }
    if best == nil, let unit = abbreviation(after: rest) { best = (unit.1, unit.2) }
    if let (singular, plural) = best {
      return "\(count) \(value == 1 ? singular : plural)"
    }
    if best == nil, itemWords.contains(where: { lower.contains($0) }) {
      return "\(count) \(value == 1 ? "item" : "items")"
    }
    return "\(count) \(value == 1 ? "serving" : "servings")"
  }

  /// Whether a yield names what it counts in a unit ("15 fritters", "2 loaves", "500 g"), not
  /// just servings: of several yields a recipe states, the first that does is the one read.
  static func hasUnit(_ text: String) -> Bool {
    let lower = HTMLText.collapse(text).lowercased()
    if units.contains(where: { containsWord(lower, $0.0) || containsWord(lower, $0.1) }) {
      return true
    }
    guard let digit = lower.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return false }
    let rest = lower[digit...].drop { ($0.isASCII && $0.isNumber) || $0 == "." }
    return abbreviation(after: String(rest)) != nil
  }

  /// The abbreviated unit at the start of `rest` (after spaces), followed by no letter.
  private static func abbreviation(after rest: String) -> (String, String, String)? {
    let trimmed = rest.drop { $0 == " " }
    return abbreviations.first { unit in
      trimmed.hasPrefix(unit.0) && !(trimmed.dropFirst(unit.0.count).first?.isLetter ?? false)
    }
  }

  private static func containsWord(_ text: String, _ word: String) -> Bool {
    var search = text[...]
    while let range = search.firstRange(of: word) {
      let before =
        range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
      let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
      if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) { return true }
      search = text[range.upperBound...]
    }
    return false
  }

  /// Where the upper end of a "N-M" / "N to M" / "N–M" range starts, if there is one.
  private static func upperRangeStart(_ scalars: [Unicode.Scalar]) -> Int? {
    var index = 0
    func digit(_ at: Int) -> Bool { at < scalars.count && scalars[at] >= "0" && scalars[at] <= "9" }
    while index < scalars.count {
      guard digit(index) else {
        index += 1
        continue
      }
      while digit(index) { index += 1 }
      // "2-4" or "2 to 4"; "2 - 4" is no range (recipe-scrapers reads its first number).
      var look = index
      var separator = false
      if look < scalars.count, scalars[look] == "-" {
        look += 1
        separator = true
      } else {
        while look < scalars.count, scalars[look] == " " { look += 1 }
        for word in ["to"] {
          let letters = Array(word.unicodeScalars)
          if look + letters.count <= scalars.count,
            Array(scalars[look..<look + letters.count]) == letters,
            look + letters.count < scalars.count, scalars[look + letters.count] == " "
          {
            look += letters.count
            separator = true
            break
          }
        }
      }
      if separator, scalars[look - 1] != "-" {
        while look < scalars.count, scalars[look] == " " { look += 1 }
      }
      if separator, digit(look) { return look }
    }
    return nil
  }
}
