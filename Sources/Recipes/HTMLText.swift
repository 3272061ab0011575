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
    // NB: this runs over every string of every import, so it works on scalars and bytes: a
    // megabyte of text costs milliseconds here, where Characters cost a large part of a second.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var space = false
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      if scalar == "\u{00AD}" { continue }
      if isSpace(scalar) || (scalar == "\u{00C2}" && next == "\u{00A0}") {
        space = !bytes.isEmpty
      } else {
        if space { bytes.append(UInt8(ascii: " ")) }
        space = false
        UTF8.encode(scalar) { bytes.append($0) }
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whitespace as `collapse` counts it: Unicode's White_Space, and the zero-width space and
  /// byte-order mark pages put between words.
  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
    return scalar.properties.isWhitespace || scalar == "\u{200B}" || scalar == "\u{FEFF}"
  }

  /// The scalars that end a line, as `Character.isNewline` has them (a "\r\n" pair is two
  /// here, with nothing between them).
  private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Whether `text` holds the byte `a` or the byte `b`.
  private static func holds(_ text: some StringProtocol, _ a: UInt8, or b: UInt8) -> Bool {
    text.utf8.contains { $0 == a || $0 == b }
  }

  /// A metadata string as lines of plain text: entities decoded, tags stripped (scripts and
  /// their content dropped), block tags and `<br>` as line breaks, newlines kept.
  static func lines(_ text: String) -> [String] {
    lines(text, again: true)
  }

  private static func lines(_ text: String, again: Bool) -> [String] {
    guard holds(text, UInt8(ascii: "<"), or: UInt8(ascii: "&")) else {
      return text.unicodeScalars.split(whereSeparator: isNewline).map { collapse(String($0)) }
        .filter { !$0.isEmpty }
    }
    // NB: newlines in the string are content line breaks; HTML would fold them, so they
    // become <br> first.
    var markup = Array("<html><body><div>".utf8)
    markup.reserveCapacity(text.utf8.count + 64)
    for scalar in text.unicodeScalars {
      if isNewline(scalar) {
        markup += "<br>".utf8
      } else {
        UTF8.encode(scalar) { markup.append($0) }
      }
    }
    markup += "</div></body></html>".utf8
    let document = HTMLDocument(bytes: markup)
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
    guard holds(line, UInt8(ascii: "<"), or: UInt8(ascii: "&")) else { return false }
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
    return dashAfterAmount(withoutSpaceBeforeComma(result))
  }

  /// `line` without the space before each comma ("sprouts , halved").
  static func withoutSpaceBeforeComma(_ line: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(line.utf8.count)
    var changed = false
    for byte in line.utf8 {
      if byte == UInt8(ascii: ","), bytes.last == UInt8(ascii: " ") {
        bytes.removeLast()
        changed = true
      }
      bytes.append(byte)
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : line
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
