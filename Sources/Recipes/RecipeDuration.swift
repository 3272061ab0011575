/// Cooking times: ISO 8601 durations (with days, weeks, fractions) and the free forms pages
/// use instead ("1 hour 30 minutes", "45 mins", "1h30", "90").
enum RecipeDuration {
  /// Whole minutes in `text`, or nil when it holds no time (or a negative one).
  static func minutes(_ text: String) -> Int? {
    let trimmed = HTMLText.collapse(text).uppercased()
    guard !trimmed.isEmpty else { return nil }
    // A negative ISO duration ("PT-471406H28M55S", a plugin's subtraction gone wrong) is no time.
    if trimmed.hasPrefix("P"), trimmed.contains("-") { return nil }
    if trimmed.hasPrefix("P"), let minutes = iso(trimmed) { return minutes }
    var lower = trimmed.lowercased()
    // "8 hours on low or 4 hours on high": the first of two alternatives.
    for word in [" or ", " ou ", " oder ", " eller "] {
      if let range = lower.firstRange(of: word), isDuration(String(lower[..<range.lowerBound])) {
        lower = String(lower[..<range.lowerBound])
      }
    }
    return free(lower)
  }

  /// Whether a text starts as a duration does: a number (or a range, "10 - 15"), then a unit
  /// of time ("20 min", "1 h 05", "2 hours on low") or a colon ("1:15"); a label of its own
  /// may come first ("Time required: 10-20 minutes").
  static func isDuration(_ text: String) -> Bool {
    var scalars = Array(HTMLText.collapse(text).lowercased().unicodeScalars)
    if let colon = scalars.firstIndex(of: ":"), !scalars[..<colon].contains(where: isDigit) {
      scalars = Array(scalars[(colon + 1)...].drop { $0 == " " })
    }
    guard let first = scalars.first, isDigit(first) || Fraction.value(first) != nil else {
      return false
    }
    var index = 0
    while index < scalars.count,
      isDigit(scalars[index]) || Fraction.value(scalars[index]) != nil
        || [".", ",", " ", "-", "–"].contains(scalars[index])
    {
      index += 1
    }
    if index < scalars.count, scalars[index] == ":" { return true }
    var word = ""
    while index < scalars.count, scalars[index].properties.isAlphabetic {
      word.unicodeScalars.append(scalars[index])
      index += 1
    }
    return unitMinutes(word) != nil
  }

  /// The recipe keys that hold times.
  static let keys = ["prepTime", "cookTime", "totalTime"]

  /// The times of a recipe in ISO 8601 from their texts by key (`prepTime`, `cookTime`,
  /// `totalTime`); a missing or zero total is prep + cook.
  static func times(_ texts: [String: String]) -> [String: String] {
    var minutes: [String: Int] = [:]
    for key in keys {
      if let text = texts[key], let count = self.minutes(text) { minutes[key] = count }
    }
    let sum = (minutes["prepTime"] ?? 0) + (minutes["cookTime"] ?? 0)
    if (minutes["totalTime"] ?? 0) == 0, sum > 0 { minutes["totalTime"] = sum }
    return minutes.mapValues { iso(minutes: $0) }
  }

  /// "PT1H30M" (or "PT90M"; "PT0M" for zero).
  static func iso(minutes: Int) -> String {
    let hours = minutes / 60
    let rest = minutes % 60
    if hours == 0 { return "PT\(rest)M" }
    return rest == 0 ? "PT\(hours)H" : "PT\(hours)H\(rest)M"
  }

  private static func iso(_ text: String) -> Int? {
    var total = 0.0
    var number = ""
    var inTime = false
    var seen = false
    for character in text.dropFirst() {
      if character.isNumber || character == "." || character == "," {
        number.append(character == "," ? "." : character)
        continue
      }
      if character == "T" {
        inTime = true
        continue
      }
      guard let value = Double(number) else {
        if character == " " { continue }
        return nil
      }
      number = ""
      seen = true
      switch (character, inTime) {
      case ("Y", false): total += value * 525_600
      case ("M", false): total += value * 43_200
      case ("W", false): total += value * 10_080
      case ("D", false): total += value * 1_440
      case ("H", true): total += value * 60
      case ("M", true): total += value
      case ("S", true): total += value / 60
      default: return nil
      }
    }
    // "PT20" (no unit) is read as minutes, as sites mean it.
    if let value = Double(number) {
      total += inTime ? value : value * 1_440
      seen = true
    }
    return seen ? Int(total.rounded()) : nil
  }

