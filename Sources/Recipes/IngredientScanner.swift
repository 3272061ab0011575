/// Reads the quantity and unit at the start of an ingredient line.
struct IngredientScanner {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
  }

  var rest: String {
    String(String.UnicodeScalarView(scalars[index...]))
  }

  /// Canonical unit for each spelling (lowercased, without a trailing dot).
  private static let units: [String: String] = {
    var table: [String: String] = [:]
    let groups: [(String, [String])] = [
      ("cup", ["cup", "cups", "c"]),
      ("tbsp", ["tbsp", "tbsps", "tbs", "tbl", "tablespoon", "tablespoons", "el", "msk", "cs"]),
      ("tsp", ["tsp", "tsps", "teaspoon", "teaspoons", "tl", "tsk", "cc", "cuil"]),
      ("g", ["g", "gr", "gram", "grams", "gramm", "gramos", "grammes", "grammi"]),
      ("kg", ["kg", "kilo", "kilos", "kilogram", "kilograms"]),
      ("mg", ["mg"]),
      ("ml", ["ml", "millilitre", "milliliter", "millilitres", "milliliters"]),
      ("cl", ["cl"]), ("dl", ["dl"]),
      ("l", ["l", "litre", "liter", "litres", "liters"]),
      ("oz", ["oz", "ounce", "ounces"]),
      ("fl oz", ["floz"]),
      ("lb", ["lb", "lbs", "pound", "pounds"]),
      ("pinch", ["pinch", "pinches", "prise"]),
      ("dash", ["dash", "dashes"]),
      ("clove", ["clove", "cloves"]),
      ("can", ["can", "cans", "tin", "tins"]),
      ("package", ["package", "packages", "pkg", "packet", "packets", "pack"]),
      ("stick", ["stick", "sticks"]),
      ("slice", ["slice", "slices"]),
      ("bunch", ["bunch", "bunches"]),
      ("handful", ["handful", "handfuls"]),
      ("piece", ["piece", "pieces", "pc", "pcs"]),
      ("sprig", ["sprig", "sprigs"]),
      ("pint", ["pint", "pints", "pt"]),
      ("quart", ["quart", "quarts", "qt"]),
      ("gallon", ["gallon", "gallons", "gal"]),
      ("cm", ["cm"]), ("inch", ["inch", "inches", "in"]),
    ]
    for (canonical, spellings) in groups {
      for spelling in spellings { table[spelling] = canonical }
    }
    return table
  }()

  private func isDigit(_ at: Int) -> Bool {
    at < scalars.count && scalars[at] >= "0" && scalars[at] <= "9"
  }

  private mutating func skipSpaces() {
    while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
  }

  /// One number: "2", "1.5", "1,5", "1/2", "1 1/2", "1½", "½", "1 ½".
  private mutating func number() -> Double? {
    skipSpaces()
    let start = index
    var value: Double?
    var digits = ""
    while isDigit(index)
      || (index < scalars.count && (scalars[index] == "." || scalars[index] == ",")
        && isDigit(index + 1) && !digits.isEmpty)
    {
      digits.unicodeScalars.append(scalars[index] == "," ? "." : scalars[index])
      index += 1
    }
    if !digits.isEmpty { value = Double(digits) }
    // A fraction "a/b" (also after a whole number: "1 1/2").
    if let whole = value, index < scalars.count, scalars[index] == "/" || scalars[index] == "⁄" {
      var look = index + 1
      var denominator = ""
      while isDigit(look) {
        denominator.unicodeScalars.append(scalars[look])
        look += 1
      }
      if let bottom = Double(denominator), bottom > 0 {
        index = look
        return whole / bottom
      }
    }
    let afterWhole = index
    skipSpaces()
    if index < scalars.count, let fraction = Fraction.value(scalars[index]) {
      index += 1
      return (value ?? 0) + fraction
    }
    if let whole = value, isDigit(index) {
      // "1 1/2": a whole number, then a fraction.
      let save = index
      var numerator = ""
      while isDigit(index) {
        numerator.unicodeScalars.append(scalars[index])
        index += 1
      }
      if index < scalars.count, scalars[index] == "/" || scalars[index] == "⁄" {
        index += 1
        var denominator = ""
        while isDigit(index) {
          denominator.unicodeScalars.append(scalars[index])
          index += 1
        }
        if let top = Double(numerator), let bottom = Double(denominator), bottom > 0 {
          return whole + top / bottom
        }
      }
      index = save
    }
    if value == nil { index = start } else { index = afterWhole }
    return value
  }

  /// A quantity or range at the start: "2", "2-3", "2 to 3", "2–3", "½".
  mutating func quantity() -> ClosedRange<Double>? {
    guard let low = number() else { return nil }
    let save = index
    skipSpaces()
    var separated = false
    if index < scalars.count, "-–—".unicodeScalars.contains(scalars[index]) {
      index += 1
      separated = true
    } else if skipWord("to") || skipWord("or") {
      separated = true
    }
    if separated, let high = number(), high >= low { return low...high }
    index = save
    return low...low
  }

  /// Whether the line starts with a unit word and no number ("pinch of salt").
  func startsWithUnitWord() -> Bool {
    var copy = self
    return copy.unit() != nil
  }

  /// The unit word at the current position, if it is one; consumes it.
  mutating func unit() -> String? {
    skipSpaces()
    let start = index
    var word = ""
    while index < scalars.count, scalars[index].properties.isAlphabetic {
      word.unicodeScalars.append(scalars[index])
      index += 1
    }
    var key = word.lowercased()
    // "fl. oz", "fl oz".
    if key == "fl" {
      var look = index
      if look < scalars.count, scalars[look] == "." { look += 1 }
      while look < scalars.count, scalars[look] == " " { look += 1 }
      if look + 1 < scalars.count,
        String(String.UnicodeScalarView(scalars[look...look + 1]))
          .lowercased() == "oz"
      {
        index = look + 2
        key = "floz"
      }
    }
    // A unit ends the word: "g" in "garlic" is not one.
    let atWordEnd =
      index >= scalars.count || !scalars[index].properties.isAlphabetic
    guard !key.isEmpty, atWordEnd, let unit = Self.units[key] else {
      index = start
      return nil
    }
    if index < scalars.count, scalars[index] == "." { index += 1 }
    return unit
  }

  /// Consumes `word` (case-insensitive, whole word) if it comes next.
  @discardableResult
  mutating func skipWord(_ word: String) -> Bool {
    skipSpaces()
    let letters = Array(word.unicodeScalars)
    guard index + letters.count <= scalars.count else { return false }
    let candidate = String(String.UnicodeScalarView(scalars[index..<index + letters.count]))
    guard candidate.lowercased() == word,
      index + letters.count == scalars.count
        || !scalars[index + letters.count].properties.isAlphabetic
    else { return false }
    index += letters.count
    return true
  }
}
