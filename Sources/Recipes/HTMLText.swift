import CLibXML2

/// Cleaning of text found in pages and in their metadata: entities, tags, whitespace.
enum HTMLText {
  /// Elements whose text is never content.
  static let skipped: Set<String> = [
    "script", "style", "noscript", "template", "head", "iframe", "object", "svg", "button",
    "select", "textarea", "input",
  ]
  /// Elements that break lines.
  static let blocks: Set<String> = [
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "tr",
    "table", "section", "article", "header", "footer", "blockquote", "pre", "figure",
    "figcaption", "hr", "form", "fieldset", "main", "aside", "nav", "address", "details",
    "summary", "td", "th",
  ]

  /// Whitespace (including no-break spaces) collapsed to single spaces, trimmed; soft hyphens
  /// (U+00AD, invisible unless a word breaks there) dropped. "Â" before a no-break space is
  /// that space's UTF-8 bytes once read as Latin-1 (a page's own mojibake: "2/3 cupÂ juice"),
  /// so it is a space too.
  static func collapse(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var space = false
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      if scalar == "\u{00AD}" { continue }
      if scalar.properties.isWhitespace || scalar == "\u{200B}" || scalar == "\u{FEFF}"
        || (scalar == "\u{00C2}" && next == "\u{00A0}")
      {
        space = !result.isEmpty
      } else {
        if space { result.unicodeScalars.append(" ") }
        space = false
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A metadata string as lines of plain text: entities decoded, tags stripped (scripts and
  /// their content dropped), block tags and `<br>` as line breaks, newlines kept.
  static func lines(_ text: String) -> [String] {
    lines(text, again: true)
  }

  private static func lines(_ text: String, again: Bool) -> [String] {
    guard text.contains(where: { $0 == "<" || $0 == "&" }) else {
      return text.split(whereSeparator: \.isNewline).map { collapse(String($0)) }.filter {
        !$0.isEmpty
      }
    }
    // NB: newlines in the string are content line breaks; HTML would fold them, so they
    // become <br> first.
    var markup = "<html><body><div>"
    for character in text {
      if character.isNewline { markup += "<br>" } else { markup.append(character) }
    }
    markup += "</div></body></html>"
    let document = HTMLDocument(bytes: Array(markup.utf8))
    guard let body = document.descendants().first(where: { document.nodes[$0].name == "body" })
    else { return [] }
    var result = document.lines(of: body)
    // Double-encoded entities ("&amp;#8211;") are common in feeds, and encoded markup
    // ("&lt;script&gt;") must not come out as markup: decode and strip once more.
    if again {
      result = result.flatMap { line in
        looksEncoded(line) ? lines(line, again: false) : [line]
      }
    }
    return result
  }

  /// Whether a decoded line still holds an entity or something like a tag.
  private static func looksEncoded(_ line: String) -> Bool {
    var previous: Character = " "
    for character in line {
      if previous == "<", character.isLetter || character == "/" || character == "!" {
        return true
      }
      if previous == "&", character.isLetter || character == "#" { return line.contains(";") }
      previous = character
    }
    return false
  }

  /// A metadata string as one line of plain text.
  static func clean(_ text: String) -> String {
    lines(text).joined(separator: " ")
  }

  /// An ingredient line as careful importers tidy it: a note doubly parenthesised by its
  /// page's template ("salt ((to taste))") keeps one pair when the line has both `((` and
  /// `))`, and a space before a comma goes ("sprouts , halved").
  static func tidy(_ line: String) -> String {
    var result = line
    if result.contains("((") && result.contains("))") {
      result = result.replacing("((", with: "(").replacing("))", with: ")")
    }
    return dashAfterAmount(result.replacing(" ,", with: ","))
  }

  /// "300g - dried chickpeas", "3 tbsp - olive oil": a dash a page draws between the amount
  /// and the ingredient goes ("1 - 2 cloves", a range, stays).
  private static func dashAfterAmount(_ line: String) -> String {
    let characters = Array(line.prefix(24))
    guard let first = characters.first, first.isNumber else { return line }
    var index = 0
    while index < characters.count,
      characters[index].isNumber || "/.,".contains(characters[index])
    {
      index += 1
    }
    func dashAt(_ index: Int) -> Bool {
      index + 3 < characters.count && characters[index] == " "
        && "-–".contains(characters[index + 1]) && characters[index + 2] == " "
        && characters[index + 3].isLetter
    }
    if !dashAt(index) {
      // A unit of up to six letters after the number ("300g", "3 tbsp").
      var end = index
      if end < characters.count, characters[end] == " " { end += 1 }
      let start = end
      while end < characters.count, end - start < 7, characters[end].isLetter { end += 1 }
      guard end > start, end - start <= 6, dashAt(end) else { return line }
      index = end
    }
    return String(characters[..<index]) + " " + line.dropFirst(index + 3)
  }
}