  /// Free text: sums "N unit" pairs (days, hours, minutes, seconds in several languages); a
  /// bare number is minutes; "1h30" is 90; a range ("10-15 minutes", "15 to 30 minutes")
  /// counts its upper end.
  private static func free(_ text: String) -> Int? {
    let scalars = text.unicodeScalars.map { $0 == "," ? "." : $0 }
    var total = 0.0
    var seen = false
    var index = 0
    var lastUnitMinutes = 0.0
    while index < scalars.count {
      guard isDigit(scalars[index]) || Fraction.value(scalars[index]) != nil else {
        index += 1
        continue
      }
      var number = ""
      var value = 0.0
      while index < scalars.count, isDigit(scalars[index]) || scalars[index] == "." {
        number.unicodeScalars.append(scalars[index])
        index += 1
      }
      value = Double(number) ?? 0
      // "1:15" (hours and minutes, "1:15 h"): 75 minutes, and its unit word is skipped.
      if index + 2 < scalars.count, scalars[index] == ":", isDigit(scalars[index + 1]),
        isDigit(scalars[index + 2]), index + 3 == scalars.count || !isDigit(scalars[index + 3])
      {
        total +=
          value * 60 + Double((scalars[index + 1].value - 48) * 10 + scalars[index + 2].value - 48)
        index += 3
        while index < scalars.count, scalars[index] == " " || scalars[index].properties.isAlphabetic
        {
          index += 1
        }
        seen = true
        continue
      }
      if index < scalars.count, let fraction = Fraction.value(scalars[index]) {
        value += fraction
        index += 1
      }
      // A range ("10-15", "15 to 30", "10 bis 15"): skip to its upper end.
      var look = index
      while look < scalars.count, scalars[look] == " " { look += 1 }
      var between = ""
      var after = look
      while after < scalars.count, scalars[after].properties.isAlphabetic {
        between.unicodeScalars.append(scalars[after])
        after += 1
      }
      if between.isEmpty, look < scalars.count, scalars[look] == "-" || scalars[look] == "–" {
        after = look + 1
      }
      if after > look, between.isEmpty || rangeWords.contains(between.lowercased()) {
        while after < scalars.count, scalars[after] == " " { after += 1 }
        if after < scalars.count, isDigit(scalars[after]) {
          index = after
          continue
        }
      }
      while index < scalars.count, scalars[index] == " " { index += 1 }
      var word = ""
      while index < scalars.count, scalars[index].properties.isAlphabetic {
        word.unicodeScalars.append(scalars[index])
        index += 1
      }
      let unit = unitMinutes(word)
      if let unit {
        total += value * unit
        lastUnitMinutes = unit
      } else if lastUnitMinutes == 60 {
        total += value  // "1h30"
        lastUnitMinutes = 0
      } else {
        total += value
      }
      seen = true
    }
    return seen ? Int(total.rounded()) : nil
  }

  /// Words between the ends of a range, in the languages `unitMinutes` reads.
  private static let rangeWords: Set<String> = ["to", "bis", "à", "a", "tot", "até", "al"]

  private static func unitMinutes(_ word: String) -> Double? {
    guard let first = word.first else { return nil }
    if word.hasPrefix("min") || word.hasPrefix("mn") || word == "m" || word.hasPrefix("perc")
      || word.hasPrefix("dak") || word.hasPrefix("minut") || word == "分"
    {
      return 1
    }
    if word.hasPrefix("sec") || word == "s" || word.hasPrefix("seg") { return 1 / 60 }
    if word.hasPrefix("d")
      && (word.hasPrefix("day") || word.hasPrefix("dag") || word == "d"
        || word.hasPrefix("dí") || word.hasPrefix("dia"))
    {
      return 1_440
    }
    if first == "h" || word.hasPrefix("st") || word.hasPrefix("ór") || word.hasPrefix("saat")
      || word.hasPrefix("tim") || word.hasPrefix("ora") || word.hasPrefix("uur")
      || word.hasPrefix("heure") || word.hasPrefix("時間")
    {
      return 60
    }
    return nil
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar >= "0" && scalar <= "9"
  }
}
